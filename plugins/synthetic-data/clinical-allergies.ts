/**
 * Allergens every generator draws from: drug allergens with their RxNorm ingredient (as HL7 v2 AL1-3 and US Core
 * AllergyIntolerance code them), food and environmental allergens with their SNOMED CT substance, each with a short
 * reaction text; plus coded reaction manifestations (SNOMED CT findings) with a fitting severity.
 */
import type { ClinicalConcept } from './clinical-code-systems.ts';

/** An allergen. */
export interface AllergenConcept {
  display: string;
  category: 'medication' | 'food' | 'environment';
  /** RxNorm ingredient for drugs. */
  rxnorm?: string;
  /** SNOMED CT substance for food and environmental allergens. */
  snomed?: string;
  /**
   * A typical reaction as free text; it uses "&" so generated HL7 messages exercise escaping, and stays within the
   * 15 characters AL1-5 allows in v2.3 to v2.5.
   */
  reaction: string;
  /** Relative share among people with an allergy (drug allergy to penicillin is the most common recorded). */
  weight: number;
}

/** The allergen list. */
export const ALLERGENS: readonly AllergenConcept[] = [
  { display: 'penicillin', category: 'medication', rxnorm: '70618', reaction: 'Hives & itching', weight: 30 },
  { display: 'amoxicillin', category: 'medication', rxnorm: '723', reaction: 'Rash & hives', weight: 8 },
  { display: 'codeine', category: 'medication', rxnorm: '2670', reaction: 'Nausea & emesis', weight: 8 },
  { display: 'sulfamethoxazole / trimethoprim', category: 'medication', rxnorm: '10831', reaction: 'Rash & fever', weight: 10 },
  { display: 'aspirin', category: 'medication', rxnorm: '1191', reaction: 'Wheeze & cough', weight: 5 },
  { display: 'Peanut', category: 'food', snomed: '256349002', reaction: 'Lip & face rash', weight: 10 },
  { display: 'Cashew nut', category: 'food', snomed: '227493005', reaction: 'Itch & swelling', weight: 4 },
  { display: 'Eggs', category: 'food', snomed: '102263004', reaction: 'Rash & vomiting', weight: 4 },
  { display: 'Pollen', category: 'environment', snomed: '256259004', reaction: 'Sneeze & itch', weight: 15 },
  { display: 'Latex', category: 'environment', snomed: '111088007', reaction: 'Rash & itching', weight: 6 },
];

/** The code of an allergen and the code system it is in (RxNorm for drugs, SNOMED CT otherwise). */
export function allergenCode(allergen: AllergenConcept): { code: string; system: 'rxnorm' | 'snomed' } {
  return allergen.rxnorm ? { code: allergen.rxnorm, system: 'rxnorm' } : { code: allergen.snomed ?? '', system: 'snomed' };
}

/** HL7 v2 allergen type (table 0127) of a category. */
export const HL7_ALLERGEN_TYPES: Readonly<Record<AllergenConcept['category'], { code: 'DA' | 'FA' | 'EA'; display: string }>> = {
  medication: { code: 'DA', display: 'Drug allergy' },
  food: { code: 'FA', display: 'Food allergy' },
  environment: { code: 'EA', display: 'Environmental allergy' },
};

/** Allergic reaction manifestations (SNOMED CT findings) with a fitting severity. */
export const ALLERGY_REACTIONS: ReadonlyArray<ClinicalConcept & { severity: 'mild' | 'moderate' | 'severe' }> = [
  { code: '271807003', display: 'Eruption of skin', severity: 'mild' },
  { code: '247472004', display: 'Wheal', severity: 'moderate' },
  { code: '49727002', display: 'Cough', severity: 'mild' },
  { code: '39579001', display: 'Anaphylaxis', severity: 'severe' },
];
