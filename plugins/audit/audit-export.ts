/**
 * Audit exports streamed as they are read: JSON (one array) or CSV through the kernel's one CSV writer
 * (kernel/lib/text/csv.ts: RFC 4180, formula-safe, so a spreadsheet never runs a formula slipped into a user id or a
 * resource name).
 */
import { Readable } from 'node:stream';
import { csvStream, type CsvCell } from '../../kernel/lib/text/csv.ts';
import type { AuditEntry } from './audit-store.ts';
import type { AuditCheckpoint } from './audit-checkpoint.ts';

/** The CSV columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'actorKind',
  'action',
  'resourceType',
  'resourceId',
  'outcome',
  'requestId',
  'sourceAddress',
  'details',
  'previousHash',
  'hash',
] as const;

function csvRow(entry: AuditEntry): CsvCell[] {
  // every column as text, so an id or a count is never read back as a different type
  return AUDIT_CSV_COLUMNS.map((column) => {
    const value = entry[column];
    if (value === null || value === undefined) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** The entries as a CSV stream with a header line. */
export function auditCsvStream(entries: AsyncIterable<AuditEntry>): Readable {
  return csvStream(
    AUDIT_CSV_COLUMNS,
    (async function* () {
      for await (const entry of entries) yield csvRow(entry);
    })(),
  );
}

/**
 * The entries as one JSON document `{checkpoint, entries: [...]}`, streamed entry by entry: the checkpoint travels
 * with the file, so whoever holds the export can tell whether its newest entries were cut.
 */
export function auditJsonStream(entries: AsyncIterable<AuditEntry>, checkpoint: AuditCheckpoint | null): Readable {
  return Readable.from(
    (async function* () {
      let first = true;
      yield `{"checkpoint":${JSON.stringify(checkpoint)},"entries":[`;
      for await (const entry of entries) {
        yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
        first = false;
      }
      yield '\n]}\n';
    })(),
  );
}
