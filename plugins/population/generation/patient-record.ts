/**
 * The shape of one generated patient and everything recorded about them: encounters, conditions, observations,
 * medications and allergies. Identifiers are 1-based sequence numbers unique per table within one population, so
 * rows reference each other the way a database does.
 */
import type { SyntheticPerson } from '../../synthetic-data/api.ts';

/** One encounter (visit). */
export interface EncounterRecord {
  id: number;
  classCode: string;
  patientClass: 'O' | 'E' | 'I';
  typeCode: string;
  typeDisplay: string;
  /** ISO 8601 UTC instants. */
  start: string;
  end: string;
  reasonCode: string | null;
  reasonDisplay: string | null;
}

/** One problem-list entry or diagnosis. */
export interface ConditionRecord {
  id: number;
  encounterId: number;
  snomed: string;
  icd10: string;
  display: string;
  icd10Display: string;
  /** `YYYY-MM-DD`. */
  onsetDate: string;
  clinicalStatus: 'active' | 'resolved';
}

/** One quantitative observation (vital sign or laboratory result). */
export interface ObservationRecord {
  id: number;
  encounterId: number;
  loinc: string;
  display: string;
  category: 'vital-signs' | 'laboratory';
  value: number;
  /** The value formatted with the kind's decimals. */
  valueText: string;
  ucum: string;
  unitDisplay: string;
  referenceLow: number | null;
  referenceHigh: number | null;
  /** `L`, `H` or `N`, or null without a reference interval. */
  interpretation: 'L' | 'H' | 'N' | null;
  effective: string;
}

/** One prescription. */
export interface MedicationRecord {
  id: number;
  encounterId: number;
  rxnorm: string;
  display: string;
  sig: string;
  formCode: string;
  perDay: number;
  status: 'active' | 'completed';
  authoredOn: string;
  reasonSnomed: string | null;
}

/** One allergy. */
export interface AllergyRecord {
  id: number;
  system: 'rxnorm' | 'snomed';
  code: string;
  display: string;
  category: 'medication' | 'food' | 'environment';
  reaction: string;
  reactionCode: string;
  reactionDisplay: string;
  severity: 'mild' | 'moderate' | 'severe';
  recordedDate: string;
}

/** A patient with their record. */
export interface PatientRecord {
  id: number;
  person: SyntheticPerson;
  encounters: EncounterRecord[];
  conditions: ConditionRecord[];
  observations: ObservationRecord[];
  medications: MedicationRecord[];
  allergies: AllergyRecord[];
}

/** Next identifier of each table, advanced as records are made. */
export interface RecordCounters {
  encounter: number;
  condition: number;
  observation: number;
  medication: number;
  allergy: number;
}
