/**
 * CSV output: one RFC 4180 file per table of the default patient schema, with a header row. Fields holding a comma,
 * a quote or a line break are quoted, quotes doubled.
 */
import { join } from 'node:path';
import { csvQuoted } from '../../../kernel/lib/text/csv.ts';
import { type CellValue, DEFAULT_TABLES } from './default-patient-schema.ts';
import { FileSink } from './file-sink.ts';
import type { PopulationWriter } from './population-writer.ts';

/** One CSV field. */
export function csvField(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return csvQuoted(value);
}

/** Opens one CSV file per default table in `directory`. */
export async function createCsvWriter(directory: string, compress = false): Promise<PopulationWriter> {
  const sinks = DEFAULT_TABLES.map((table) => new FileSink(join(directory, `${table.name}.csv`), `${table.name}.csv`, 'text/csv', { compress }));
  await Promise.all(sinks.map((sink, i) => sink.write(`${DEFAULT_TABLES[i].columns.map((c) => c.name).join(',')}\r\n`)));
  return {
    async write(patient) {
      for (let t = 0; t < DEFAULT_TABLES.length; t++) {
        const table = DEFAULT_TABLES[t];
        const sink = sinks[t];
        let text = '';
        for (const row of table.rows(patient)) {
          let line = '';
          for (let c = 0; c < table.columns.length; c++) {
            if (c > 0) line += ',';
            line += csvField(table.columns[c].value(row, patient));
          }
          text += `${line}\r\n`;
          sink.records++;
        }
        if (text) {
          const pending = sink.write(text);
          if (pending) await pending;
        }
      }
    },
    close: () => Promise.all(sinks.map((sink) => sink.close())),
    abort: () => sinks.forEach((sink) => sink.abort()),
  };
}
