/**
 * A synthetic person as a FHIR R4 Patient (US Core race and ethnicity extensions, MRN and SSN identifiers, name,
 * telecom, address, marital status, language): one shape for every generator that writes FHIR, so they never drift.
 */
import type { SyntheticPerson } from './synthetic-types.ts';
import { CODE_SYSTEM_URIS as SYSTEMS } from './clinical-code-systems.ts';
import { fhirConcept as concept, fhirNarrative } from './fhir-building-blocks.ts';

/** Identifier system of generated medical record numbers (an OID of the 2.16.840.1.113883.3.9999 example arc). */
export const SYNTHETIC_MR_SYSTEM = 'urn:oid:2.16.840.1.113883.3.9999.1';

const MARITAL_DISPLAY: Record<SyntheticPerson['maritalStatus'], string> = { S: 'Never Married', M: 'Married', D: 'Divorced', W: 'Widowed' };

type Json = Record<string, unknown>;

/** The Patient resource of a person, without `id` (callers add one or reference it by a Bundle full URL). */
export function fhirPatientOf(p: SyntheticPerson): Json {
  return {
    resourceType: 'Patient',
    text: fhirNarrative(`${p.givenName} ${p.familyName}, ${p.sex === 'F' ? 'female' : 'male'}, born ${p.birthDate}, MRN ${p.mrn}`),
    extension: [
      {
        url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
        extension: [
          { url: 'ombCategory', valueCoding: { system: SYSTEMS.cdcRace, code: p.race.code, display: p.race.display } },
          { url: 'text', valueString: p.race.display },
        ],
      },
      {
        url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity',
        extension: [
          { url: 'ombCategory', valueCoding: { system: SYSTEMS.cdcRace, code: p.ethnicity.code, display: p.ethnicity.display } },
          { url: 'text', valueString: p.ethnicity.display },
        ],
      },
    ],
    identifier: [
      { use: 'usual', type: concept(SYSTEMS.v2IdentifierType, 'MR', 'Medical record number'), system: SYNTHETIC_MR_SYSTEM, value: p.mrn },
      // R4's identifier-type set has no SSN code; the us-ssn system says what the number is.
      { use: 'official', system: SYSTEMS.ssn, value: p.ssn },
    ],
    active: true,
    name: [{ use: 'official', family: p.familyName, given: [p.givenName, p.middleName] }],
    telecom: [
      { system: 'phone', value: p.phone, use: 'home' },
      { system: 'email', value: p.email, use: 'home' },
    ],
    gender: p.sex === 'F' ? 'female' : 'male',
    birthDate: p.birthDate,
    address: [
      {
        use: 'home',
        type: 'both',
        line: [p.address.line1],
        city: p.address.city,
        ...(p.address.county ? { district: p.address.county } : {}),
        state: p.address.state,
        postalCode: p.address.zip,
        country: 'US',
      },
    ],
    maritalStatus: concept(SYSTEMS.maritalStatus, p.maritalStatus, MARITAL_DISPLAY[p.maritalStatus]),
    communication: [{ language: concept(SYSTEMS.language, p.language, p.language === 'es' ? 'Spanish' : 'English'), preferred: true }],
  };
}
