import { describe, expect, it } from 'vitest';
import { createFhirTerminology } from '../../plugins/fhir-standard/fhir-terminology.ts';
import { testAdapter } from './fhir-fixtures.ts';

/** Required value sets of R4 that the shipped terminology cannot expand (also listed in the plugin README). */
const UNEXPANDABLE_REQUIRED = [
  'http://hl7.org/fhir/ValueSet/characteristic-combination',
  'http://hl7.org/fhir/ValueSet/currencies',
  'http://hl7.org/fhir/ValueSet/mimetypes',
  'http://hl7.org/fhir/ValueSet/subscription-notification-type',
  'http://hl7.org/fhir/ValueSet/ucum-units',
  'http://loinc.org/vs/LL379-9',
];

describe('FHIR terminology', () => {
  const terminology = createFhirTerminology();

  it('expands every required value set of R4 except the documented few', () => {
    const required = [...new Set(testAdapter().definitions.boundValueSets().filter((b) => b.strength === 'required').map((b) => b.valueSet))];
    const failing = required.filter((url) => !terminology.valueSet(url)).sort();
    expect(failing).toEqual(UNEXPANDABLE_REQUIRED);
    expect(required.length - failing.length).toBeGreaterThan(200);
  });

  it('says why a value set cannot be expanded', () => {
    expect(terminology.reason('http://hl7.org/fhir/ValueSet/mimetypes')).toMatch(/urn:ietf:bcp:13 is not shipped/);
    expect(terminology.reason('http://hl7.org/fhir/ValueSet/administrative-gender')).toBeUndefined();
  });

  it('expands concept lists, whole code systems, is-a filters and nested value sets', () => {
    expect([...(terminology.valueSet('http://hl7.org/fhir/ValueSet/administrative-gender|4.0.1')?.codes ?? [])]).toEqual(['male', 'female', 'other', 'unknown']);
    // v3 ActEncounterCode is an is-a filter over the ActCode hierarchy.
    const encounterClass = terminology.valueSet('http://terminology.hl7.org/ValueSet/v3-ActEncounterCode');
    expect(encounterClass?.systemCodes.has('http://terminology.hl7.org/CodeSystem/v3-ActCode|AMB')).toBe(true);
    expect(encounterClass?.codes.has('IMP')).toBe(true);
    // marital-status includes v3-MaritalStatus and one NullFlavor code.
    const marital = terminology.valueSet('http://hl7.org/fhir/ValueSet/marital-status');
    expect(marital?.systemCodes.has('http://terminology.hl7.org/CodeSystem/v3-NullFlavor|UNK')).toBe(true);
    expect(marital?.systemCodes.has('http://terminology.hl7.org/CodeSystem/v3-NullFlavor|NI')).toBe(false);
  });
});
