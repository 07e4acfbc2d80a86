/**
 * Conditions every generator draws from, each with its SNOMED CT concept (problem lists, FHIR Condition) and its
 * ICD-10-CM code (HL7 v2 diagnoses, claims), plus how common it is by age band and sex so a generated population
 * carries a plausible burden of disease.
 *
 * Prevalence figures are rounded from public US sources: CDC NCHS Data Briefs and the National Health Interview
 * Survey (hypertension, diabetes, high cholesterol, asthma, COPD, arthritis, coronary heart disease, depression),
 * NIDDK (GERD, benign prostatic hyperplasia), NIAMS/Bone Health & Osteoporosis Foundation (osteoporosis) and AAP
 * (acute otitis media in children). They are draw weights, not epidemiology.
 */

/** Age bands of the prevalence table: 0-17, 18-39, 40-64, 65 and over. */
export const PREVALENCE_AGE_BANDS = [
  { label: '0-17', minAge: 0, maxAge: 17 },
  { label: '18-39', minAge: 18, maxAge: 39 },
  { label: '40-64', minAge: 40, maxAge: 64 },
  { label: '65+', minAge: 65, maxAge: 200 },
] as const;

/** Percent of people with the condition in each age band, for females and males. */
export interface PrevalenceBySex {
  F: readonly [number, number, number, number];
  M: readonly [number, number, number, number];
}

/** A condition with both its problem-list and diagnosis codes. */
export interface ConditionConcept {
  /** SNOMED CT clinical finding / disorder. */
  snomed: string;
  display: string;
  /** ICD-10-CM code and its title. */
  icd10: string;
  icd10Display: string;
  /** `chronic` conditions stay on the problem list; `acute` ones resolve and are typical admission reasons. */
  course: 'chronic' | 'acute';
  prevalence: PrevalenceBySex;
}

/** The condition list. */
export const CONDITIONS: readonly ConditionConcept[] = [
  { snomed: '38341003', display: 'Hypertensive disorder, systemic arterial', icd10: 'I10', icd10Display: 'Essential (primary) hypertension', course: 'chronic', prevalence: { F: [1, 18, 50, 74], M: [2, 27, 58, 72] } },
  { snomed: '44054006', display: 'Diabetes mellitus type 2', icd10: 'E11.9', icd10Display: 'Type 2 diabetes mellitus without complications', course: 'chronic', prevalence: { F: [0.2, 3, 13, 24], M: [0.2, 4, 16, 29] } },
  { snomed: '55822004', display: 'Hyperlipidemia', icd10: 'E78.5', icd10Display: 'Hyperlipidemia, unspecified', course: 'chronic', prevalence: { F: [1, 8, 30, 48], M: [1, 12, 35, 46] } },
  { snomed: '195967001', display: 'Asthma', icd10: 'J45.909', icd10Display: 'Unspecified asthma, uncomplicated', course: 'chronic', prevalence: { F: [5, 10, 10, 9], M: [7, 6, 6, 6] } },
  { snomed: '35489007', display: 'Depressive disorder', icd10: 'F32.A', icd10Display: 'Depression, unspecified', course: 'chronic', prevalence: { F: [4, 13, 11, 8], M: [2, 7, 6, 5] } },
  { snomed: '235595009', display: 'Gastroesophageal reflux disease', icd10: 'K21.9', icd10Display: 'Gastro-esophageal reflux disease without esophagitis', course: 'chronic', prevalence: { F: [1, 12, 21, 25], M: [1, 10, 18, 22] } },
  { snomed: '13645005', display: 'Chronic obstructive lung disease', icd10: 'J44.9', icd10Display: 'Chronic obstructive pulmonary disease, unspecified', course: 'chronic', prevalence: { F: [0, 1, 6, 12], M: [0, 1, 5, 11] } },
  { snomed: '396275006', display: 'Osteoarthritis', icd10: 'M19.90', icd10Display: 'Unspecified osteoarthritis, unspecified site', course: 'chronic', prevalence: { F: [0, 3, 20, 45], M: [0, 2, 14, 33] } },
  { snomed: '53741008', display: 'Coronary arteriosclerosis', icd10: 'I25.10', icd10Display: 'Atherosclerotic heart disease of native coronary artery without angina pectoris', course: 'chronic', prevalence: { F: [0, 0.3, 4, 11], M: [0, 0.5, 7, 20] } },
  { snomed: '40055000', display: 'Chronic sinusitis', icd10: 'J32.9', icd10Display: 'Chronic sinusitis, unspecified', course: 'chronic', prevalence: { F: [2, 12, 14, 11], M: [2, 8, 9, 8] } },
  { snomed: '266569009', display: 'Benign prostatic hyperplasia', icd10: 'N40.0', icd10Display: 'Benign prostatic hyperplasia without lower urinary tract symptoms', course: 'chronic', prevalence: { F: [0, 0, 0, 0], M: [0, 1, 25, 60] } },
  { snomed: '64859006', display: 'Osteoporosis', icd10: 'M81.0', icd10Display: 'Age-related osteoporosis without current pathological fracture', course: 'chronic', prevalence: { F: [0, 0.2, 7, 25], M: [0, 0.1, 2, 5] } },
  { snomed: '65363002', display: 'Otitis media', icd10: 'H66.90', icd10Display: 'Otitis media, unspecified, unspecified ear', course: 'acute', prevalence: { F: [12, 1, 0.5, 0.5], M: [14, 1, 0.5, 0.5] } },
  { snomed: '233604007', display: 'Pneumonia', icd10: 'J18.9', icd10Display: 'Pneumonia, unspecified organism', course: 'acute', prevalence: { F: [2, 1, 2, 5], M: [2, 1, 2, 6] } },
  { snomed: '68566005', display: 'Urinary tract infectious disease', icd10: 'N39.0', icd10Display: 'Urinary tract infection, site not specified', course: 'acute', prevalence: { F: [3, 10, 8, 12], M: [1, 1, 2, 5] } },
  { snomed: '84114007', display: 'Heart failure', icd10: 'I50.9', icd10Display: 'Heart failure, unspecified', course: 'chronic', prevalence: { F: [0, 0.2, 1.5, 6], M: [0, 0.3, 2.5, 8] } },
  { snomed: '85189001', display: 'Acute appendicitis', icd10: 'K35.80', icd10Display: 'Unspecified acute appendicitis', course: 'acute', prevalence: { F: [0.3, 0.2, 0.1, 0.1], M: [0.4, 0.3, 0.1, 0.1] } },
  { snomed: '29857009', display: 'Chest pain', icd10: 'R07.9', icd10Display: 'Chest pain, unspecified', course: 'acute', prevalence: { F: [0.5, 2, 4, 5], M: [0.5, 2, 5, 6] } },
];

/** Index of the prevalence age band an age falls in. */
export function prevalenceBandOf(ageYears: number): 0 | 1 | 2 | 3 {
  if (ageYears < 18) return 0;
  if (ageYears < 40) return 1;
  if (ageYears < 65) return 2;
  return 3;
}

/** Percent of people of that age and sex who have the condition. */
export function conditionPrevalence(condition: ConditionConcept, sex: 'F' | 'M', ageYears: number): number {
  return condition.prevalence[sex][prevalenceBandOf(ageYears)];
}
