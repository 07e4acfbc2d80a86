/**
 * A small catalogue of common outpatient prescriptions for generated messages: description, NDC in the 11-digit
 * billing form, NCI unit-of-measure code, directions and usual quantity and days supply. Every NDC here has the
 * NDC shape; the catalogue is sample data, not a drug reference.
 */

/** One catalogue entry. */
export interface SyntheticDrug {
  description: string;
  ndc: string;
  /** NCI code of the dispensing unit (C48542 tablet, C48480 capsule). */
  unitCode: string;
  sig: string;
  quantity: number;
  daysSupply: number;
  /** Ingredient cost of the quantity, in cents (for D.0 pricing). */
  ingredientCostCents: number;
}

/** The catalogue. */
export const SYNTHETIC_DRUGS: readonly SyntheticDrug[] = [
  { description: 'Amoxicillin 500 MG Oral Capsule', ndc: '00093310501', unitCode: 'C48480', sig: 'Take 1 capsule by mouth three times daily for 10 days.', quantity: 30, daysSupply: 10, ingredientCostCents: 845 },
  { description: 'Atorvastatin 20 MG Oral Tablet', ndc: '00378395177', unitCode: 'C48542', sig: 'Take 1 tablet by mouth once daily in the evening.', quantity: 30, daysSupply: 30, ingredientCostCents: 1210 },
  { description: 'Lisinopril 10 MG Oral Tablet', ndc: '68180098101', unitCode: 'C48542', sig: 'Take 1 tablet by mouth once daily.', quantity: 90, daysSupply: 90, ingredientCostCents: 980 },
  { description: 'Metformin Hydrochloride 500 MG Oral Tablet', ndc: '00093104801', unitCode: 'C48542', sig: 'Take 1 tablet by mouth twice daily with meals.', quantity: 60, daysSupply: 30, ingredientCostCents: 720 },
  { description: 'Amlodipine 5 MG Oral Tablet', ndc: '00093716701', unitCode: 'C48542', sig: 'Take 1 tablet by mouth once daily.', quantity: 30, daysSupply: 30, ingredientCostCents: 640 },
  { description: 'Sertraline 50 MG Oral Tablet', ndc: '16729000101', unitCode: 'C48542', sig: 'Take 1 tablet by mouth once daily.', quantity: 30, daysSupply: 30, ingredientCostCents: 890 },
  { description: 'Omeprazole 20 MG Delayed Release Oral Capsule', ndc: '62175013643', unitCode: 'C48480', sig: 'Take 1 capsule by mouth once daily before breakfast.', quantity: 30, daysSupply: 30, ingredientCostCents: 1150 },
  { description: 'Levothyroxine Sodium 0.05 MG Oral Tablet', ndc: '00378180001', unitCode: 'C48542', sig: 'Take 1 tablet by mouth once daily on an empty stomach.', quantity: 90, daysSupply: 90, ingredientCostCents: 1540 },
];
