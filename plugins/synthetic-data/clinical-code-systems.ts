/**
 * Identifiers of the code systems the clinical vocabulary uses: the FHIR R4 system URIs (terminology page of the
 * R4 specification) and the HL7 v2 coding-system names of table 0396 for the same systems, so every generator names
 * a code system the same way.
 */

/** Code system URIs (FHIR R4 terminology page). */
export const CODE_SYSTEM_URIS = {
  loinc: 'http://loinc.org',
  snomed: 'http://snomed.info/sct',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  cvx: 'http://hl7.org/fhir/sid/cvx',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  cpt: 'http://www.ama-assn.org/go/cpt',
  ucum: 'http://unitsofmeasure.org',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  ssn: 'http://hl7.org/fhir/sid/us-ssn',
  v2IdentifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  maritalStatus: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  interpretation: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  conditionVerification: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  conditionCategory: 'http://terminology.hl7.org/CodeSystem/condition-category',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  allergyVerification: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
  cdcRace: 'urn:oid:2.16.840.1.113883.6.238',
  language: 'urn:ietf:bcp:47',
  routeOfAdministration: 'http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration',
  actSite: 'http://terminology.hl7.org/CodeSystem/v3-ActSite',
} as const;

/** HL7 v2 coding-system names (table 0396) of the external code systems. */
export const HL7_CODING_SYSTEMS = {
  loinc: 'LN',
  snomed: 'SCT',
  rxnorm: 'RXNORM',
  cvx: 'CVX',
  icd10cm: 'I10',
  cpt: 'CPT4',
  ucum: 'UCUM',
} as const;

/** A coded concept with its published display text. */
export interface ClinicalConcept {
  code: string;
  display: string;
}
