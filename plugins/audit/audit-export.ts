/**
 * Audit exports streamed as they are read: JSON (one array) or CSV. CSV cells are formula-safe: a cell starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet opening the file
 * never runs a formula an attacker slipped into a user id or a resource name.
 */
import { Readable } from 'node:stream';
import type { AuditEntry } from './audit-store.ts';

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

/** A cell a spreadsheet will not read as a formula. */
export function formulaSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function csvRow(entry: AuditEntry): string[] {
  return AUDIT_CSV_COLUMNS.map((column) => {
    const value = entry[column];
    if (value === null || value === undefined) return '';
    return formulaSafe(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
}

/** The entries as a CSV stream with a header line (csv-stringify is loaded on first use). */
export async function auditCsvStream(entries: AsyncIterable<AuditEntry>): Promise<Readable> {
  const { stringify } = await import('csv-stringify');
  const rows = Readable.from(
    (async function* () {
      for await (const entry of entries) yield csvRow(entry);
    })(),
  );
  return rows.pipe(stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS] }));
}

/** The entries as one JSON array, streamed entry by entry. */
export function auditJsonStream(entries: AsyncIterable<AuditEntry>): Readable {
  return Readable.from(
    (async function* () {
      let first = true;
      yield '[';
      for await (const entry of entries) {
        yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
        first = false;
      }
      yield '\n]\n';
    })(),
  );
}
