/**
 * What every output format implements: take patients one at a time, then close and report the files written.
 */
import type { OutputFile } from './file-sink.ts';
import type { PatientRecord } from '../generation/patient-record.ts';

/** Writes a population in one format. */
export interface PopulationWriter {
  write(patient: PatientRecord): Promise<void>;
  /** Finishes every file and reports them. */
  close(): Promise<OutputFile[]>;
  /** Stops without finishing (cancel or failure). */
  abort(): void;
}
