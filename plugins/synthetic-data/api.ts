/**
 * Public surface of the synthetic-data plugin: its service token, its types and its pure helpers (identifier check
 * digits live in the identifiers plugin). Other plugins import only this file and resolve the service from the
 * container; they never import the plugin's internals.
 *
 * Every value this service produces is synthetic and can never be a real person's: SSNs are in the never-issued
 * 9xx area, telephone numbers in the 555-0100..0199 range reserved for fiction.
 */
import type { DependencyContainer } from 'tsyringe';
import { defineErrorCatalogue } from '../../kernel/errors.ts';
import { createServiceRef, resolveService } from '../../kernel/service-ref.ts';

/** Container token of {@link SyntheticDataService}. */
export const SYNTHETIC_DATA = createServiceRef<SyntheticDataService>('workbench.synthetic-data');

/** Error catalogue of the synthetic-data plugin. */
export const syntheticDataErrors = defineErrorCatalogue({
  GENERATION_UNAVAILABLE: {
    status: 503,
    message:
      'Generating needs the synthetic-data plugin, which is off (plugins.synthetic-data.enabled is false); ' +
      'validate, diff and describe work without it.',
  },
});

/**
 * The synthetic-data service of a container, looked up when a generator first draws from it. A standard plugin
 * takes this rather than resolving the service at registration, so it does not require synthetic-data: with the
 * plugin off, validation works and generation answers 503 GENERATION_UNAVAILABLE.
 */
export function syntheticDataOf(container: DependencyContainer): SyntheticDataService {
  return {
    createRandom(seed) {
      if (!container.isRegistered(SYNTHETIC_DATA, true)) throw syntheticDataErrors.create('GENERATION_UNAVAILABLE');
      return resolveService(container, SYNTHETIC_DATA).createRandom(seed);
    },
  };
}

export type {
  SyntheticAddress,
  SyntheticClinician,
  SyntheticDataService,
  SyntheticPerson,
  SyntheticRandom,
} from './synthetic-types.ts';
import type { SyntheticDataService } from './synthetic-types.ts';

/**
 * The clinical vocabulary every generator shares (LOINC/UCUM observations, SNOMED CT and ICD-10-CM conditions with
 * prevalence by age and sex, RxNorm medications, allergens, CVX vaccines, encounter kinds, CPT charges, documents):
 * plain data and pure look-ups, one source for the HL7 v2, FHIR and population generators.
 */
export { CODE_SYSTEM_URIS, HL7_CODING_SYSTEMS, type ClinicalConcept } from './clinical-code-systems.ts';
export { BLOOD_PRESSURE, LAB_PANELS, LAB_RESULTS, SINGLE_LAB_TESTS, VITAL_SIGNS, type LabPanel, type ObservationKind } from './clinical-observations.ts';
export {
  CONDITIONS,
  PREVALENCE_AGE_BANDS,
  conditionPrevalence,
  prevalenceBandOf,
  type ConditionConcept,
  type PrevalenceBySex,
} from './clinical-conditions.ts';
export { MEDICATIONS, medicationsFor, type MedicationConcept } from './clinical-medications.ts';
export { ALLERGENS, ALLERGY_REACTIONS, HL7_ALLERGEN_TYPES, allergenCode, type AllergenConcept } from './clinical-allergies.ts';
export { VACCINES, type VaccineConcept } from './clinical-immunizations.ts';
export { CHARGES, DOCUMENTS, ENCOUNTER_KINDS, type EncounterKind } from './clinical-encounters.ts';

/**
 * Census-like populations: US age/sex/race/Hispanic-origin distributions by area (`us`, `us-ca`...), a fast source
 * of people that follows them, and membership checks used to attest that a population is synthetic-only.
 */
export { areaDemographics, knownAreas, US_AGE_BANDS, type AreaDemographics } from './us-census-distributions.ts';
export {
  createCensusPersonSource,
  isGeneratorAddress,
  isGeneratorName,
  SYNTHETIC_MRN_PREFIX,
  type CensusPersonSource,
} from './census-person.ts';
export { CDC_ETHNICITIES, CDC_RACES } from './cdc-race-ethnicity.ts';
/** A seeded source with fast integer draws, for volume generators. */
export { createFastRandom } from './fast-random.ts';

/** A synthetic person as a FHIR R4 Patient (US Core race/ethnicity, MRN and SSN identifiers), for every FHIR writer. */
export { fhirPatientOf, SYNTHETIC_MR_SYSTEM } from './fhir-patient.ts';
/** Narrative and CodeableConcept shapes shared by every synthetic FHIR writer. */
export { fhirConcept, fhirNarrative, type FhirJson } from './fhir-building-blocks.ts';
/** The same shapes written straight as JSON text (the characters `JSON.stringify` gives), for volume writers. */
export {
  escapeXhtml,
  fhirConceptJson,
  fhirNarrativeJson,
  jsonString,
  NARRATIVE_JSON_HEAD,
  NARRATIVE_JSON_TAIL,
} from './fhir-building-blocks.ts';
