/**
 * SQL output: one script inserting the population in multi-row INSERT statements inside one transaction, in the
 * dialect of the chosen engine. Against the default patient schema it creates the tables (with indexes on the
 * foreign keys) first; against a connected schema it inserts into that schema's tables as a seed would (keys,
 * fitted values, learned profiles). Rows are buffered per table and every buffer is flushed in foreign-key order
 * whenever one fills, so a referenced row is always inserted before the rows that reference it while memory stays
 * bounded.
 */
import { join } from 'node:path';
import { type CellValue, DEFAULT_TABLES } from './default-patient-schema.ts';
import { FileSink } from './file-sink.ts';
import type { PatientRecord } from '../generation/patient-record.ts';
import type { PopulationWriter } from './population-writer.ts';
import { createForeignKeyIndexesSql, createTableSql, insertSql, type Provider, quoteIdentifier, sqlTimestamp, transactionSql } from './sql-dialect.ts';

const ROWS_PER_INSERT = 500;

/** One table the script inserts into, in foreign-key order. */
export interface SqlTarget {
  table: string;
  columns: readonly string[];
  rowsOf(patient: PatientRecord): CellValue[][];
  /** SQL Server: the key is an identity column, so explicit keys need IDENTITY_INSERT around the statement. */
  identityInsert?: boolean;
}

/** The default patient schema's tables as targets (timestamps in the `YYYY-MM-DD HH:MM:SS` form every engine takes). */
export function defaultSqlTargets(): SqlTarget[] {
  return DEFAULT_TABLES.map((table) => ({
    table: table.name,
    columns: table.columns.map((c) => c.name),
    rowsOf: (patient) =>
      table.rows(patient).map((row) =>
        table.columns.map((c) => {
          const value = c.value(row, patient);
          return c.type === 'timestamp' && typeof value === 'string' ? sqlTimestamp(value) : value;
        }),
      ),
  }));
}

/** The DDL that creates the default patient schema. */
export function defaultSchemaSql(provider: Provider): string[] {
  return DEFAULT_TABLES.map((table) => [createTableSql(provider, table), ...createForeignKeyIndexesSql(provider, table)].join('\n'));
}

/** Opens `population.sql` in `directory`: `prelude` statements (DDL), then the targets' rows. */
export async function createSqlWriter(
  directory: string,
  provider: Provider,
  header: string,
  targets: readonly SqlTarget[] = defaultSqlTargets(),
  prelude: readonly string[] = defaultSchemaSql(provider),
  compress = false,
): Promise<PopulationWriter> {
  const sink = new FileSink(join(directory, 'population.sql'), 'population.sql', 'application/sql', { compress });
  const transaction = transactionSql(provider);
  await sink.write(`${header.split('\n').map((line) => `-- ${line}`).join('\n')}\n${transaction.begin}\n\n`);
  for (const statement of prelude) await sink.write(`${statement}\n\n`);
  const buffers: CellValue[][][] = targets.map(() => []);

  async function flushAll(): Promise<void> {
    for (let t = 0; t < targets.length; t++) {
      if (buffers[t].length === 0) continue;
      const statement = insertSql(provider, targets[t].table, targets[t].columns, buffers[t]);
      if (provider === 'sqlserver' && targets[t].identityInsert) {
        const name = quoteIdentifier(provider, targets[t].table);
        await sink.write(`SET IDENTITY_INSERT ${name} ON;\n${statement}\nSET IDENTITY_INSERT ${name} OFF;\n`);
      } else {
        await sink.write(`${statement}\n`);
      }
      buffers[t] = [];
    }
  }

  return {
    async write(patient) {
      let full = false;
      for (let t = 0; t < targets.length; t++) {
        for (const row of targets[t].rowsOf(patient)) {
          buffers[t].push(row);
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
