/**
 * Observation kinds every generator draws from: LOINC codes with their published displays, UCUM units, the range
 * values are drawn from and the adult reference interval (common laboratory ranges, which vary by laboratory).
 */
import type { ClinicalConcept } from './clinical-code-systems.ts';

/** A quantitative observation kind. */
export interface ObservationKind {
  loinc: string;
  display: string;
  /** UCUM code of the unit. */
  ucum: string;
  /** Human-readable unit name. */
  unitDisplay: string;
  /** Values are drawn from [min, max] with `decimals` digits. */
  min: number;
  max: number;
  decimals: number;
  /** Adult reference interval, when the test has one. */
  low?: number;
  high?: number;
}

/** A panel ordered as one test and reported as its member observations. */
export interface LabPanel {
  loinc: string;
  display: string;
  members: readonly ObservationKind[];
}

/** Vital signs other than blood pressure (LOINC codes of the FHIR R4 vital-signs profiles). */
export const VITAL_SIGNS: readonly ObservationKind[] = [
  { loinc: '8302-2', display: 'Body height', ucum: 'cm', unitDisplay: 'centimeter', min: 150, max: 195, decimals: 0 },
  { loinc: '29463-7', display: 'Body weight', ucum: 'kg', unitDisplay: 'kilogram', min: 48, max: 120, decimals: 1 },
  { loinc: '8867-4', display: 'Heart rate', ucum: '/min', unitDisplay: 'per minute', min: 55, max: 105, decimals: 0, low: 60, high: 100 },
  { loinc: '9279-1', display: 'Respiratory rate', ucum: '/min', unitDisplay: 'per minute', min: 11, max: 22, decimals: 0, low: 12, high: 20 },
  { loinc: '8310-5', display: 'Body temperature', ucum: 'Cel', unitDisplay: 'degree Celsius', min: 36.0, max: 38.2, decimals: 1, low: 36.1, high: 37.2 },
  { loinc: '2708-6', display: 'Oxygen saturation in Arterial blood', ucum: '%', unitDisplay: 'percent', min: 92, max: 100, decimals: 0, low: 95, high: 100 },
  { loinc: '39156-5', display: 'Body mass index (BMI) [Ratio]', ucum: 'kg/m2', unitDisplay: 'kilogram per square meter', min: 18, max: 38, decimals: 1, low: 18.5, high: 24.9 },
];

/** The blood pressure panel and its two components (reported together in FHIR, as two results in HL7 v2). */
export const BLOOD_PRESSURE: {
  panel: ClinicalConcept;
  systolic: ObservationKind;
  diastolic: ObservationKind;
} = {
  panel: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  systolic: { loinc: '8480-6', display: 'Systolic blood pressure', ucum: 'mm[Hg]', unitDisplay: 'millimeter of mercury', min: 100, max: 160, decimals: 0, low: 90, high: 120 },
  diastolic: { loinc: '8462-4', display: 'Diastolic blood pressure', ucum: 'mm[Hg]', unitDisplay: 'millimeter of mercury', min: 60, max: 100, decimals: 0, low: 60, high: 80 },
};

/** Laboratory panels with their members. */
export const LAB_PANELS: readonly LabPanel[] = [
  {
    loinc: '51990-0',
    display: 'Basic metabolic panel - Blood',
    members: [
      { loinc: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', ucum: 'mg/dL', unitDisplay: 'milligram per deciliter', min: 65, max: 180, decimals: 0, low: 70, high: 99 },
      { loinc: '2951-2', display: 'Sodium [Moles/volume] in Serum or Plasma', ucum: 'mmol/L', unitDisplay: 'millimole per liter', min: 132, max: 148, decimals: 0, low: 136, high: 145 },
      { loinc: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', ucum: 'mmol/L', unitDisplay: 'millimole per liter', min: 3.2, max: 5.5, decimals: 1, low: 3.5, high: 5.1 },
      { loinc: '2075-0', display: 'Chloride [Moles/volume] in Serum or Plasma', ucum: 'mmol/L', unitDisplay: 'millimole per liter', min: 95, max: 110, decimals: 0, low: 98, high: 107 },
      { loinc: '3094-0', display: 'Urea nitrogen [Mass/volume] in Serum or Plasma', ucum: 'mg/dL', unitDisplay: 'milligram per deciliter', min: 5, max: 26, decimals: 0, low: 7, high: 20 },
      { loinc: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', ucum: 'mg/dL', unitDisplay: 'milligram per deciliter', min: 0.5, max: 1.8, decimals: 2, low: 0.6, high: 1.3 },
    ],
  },
  {
    loinc: '58410-2',
    display: 'CBC panel - Blood by Automated count',
    members: [
      { loinc: '6690-2', display: 'Leukocytes [#/volume] in Blood by Automated count', ucum: '10*3/uL', unitDisplay: 'thousand per microliter', min: 3.5, max: 13, decimals: 1, low: 4.5, high: 11 },
      { loinc: '789-8', display: 'Erythrocytes [#/volume] in Blood by Automated count', ucum: '10*6/uL', unitDisplay: 'million per microliter', min: 3.9, max: 6.2, decimals: 2, low: 4.2, high: 5.9 },
      { loinc: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', ucum: 'g/dL', unitDisplay: 'gram per deciliter', min: 10.5, max: 17.5, decimals: 1, low: 12, high: 17.5 },
      { loinc: '4544-3', display: 'Hematocrit [Volume Fraction] of Blood by Automated count', ucum: '%', unitDisplay: 'percent', min: 33, max: 54, decimals: 1, low: 36, high: 52 },
      { loinc: '777-3', display: 'Platelets [#/volume] in Blood by Automated count', ucum: '10*3/uL', unitDisplay: 'thousand per microliter', min: 130, max: 450, decimals: 0, low: 150, high: 400 },
    ],
  },
];

/** Single laboratory tests ordered outside a panel. */
export const SINGLE_LAB_TESTS: readonly ObservationKind[] = [
  { loinc: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', ucum: '%', unitDisplay: 'percent', min: 4.6, max: 9.5, decimals: 1, low: 4.0, high: 5.6 },
  { loinc: '2093-3', display: 'Cholesterol [Mass/volume] in Serum or Plasma', ucum: 'mg/dL', unitDisplay: 'milligram per deciliter', min: 140, max: 260, decimals: 0, high: 200 },
];

/** Every laboratory result kind: the panels' members and the single tests. */
export const LAB_RESULTS: readonly ObservationKind[] = [...LAB_PANELS.flatMap((panel) => panel.members), ...SINGLE_LAB_TESTS];
