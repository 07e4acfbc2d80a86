/**
 * The one CSV writer of the service (audit export, analytics export, report attachments): RFC 4180 (CRLF line
 * ends, a header row, a field quoted when it holds a comma, a quote, CR or LF, quotes doubled), streamed row by row
 * in chunks so a year of minutes never sits in memory, and formula-safe: a text cell starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet opening the file never runs a formula that
 * an attacker slipped into a user id, a facility name or an error text. Numbers are written as they are (a number
 * cannot carry a formula, and `-1` must stay a number).
 */
import { Readable } from 'node:stream';

/** A cell value: text, a number, a boolean, a Date (written as ISO 8601 UTC), empty (null/undefined) or JSON. */
export type CsvCell = string | number | boolean | Date | null | undefined | object;

/** A text cell a spreadsheet will not read as a formula. */
export function formulaSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * Text as one RFC 4180 field, as it is (no formula guard): quoted, quotes doubled, when it holds a comma, a quote, a
 * CR or an LF, and also a backslash when `quoteBackslash` is set (PostgreSQL's COPY reads an unquoted `\.` as the end
 * of its data). The data writers use it directly; {@link csvField} adds the formula guard for files people open.
 */
export function csvQuoted(text: string, quoteBackslash = false): string {
  // A plain scan beats a regular expression: this runs for every field of millions of rows.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 44 || c === 13 || c === 10 || (quoteBackslash && c === 92)) return `"${text.replaceAll('"', '""')}"`;
  }
  return text;
}

/** One field as RFC 4180 writes it (formula-safe for text). */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = formulaSafe(value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : value);
  return csvQuoted(text);
}

/** One record with its CRLF. */
export function csvLine(cells: readonly CsvCell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + csvField(cells[i]);
  return `${line}\r\n`;
}

/** A whole (small) CSV document in memory: a header row and the rows. */
export function csvDocument(columns: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  let text = csvLine(columns);
  for (const row of rows) text += csvLine(row);
  return text;
}

/** Rows are gathered into chunks of about this many characters before they are pushed (fewer, larger writes). */
const CHUNK_CHARS = 64 * 1024;

/**
 * A CSV stream from batches of rows (or of records already written with {@link csvLine}, each ending in CRLF): the
 * header row, then each batch as the source yields it. The source is pulled
 * only as fast as the reader consumes (back-pressure), so memory stays flat whatever the number of rows; a source
 * that reads a slice at a time yields one batch per slice, so the rows of a slice cost no await each.
 */
export function csvBatchStream(
  columns: readonly string[],
  batches: AsyncIterable<Iterable<readonly CsvCell[]> | string> | Iterable<Iterable<readonly CsvCell[]> | string>,
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = csvLine(columns);
      for await (const batch of batches) {
        // a batch may come as records already written with csvField/csvLine (a source that knows its columns)
        if (typeof batch === 'string') {
          chunk += batch;
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
          continue;
        }
        for (const row of batch) {
          chunk += csvLine(row);
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
      }
      if (chunk.length > 0) yield chunk;
    })(),
    { objectMode: false },
  );
}

/** A CSV stream of rows (see {@link csvBatchStream}); a synchronous source is read without an await per row. */
export function csvStream(columns: readonly string[], rows: AsyncIterable<readonly CsvCell[]> | Iterable<readonly CsvCell[]>): Readable {
  if (Symbol.iterator in rows) return csvBatchStream(columns, [rows]);
  return csvBatchStream(
    columns,
    (async function* () {
      // rows that arrive one by one are passed on in small batches
      let batch: Array<readonly CsvCell[]> = [];
      for await (const row of rows) {
        batch.push(row);
        if (batch.length >= 500) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    })(),
  );
}
