/**
 * SQL output: one script that creates the default patient tables and inserts the population in multi-row INSERT
 * statements inside one transaction, in the dialect of the chosen engine. Rows are buffered per table and every
 * buffer is flushed in foreign-key order whenever one fills, so a referenced row is always inserted before the rows
 * that reference it while memory stays bounded.
 */
import { join } from 'node:path';
import { type CellValue, DEFAULT_TABLES } from './default-patient-schema.ts';
import { FileSink } from './file-sink.ts';
import type { PopulationWriter } from './population-writer.ts';
import { createTableSql, insertSql, type Provider, sqlTimestamp, transactionSql } from './sql-dialect.ts';

const ROWS_PER_INSERT = 500;

/** Opens `population.sql` in `directory` for the engine's dialect. */
export async function createSqlWriter(directory: string, provider: Provider, header: string): Promise<PopulationWriter> {
  const sink = new FileSink(join(directory, 'population.sql'), 'population.sql', 'application/sql');
  const transaction = transactionSql(provider);
  await sink.write(`${header.split('\n').map((line) => `-- ${line}`).join('\n')}\n${transaction.begin}\n\n`);
  for (const table of DEFAULT_TABLES) await sink.write(`${createTableSql(provider, table)}\n\n`);
  const buffers: CellValue[][][] = DEFAULT_TABLES.map(() => []);
  const columns = DEFAULT_TABLES.map((table) => table.columns.map((c) => c.name));

  async function flushAll(): Promise<void> {
    for (let t = 0; t < DEFAULT_TABLES.length; t++) {
      if (buffers[t].length === 0) continue;
      await sink.write(`${insertSql(provider, DEFAULT_TABLES[t].name, columns[t], buffers[t])}\n`);
      buffers[t] = [];
    }
  }

  return {
    async write(patient) {
      let full = false;
      for (let t = 0; t < DEFAULT_TABLES.length; t++) {
        const table = DEFAULT_TABLES[t];
        for (const row of table.rows(patient)) {
          buffers[t].push(table.columns.map((c) => {
            const value = c.value(row, patient);
            return c.type === 'timestamp' && typeof value === 'string' ? sqlTimestamp(value) : value;
          }));
          sink.records++;
        }
        if (buffers[t].length >= ROWS_PER_INSERT) full = true;
      }
      if (full) await flushAll();
    },
    async close() {
      await flushAll();
      await sink.write(`\n${transaction.commit}\n`);
      return [await sink.close()];
    },
    abort: () => sink.abort(),
  };
}
