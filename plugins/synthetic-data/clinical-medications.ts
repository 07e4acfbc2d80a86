/**
 * Medications every generator draws from: RxNorm semantic clinical drugs with their published names, a matching sig
 * and dose form, and the condition (SNOMED CT) each is usually prescribed for, so a medication list follows the
 * problem list.
 */
import type { ClinicalConcept } from './clinical-code-systems.ts';

/** A prescribable drug. */
export interface MedicationConcept {
  /** RxNorm concept unique identifier (RXCUI) of the clinical drug. */
  rxnorm: string;
  display: string;
  sig: string;
  form: ClinicalConcept;
  /** Doses a day (for the supply duration of a prescription). */
  perDay: number;
  /** SNOMED CT codes of the conditions it treats; empty for an as-needed drug. */
  treats: readonly string[];
  /** Youngest age it is prescribed at. */
  minAge: number;
}

const TABLET: ClinicalConcept = { code: 'TAB', display: 'Tablet' };
const CAPSULE: ClinicalConcept = { code: 'CAP', display: 'Capsule' };
const INHALER: ClinicalConcept = { code: 'INHL', display: 'Inhaler' };

/** The medication list. */
export const MEDICATIONS: readonly MedicationConcept[] = [
  { rxnorm: '197361', display: 'amlodipine 5 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: TABLET, perDay: 1, treats: ['38341003'], minAge: 18 },
  { rxnorm: '314076', display: 'lisinopril 10 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: TABLET, perDay: 1, treats: ['38341003', '84114007'], minAge: 18 },
  { rxnorm: '310798', display: 'hydrochlorothiazide 25 MG Oral Tablet', sig: 'Take 1 tablet by mouth every morning', form: TABLET, perDay: 1, treats: ['38341003'], minAge: 18 },
  { rxnorm: '860975', display: '24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet', sig: 'Take 1 tablet by mouth once daily with the evening meal', form: TABLET, perDay: 1, treats: ['44054006'], minAge: 10 },
  { rxnorm: '198211', display: 'simvastatin 40 MG Oral Tablet', sig: 'Take 1 tablet by mouth at bedtime', form: TABLET, perDay: 1, treats: ['55822004', '53741008'], minAge: 18 },
  { rxnorm: '259255', display: 'atorvastatin 80 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: TABLET, perDay: 1, treats: ['55822004', '53741008'], minAge: 18 },
  { rxnorm: '309362', display: 'clopidogrel 75 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: TABLET, perDay: 1, treats: ['53741008'], minAge: 18 },
  { rxnorm: '745679', display: '200 ACTUAT albuterol 0.09 MG/ACTUAT Metered Dose Inhaler', sig: 'Inhale 2 puffs every 4 to 6 hours as needed for wheezing', form: INHALER, perDay: 4, treats: ['195967001', '13645005'], minAge: 4 },
  { rxnorm: '312940', display: 'sertraline 50 MG Oral Tablet', sig: 'Take 1 tablet by mouth once daily', form: TABLET, perDay: 1, treats: ['35489007'], minAge: 12 },
  { rxnorm: '313782', display: 'acetaminophen 325 MG Oral Tablet', sig: 'Take 2 tablets by mouth every 6 hours as needed for pain', form: TABLET, perDay: 4, treats: ['396275006'], minAge: 12 },
  { rxnorm: '863669', display: 'tamsulosin hydrochloride 0.4 MG Oral Capsule', sig: 'Take 1 capsule by mouth once daily after the same meal', form: CAPSULE, perDay: 1, treats: ['266569009'], minAge: 40 },
  { rxnorm: '904419', display: 'alendronic acid 70 MG Oral Tablet', sig: 'Take 1 tablet by mouth once weekly with a full glass of water', form: TABLET, perDay: 1, treats: ['64859006'], minAge: 40 },
  { rxnorm: '308182', display: 'amoxicillin 250 MG Oral Capsule', sig: 'Take 1 capsule by mouth three times daily for 10 days', form: CAPSULE, perDay: 3, treats: ['65363002', '233604007'], minAge: 1 },
  { rxnorm: '310965', display: 'ibuprofen 200 MG Oral Tablet', sig: 'Take 2 tablets by mouth every 8 hours as needed for pain', form: TABLET, perDay: 3, treats: [], minAge: 12 },
];

/** Drugs prescribed for a condition (SNOMED CT code) at an age. */
export function medicationsFor(conditionSnomed: string, ageYears: number): MedicationConcept[] {
  return MEDICATIONS.filter((m) => m.treats.includes(conditionSnomed) && ageYears >= m.minAge);
}
