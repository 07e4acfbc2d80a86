/**
 * The fastest insert path of each engine, one batch per transaction: PostgreSQL COPY FROM STDIN (CSV) through
 * pg-copy-streams, MySQL/MariaDB multi-row INSERT, SQL Server bulk load through mssql (multi-row INSERT with
 * IDENTITY_INSERT when the key is an identity column). A failed batch is rolled back and the error names the table
 * and the row.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type mssql from 'mssql';
import type { PoolConnection } from 'mysql2/promise';
import type pg from 'pg';
import type { DatabaseConnection } from './database-connection.ts';
import type { CellValue } from './default-patient-schema.ts';
import { insertSql, quoteIdentifier } from './sql-dialect.ts';
import type { TablePlan } from './seed-plan.ts';

/** A row that could not be inserted. */
export class SeedRowError extends Error {
  constructor(
    readonly table: string,
    /** 0-based index of the row in its batch. */
    readonly rowIndex: number | null,
    readonly reason: string,
  ) {
    super(`${table}${rowIndex === null ? '' : ` row ${rowIndex + 1} of the batch`}: ${reason}`);
  }
}

/** Loads batches into one engine. */
export interface BatchLoader {
  /** The statement kind used, for plans and reports. */
  readonly method: string;
  begin(): Promise<void>;
  load(table: TablePlan, columns: readonly string[], rows: ReadonlyArray<readonly CellValue[]>): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** After the last batch: move sequences past the inserted keys (PostgreSQL serial columns). */
  finish(tables: readonly TablePlan[]): Promise<void>;
  release(): Promise<void>;
}

function csvCell(value: CellValue): string {
  if (value === null) return '';
  const text = String(value);
  // Quoted, so an empty string stays an empty string (unquoted empty is NULL in COPY's CSV format).
  return text === '' || /[",\r\n\\]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function postgresLoader(pool: pg.Pool): Promise<BatchLoader> {
  const { from: copyFrom } = await import('pg-copy-streams');
  const client = await pool.connect();
  return {
    method: 'COPY FROM STDIN (CSV)',
    begin: async () => void (await client.query('BEGIN')),
    async load(table, columns, rows) {
      const statement = `COPY ${quoteIdentifier('postgres', table.table)} (${columns.map((c) => quoteIdentifier('postgres', c)).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
      let text = '';
      for (const row of rows) text += `${row.map(csvCell).join(',')}\n`;
      try {
        await pipeline(Readable.from([text]), client.query(copyFrom(statement)));
      } catch (error) {
        const e = error as { message?: string; where?: string };
        const line = /line (\d+)/.exec(e.where ?? '')?.[1];
        throw new SeedRowError(table.table, line ? Number(line) - 1 : null, e.message ?? String(error));
      }
    },
    commit: async () => void (await client.query('COMMIT')),
    rollback: async () => void (await client.query('ROLLBACK').catch(() => undefined)),
    async finish(tables) {
      for (const t of tables) {
        if (!t.keyIsGenerated || t.key.kind !== 'integer') continue;
        const name = quoteIdentifier('postgres', t.table);
        const key = quoteIdentifier('postgres', t.keyColumn);
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(${key}) FROM ${name}), 1))`,
          [name, t.keyColumn],
        );
      }
    },
    release: async () => client.release(),
  };
}

const MYSQL_ROWS_PER_INSERT = 2000;

async function mysqlLoader(connection: PoolConnection): Promise<BatchLoader> {
  return {
    method: 'multi-row INSERT',
    begin: async () => void (await connection.query('START TRANSACTION')),
    async load(table, columns, rows) {
      const head = `INSERT INTO ${quoteIdentifier('mysql', table.table)} (${columns.map((c) => quoteIdentifier('mysql', c)).join(', ')}) VALUES ?`;
      for (let start = 0; start < rows.length; start += MYSQL_ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + MYSQL_ROWS_PER_INSERT);
        try {
          await connection.query(head, [chunk]);
        } catch (error) {
          // Find the row: the failed statement changed nothing, so insert the chunk's rows one by one until one fails.
          for (let i = 0; i < chunk.length; i++) {
            try {
              await connection.query(head, [[chunk[i]]]);
            } catch (rowError) {
              throw new SeedRowError(table.table, start + i, (rowError as Error).message);
            }
          }
          throw new SeedRowError(table.table, null, (error as Error).message);
        }
      }
    },
    commit: async () => void (await connection.query('COMMIT')),
    rollback: async () => void (await connection.query('ROLLBACK').catch(() => undefined)),
    finish: async () => undefined,
    release: async () => connection.release(),
  };
}

function mssqlType(mssql: typeof import('mssql'), values: ReadonlyArray<CellValue>) {
  const sample = values.find((v) => v !== null);
  if (typeof sample === 'number') return Number.isInteger(sample) ? mssql.BigInt : mssql.Decimal(18, 3);
  return mssql.NVarChar(mssql.MAX);
}

async function sqlServerLoader(connection: DatabaseConnection): Promise<BatchLoader> {
  const { default: mssql } = await import('mssql');
  const t = connection.target;
  const pool = await new mssql.ConnectionPool({
    server: t.host,
    port: t.port,
    user: t.user,
    password: t.password,
    database: t.database,
    options: { encrypt: t.options.encrypt === 'true', trustServerCertificate: t.options.trustServerCertificate !== 'false' },
  }).connect();
  let transaction: mssql.Transaction | undefined;
  return {
    method: 'bulk load (mssql)',
    async begin() {
      transaction = new mssql.Transaction(pool);
      await transaction.begin();
    },
    async load(table, columns, rows) {
      if (!transaction) throw new SeedRowError(table.table, null, 'no transaction is open');
      try {
        if (table.keyIsGenerated) {
          // Bulk load cannot set identity values; explicit keys go through INSERT with IDENTITY_INSERT on.
          const name = quoteIdentifier('sqlserver', table.table);
          for (let start = 0; start < rows.length; start += 900) {
            const statement = insertSql('sqlserver', table.table, columns, rows.slice(start, start + 900));
            await new mssql.Request(transaction).batch(`SET IDENTITY_INSERT ${name} ON; ${statement} SET IDENTITY_INSERT ${name} OFF;`);
          }
          return;
        }
        const bulk = new mssql.Table(table.table);
        bulk.create = false;
        columns.forEach((column, i) => bulk.columns.add(column, mssqlType(mssql, rows.map((r) => r[i])), { nullable: true }));
        for (const row of rows) bulk.rows.add(...row);
        await new mssql.Request(transaction).bulk(bulk);
      } catch (error) {
        throw new SeedRowError(table.table, null, (error as Error).message);
      }
    },
    commit: async () => void (await transaction?.commit()),
    rollback: async () => void (await transaction?.rollback().catch(() => undefined)),
    finish: async () => undefined,
    release: () => pool.close(),
  };
}

/** Opens the loader of the connection's engine. */
export async function openBatchLoader(connection: DatabaseConnection): Promise<BatchLoader> {
  if (connection.target.provider === 'postgres' && connection.pgPool) return postgresLoader(connection.pgPool);
  if (connection.target.provider === 'mysql' && connection.mysqlPool) return mysqlLoader(await connection.mysqlPool.promise().getConnection());
  return sqlServerLoader(connection);
}

/** The method each engine uses, for dry-run plans. */
export function loadMethod(provider: DatabaseConnection['target']['provider']): string {
  return provider === 'postgres' ? 'COPY FROM STDIN (CSV)' : provider === 'mysql' ? 'multi-row INSERT' : 'bulk load (mssql)';
}
