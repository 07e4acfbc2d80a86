/**
 * Encounter vocabulary every generator draws from: encounter kinds (HL7 v3 ActCode class with a SNOMED CT encounter
 * type and a typical length), billable procedures (AMA CPT short descriptors with a list price) and clinical document
 * kinds (HL7 table 0270 with a LOINC document code and lines of text).
 */
import type { ClinicalConcept } from './clinical-code-systems.ts';

/** An encounter kind. */
export interface EncounterKind {
  class: ClinicalConcept;
  type: ClinicalConcept;
  /** Length of stay, in hours, drawn from this range. */
  hours: readonly [number, number];
  /** HL7 v2 patient class (table 0004). */
  patientClass: 'O' | 'E' | 'I';
  /** Relative frequency among all encounters. */
  weight: number;
}

/** The encounter kinds. */
export const ENCOUNTER_KINDS: readonly EncounterKind[] = [
  { class: { code: 'AMB', display: 'ambulatory' }, type: { code: '185349003', display: 'Encounter for check up' }, hours: [0, 1], patientClass: 'O', weight: 50 },
  { class: { code: 'AMB', display: 'ambulatory' }, type: { code: '390906007', display: 'Follow-up encounter' }, hours: [0, 1], patientClass: 'O', weight: 30 },
  { class: { code: 'EMER', display: 'emergency' }, type: { code: '50849002', display: 'Emergency room admission' }, hours: [2, 8], patientClass: 'E', weight: 12 },
  { class: { code: 'IMP', display: 'inpatient encounter' }, type: { code: '32485007', display: 'Hospital admission' }, hours: [24, 96], patientClass: 'I', weight: 8 },
];

/** Billable procedures (CPT) with a list price in US dollars. */
export const CHARGES: ReadonlyArray<ClinicalConcept & { price: number }> = [
  { code: '99223', display: 'Initial hospital care, high complexity', price: 412 },
  { code: '80048', display: 'Basic metabolic panel', price: 38.5 },
  { code: '85025', display: 'Complete blood count with differential', price: 29.75 },
  { code: '71046', display: 'Chest X-ray, 2 views', price: 126 },
  { code: '93000', display: 'Electrocardiogram, complete', price: 64.2 },
];

/** Clinical document kinds (HL7 table 0270) with a LOINC document code and lines of text. */
export const DOCUMENTS: ReadonlyArray<{ type: string; display: string; loinc: string; lines: readonly string[] }> = [
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
