/**
 * Vaccines every generator draws from: CDC CVX codes with their short descriptions, an MVX manufacturer that makes
 * them (CDC MVX table) and the ages they are given at (CDC immunization schedules).
 */

/** A vaccine. */
export interface VaccineConcept {
  cvx: string;
  display: string;
  mvx: string;
  manufacturer: string;
  minAge: number;
  maxAge: number;
}

/** The vaccine list. */
export const VACCINES: readonly VaccineConcept[] = [
  { cvx: '08', display: 'Hep B, adolescent or pediatric', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.', minAge: 0, maxAge: 18 },
  { cvx: '20', display: 'DTaP', mvx: 'PMC', manufacturer: 'sanofi pasteur', minAge: 0, maxAge: 6 },
  { cvx: '03', display: 'MMR', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.', minAge: 1, maxAge: 18 },
  { cvx: '21', display: 'varicella', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.', minAge: 1, maxAge: 18 },
  { cvx: '133', display: 'Pneumococcal conjugate PCV 13', mvx: 'PFR', manufacturer: 'Pfizer, Inc', minAge: 0, maxAge: 5 },
  { cvx: '115', display: 'Tdap', mvx: 'SKB', manufacturer: 'GlaxoSmithKline', minAge: 11, maxAge: 120 },
  { cvx: '141', display: 'Influenza, seasonal, injectable', mvx: 'PMC', manufacturer: 'sanofi pasteur', minAge: 3, maxAge: 120 },
  { cvx: '140', display: 'Influenza, seasonal, injectable, preservative free', mvx: 'PMC', manufacturer: 'sanofi pasteur', minAge: 0, maxAge: 120 },
  { cvx: '208', display: 'COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL dose', mvx: 'PFR', manufacturer: 'Pfizer, Inc', minAge: 12, maxAge: 120 },
  { cvx: '33', display: 'pneumococcal polysaccharide vaccine, 23 valent', mvx: 'MSD', manufacturer: 'Merck and Co., Inc.', minAge: 65, maxAge: 120 },
  { cvx: '187', display: 'zoster vaccine recombinant', mvx: 'SKB', manufacturer: 'GlaxoSmithKline', minAge: 50, maxAge: 120 },
  { cvx: '43', display: 'Hep B, adult', mvx: 'SKB', manufacturer: 'GlaxoSmithKline', minAge: 19, maxAge: 120 },
];
