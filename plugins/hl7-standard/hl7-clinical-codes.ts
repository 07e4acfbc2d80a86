/**
 * Clinical code sets the generator draws from: LOINC observations with UCUM units and adult reference ranges, CVX
 * vaccines with their MVX manufacturers, ICD-10-CM diagnoses, allergens and CPT procedures. Codes and displays are the
 * published ones (loinc.org, CDC CVX/MVX tables, CMS ICD-10-CM and the AMA CPT short descriptors); reference ranges
 * are common adult laboratory ranges, which vary by laboratory.
 */

/** A numeric observation: LOINC code, UCUM unit and the range results are drawn around. */
export interface NumericObservationCode {
  loinc: string;
  display: string;
  unit: string;
  unitDisplay: string;
  low: number;
  high: number;
  decimals: number;
}

/** A panel ordered as one test (OBR-4) and reported as its member observations (OBX-3). */
export interface LabPanel {
  loinc: string;
  display: string;
  members: readonly NumericObservationCode[];
}

/** Vital signs recorded on admission. */
export const VITAL_SIGNS: readonly NumericObservationCode[] = [
  { loinc: '8302-2', display: 'Body height', unit: 'cm', unitDisplay: 'centimeter', low: 150, high: 190, decimals: 0 },
  { loinc: '29463-7', display: 'Body weight', unit: 'kg', unitDisplay: 'kilogram', low: 50, high: 110, decimals: 1 },
  { loinc: '8867-4', display: 'Heart rate', unit: '/min', unitDisplay: 'per minute', low: 60, high: 100, decimals: 0 },
  { loinc: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]', unitDisplay: 'millimeter of mercury', low: 90, high: 139, decimals: 0 },
  { loinc: '8462-4', display: 'Diastolic blood pressure', unit: 'mm[Hg]', unitDisplay: 'millimeter of mercury', low: 60, high: 89, decimals: 0 },
  { loinc: '8310-5', display: 'Body temperature', unit: 'Cel', unitDisplay: 'degree Celsius', low: 36.1, high: 37.2, decimals: 1 },
  { loinc: '9279-1', display: 'Respiratory rate', unit: '/min', unitDisplay: 'per minute', low: 12, high: 20, decimals: 0 },
];

/** Laboratory panels with their members. */
export const LAB_PANELS: readonly LabPanel[] = [
  {
    loinc: '51990-0',
    display: 'Basic metabolic panel - Blood',
    members: [
      { loinc: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL', unitDisplay: 'milligram per deciliter', low: 70, high: 99, decimals: 0 },
      { loinc: '2951-2', display: 'Sodium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', unitDisplay: 'millimole per liter', low: 136, high: 145, decimals: 0 },
      { loinc: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', unitDisplay: 'millimole per liter', low: 3.5, high: 5.1, decimals: 1 },
      { loinc: '2075-0', display: 'Chloride [Moles/volume] in Serum or Plasma', unit: 'mmol/L', unitDisplay: 'millimole per liter', low: 98, high: 107, decimals: 0 },
      { loinc: '3094-0', display: 'Urea nitrogen [Mass/volume] in Serum or Plasma', unit: 'mg/dL', unitDisplay: 'milligram per deciliter', low: 7, high: 20, decimals: 0 },
      { loinc: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', unit: 'mg/dL', unitDisplay: 'milligram per deciliter', low: 0.6, high: 1.3, decimals: 2 },
    ],
  },
  {
    loinc: '58410-2',
    display: 'CBC panel - Blood by Automated count',
    members: [
      { loinc: '6690-2', display: 'Leukocytes [#/volume] in Blood by Automated count', unit: '10*3/uL', unitDisplay: 'thousand per microliter', low: 4.5, high: 11, decimals: 1 },
      { loinc: '789-8', display: 'Erythrocytes [#/volume] in Blood by Automated count', unit: '10*6/uL', unitDisplay: 'million per microliter', low: 4.2, high: 5.9, decimals: 2 },
      { loinc: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', unitDisplay: 'gram per deciliter', low: 12, high: 17.5, decimals: 1 },
      { loinc: '4544-3', display: 'Hematocrit [Volume Fraction] of Blood by Automated count', unit: '%', unitDisplay: 'percent', low: 36, high: 52, decimals: 1 },
      { loinc: '777-3', display: 'Platelets [#/volume] in Blood by Automated count', unit: '10*3/uL', unitDisplay: 'thousand per microliter', low: 150, high: 400, decimals: 0 },
    ],
  },
];

/** A vaccine: CVX code, display, MVX manufacturer and the usual route and site. */
export interface VaccineCode {
  cvx: string;
  display: string;
  mvx: string;
  manufacturer: string;
}

/** Vaccines commonly given, with a manufacturer that makes them. */
export const VACCINES: readonly VaccineCode[] = [
  { cvx: '08', display: 'Hep B, adolescent or pediatric', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.' },
  { cvx: '20', display: 'DTaP', mvx: 'PMC', manufacturer: 'sanofi pasteur' },
  { cvx: '03', display: 'MMR', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.' },
  { cvx: '21', display: 'varicella', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.' },
  { cvx: '115', display: 'Tdap', mvx: 'SKB', manufacturer: 'GlaxoSmithKline' },
  { cvx: '141', display: 'Influenza, seasonal, injectable', mvx: 'PMC', manufacturer: 'sanofi pasteur' },
  { cvx: '133', display: 'Pneumococcal conjugate PCV 13', mvx: 'PFR', manufacturer: 'Pfizer, Inc' },
];

/** A coded concept of an external code system. */
export interface ClinicalCode {
  code: string;
  display: string;
}

/** Admission diagnoses (ICD-10-CM). */
export const DIAGNOSES: readonly ClinicalCode[] = [
  { code: 'J18.9', display: 'Pneumonia, unspecified organism' },
  { code: 'I10', display: 'Essential (primary) hypertension' },
  { code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
  { code: 'N39.0', display: 'Urinary tract infection, site not specified' },
  { code: 'I50.9', display: 'Heart failure, unspecified' },
  { code: 'K35.80', display: 'Unspecified acute appendicitis' },
  { code: 'R07.9', display: 'Chest pain, unspecified' },
];

/**
 * Allergens with a typical reaction; reactions use "&" so generated messages exercise escaping, and stay within the
 * 15 characters AL1-5 allows in v2.3 to v2.5.
 */
export const ALLERGIES: readonly (ClinicalCode & { reaction: string; type: 'DA' | 'FA' | 'EA' })[] = [
  { code: '7980', display: 'Penicillin G', reaction: 'Hives & itching', type: 'DA' },
  { code: '2670', display: 'Codeine', reaction: 'Nausea & emesis', type: 'DA' },
  { code: '10831', display: 'Sulfamethoxazole / Trimethoprim', reaction: 'Rash & fever', type: 'DA' },
  { code: '1191', display: 'Aspirin', reaction: 'Wheeze & cough', type: 'DA' },
  { code: '256349002', display: 'Peanut', reaction: 'Lip & face rash', type: 'FA' },
  { code: '111088007', display: 'Latex', reaction: 'Rash & itching', type: 'EA' },
];

/** Code system of each allergen family (RxNorm for drugs, SNOMED CT for the rest). */
export const ALLERGEN_SYSTEM: Readonly<Record<'DA' | 'FA' | 'EA', string>> = { DA: 'RXNORM', FA: 'SCT', EA: 'SCT' };

/** Billable procedures (CPT) with a list price in US dollars. */
export const CHARGES: readonly (ClinicalCode & { price: number })[] = [
  { code: '99223', display: 'Initial hospital care, high complexity', price: 412 },
  { code: '80048', display: 'Basic metabolic panel', price: 38.5 },
  { code: '85025', display: 'Complete blood count with differential', price: 29.75 },
  { code: '71046', display: 'Chest X-ray, 2 views', price: 126 },
  { code: '93000', display: 'Electrocardiogram, complete', price: 64.2 },
];

/** Clinical document kinds (HL7 table 0270) with a LOINC document code and lines of text. */
export const DOCUMENTS: readonly { type: string; display: string; loinc: string; lines: readonly string[] }[] = [
  {
    type: 'DS',
    display: 'Discharge summary',
    loinc: '18842-5',
    lines: ['Patient admitted for evaluation & treatment.', 'Course uneventful; vital signs stable at discharge.', 'Follow up with primary care in 7 days.'],
  },
  {
    type: 'HP',
    display: 'History and physical',
    loinc: '34117-2',
    lines: ['Chief complaint: cough & fever for 3 days.', 'Lungs: crackles at the right base.', 'Plan: chest X-ray, CBC & blood cultures.'],
  },
  {
    type: 'CN',
    display: 'Consultation note',
    loinc: '11488-4',
    lines: ['Consulted for blood pressure management.', 'Recommend lisinopril 10 mg daily & low-sodium diet.', 'Will follow while inpatient.'],
  },
];
