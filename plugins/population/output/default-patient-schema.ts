/**
 * The documented default patient schema: the tables a population is written to when no connected schema says
 * otherwise (CSV files, SQL scripts, and the table names a seed looks for in the connected database). Each column
 * knows its portable type and how to read its value from a generated record.
 */
import type {
  AllergyRecord,
  ConditionRecord,
  EncounterRecord,
  MedicationRecord,
  ObservationRecord,
  PatientRecord,
} from '../generation/patient-record.ts';
import { SYNTHETIC_MRN_PREFIX } from '../../synthetic-data/api.ts';

/** Portable column types, rendered per SQL dialect. */
export type PortableType = 'integer' | 'text' | 'date' | 'timestamp' | 'decimal';

/** A value of a generated row. */
export type CellValue = string | number | null;

/** One column of a default table. */
export interface DefaultColumn<R> {
  name: string;
  type: PortableType;
  /** Maximum length of a text column. */
  length?: number;
  nullable: boolean;
  /** Table whose `id` this column references. */
  references?: DefaultTableName;
  /**
   * The values are `prefix` and a number of at least `width` digits (MRNs: `SYN00000001`). Into a column that is
   * unique, a seed numbers them past the values already there, as it does keys.
   */
  numbered?: { prefix: string; width: number };
  value(row: R, patient: PatientRecord): CellValue;
}

/** Names of the default tables, in an order that respects their foreign keys. */
export const DEFAULT_TABLE_NAMES = ['patients', 'encounters', 'conditions', 'observations', 'medications', 'allergies'] as const;

/** A default table name. */
export type DefaultTableName = (typeof DEFAULT_TABLE_NAMES)[number];

/** One default table: its columns and how to list its rows from a patient. */
export interface DefaultTable<R = unknown> {
  name: DefaultTableName;
  columns: ReadonlyArray<DefaultColumn<R>>;
  rows(patient: PatientRecord): readonly R[];
}

const id = <R extends { id: number }>(): DefaultColumn<R> => ({ name: 'id', type: 'integer', nullable: false, value: (r) => r.id });
const patientId = <R>(): DefaultColumn<R> => ({ name: 'patient_id', type: 'integer', nullable: false, references: 'patients', value: (_r, p) => p.id });
const encounterId = <R extends { encounterId: number }>(): DefaultColumn<R> => ({
  name: 'encounter_id',
  type: 'integer',
  nullable: false,
  references: 'encounters',
  value: (r) => r.encounterId,
});
const text = <R>(name: string, length: number, value: (row: R, patient: PatientRecord) => CellValue, nullable = false): DefaultColumn<R> => ({
  name,
  type: 'text',
  length,
  nullable,
  value,
});

const patients: DefaultTable<PatientRecord> = {
  name: 'patients',
  rows: (p) => [p],
  columns: [
    { name: 'id', type: 'integer', nullable: false, value: (p) => p.id },
    { ...text<PatientRecord>('mrn', 20, (p) => p.person.mrn), numbered: { prefix: SYNTHETIC_MRN_PREFIX, width: 8 } },
    text('given_name', 60, (p) => p.person.givenName),
    text('middle_name', 60, (p) => p.person.middleName, true),
    text('family_name', 60, (p) => p.person.familyName),
    text('sex', 1, (p) => p.person.sex),
    { name: 'birth_date', type: 'date', nullable: false, value: (p) => p.person.birthDate },
    text('ssn', 11, (p) => p.person.ssn),
    text('phone', 20, (p) => p.person.phone),
    text('email', 120, (p) => p.person.email),
    text('address_line', 120, (p) => p.person.address.line1),
    text('city', 60, (p) => p.person.address.city),
    text('state', 2, (p) => p.person.address.state),
    text('zip', 10, (p) => p.person.address.zip),
    text('county', 60, (p) => p.person.address.county ?? null, true),
    text('race_code', 10, (p) => p.person.race.code),
    text('ethnicity_code', 10, (p) => p.person.ethnicity.code),
    text('language', 5, (p) => p.person.language),
    text('marital_status', 1, (p) => p.person.maritalStatus),
  ],
};

const encounters: DefaultTable<EncounterRecord> = {
  name: 'encounters',
  rows: (p) => p.encounters,
  columns: [
    id(),
    patientId(),
    text('class_code', 10, (e) => e.classCode),
    text('type_code', 20, (e) => e.typeCode),
    text('type_display', 120, (e) => e.typeDisplay),
    { name: 'start_time', type: 'timestamp', nullable: false, value: (e) => e.start },
    { name: 'end_time', type: 'timestamp', nullable: false, value: (e) => e.end },
    text('reason_code', 20, (e) => e.reasonCode, true),
    text('reason_display', 120, (e) => e.reasonDisplay, true),
  ],
};

const conditions: DefaultTable<ConditionRecord> = {
  name: 'conditions',
  rows: (p) => p.conditions,
  columns: [
    id(),
    patientId(),
    encounterId(),
    text('snomed_code', 20, (c) => c.snomed),
    text('icd10_code', 10, (c) => c.icd10),
    text('display', 120, (c) => c.display),
    { name: 'onset_date', type: 'date', nullable: false, value: (c) => c.onsetDate },
    text('clinical_status', 10, (c) => c.clinicalStatus),
  ],
};

const observations: DefaultTable<ObservationRecord> = {
  name: 'observations',
  rows: (p) => p.observations,
  columns: [
    id(),
    patientId(),
    encounterId(),
    text('loinc_code', 10, (o) => o.loinc),
    text('display', 120, (o) => o.display),
    text('category', 20, (o) => o.category),
    { name: 'value', type: 'decimal', nullable: false, value: (o) => o.valueText },
    text('unit', 20, (o) => o.ucum),
    text('interpretation', 1, (o) => o.interpretation, true),
    { name: 'effective_time', type: 'timestamp', nullable: false, value: (o) => o.effective },
  ],
};

const medications: DefaultTable<MedicationRecord> = {
  name: 'medications',
  rows: (p) => p.medications,
  columns: [
    id(),
    patientId(),
    encounterId(),
    text('rxnorm_code', 20, (m) => m.rxnorm),
    text('display', 120, (m) => m.display),
    text('sig', 160, (m) => m.sig),
    text('status', 10, (m) => m.status),
    { name: 'authored_on', type: 'timestamp', nullable: false, value: (m) => m.authoredOn },
  ],
};

const allergies: DefaultTable<AllergyRecord> = {
  name: 'allergies',
  rows: (p) => p.allergies,
  columns: [
    id(),
    patientId(),
    text('substance_system', 10, (a) => a.system),
    text('substance_code', 20, (a) => a.code),
    text('display', 120, (a) => a.display),
    text('category', 20, (a) => a.category),
    text('reaction', 60, (a) => a.reaction),
    text('severity', 10, (a) => a.severity),
    { name: 'recorded_date', type: 'date', nullable: false, value: (a) => a.recordedDate },
  ],
};

/** The default tables in foreign-key order. */
export const DEFAULT_TABLES: readonly DefaultTable[] = [patients, encounters, conditions, observations, medications, allergies] as DefaultTable[];

