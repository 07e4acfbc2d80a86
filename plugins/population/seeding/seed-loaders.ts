/**
 * The fastest insert path of each engine, one batch per transaction: PostgreSQL COPY FROM STDIN (CSV) through
 * pg-copy-streams, MySQL/MariaDB multi-row INSERT, SQL Server bulk load through tedious (multi-row INSERT with
 * IDENTITY_INSERT when the key is an identity column). A batch's rows are kept in the form the engine receives them
 * (CSV text for COPY, value lists otherwise) as they are generated, so no row is built twice. A failed batch is
 * rolled back and the error names the table and the row.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolConnection } from 'mysql2/promise';
import type pg from 'pg';
import type { Connection as TediousConnection, TYPES } from 'tedious';
import { csvQuoted } from '../../../kernel/lib/text/csv.ts';
import type { DatabaseConnection } from '../database/database-connection.ts';
import type { CellValue } from '../output/default-patient-schema.ts';
import { insertSql, type Provider, quoteIdentifier } from '../output/sql-dialect.ts';
import type { RowSink, TablePlan } from './seed-plan.ts';

/** Patients generated and loaded per batch, each batch in a transaction of its own. */
export const PATIENTS_PER_BATCH = 1000;

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

/** One CSV field of COPY's CSV format: NULL unquoted empty, the empty string quoted. */
function csvCell(value: CellValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (value === '') return '""';
  // A backslash is quoted too, so a value `\.` can never read as COPY's end-of-data line.
  return csvQuoted(value, true);
}

/** CSV bytes are written into chunks of this size (a longer row gets a chunk of its own). */
const CSV_CHUNK = 256 * 1024;

/**
 * One batch's rows of one table, in the form its engine's loader sends: CSV bytes (`csv`, PostgreSQL COPY) or value
 * lists (`values`, INSERT and bulk load). It also records the first and last generated id: a batch inserts one
 * consecutive run of ids per table, which is what the manifest records.
 */
export class TableBuffer implements RowSink {
  rows = 0;
  firstId = 0;
  lastId = 0;
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer | undefined;
  private used = 0;
  private readonly lists: CellValue[][] = [];

  constructor(
    readonly table: TablePlan,
    readonly columns: readonly string[],
    readonly form: 'csv' | 'values',
  ) {}

  add(values: readonly CellValue[], generatedId: number): void {
    if (this.rows === 0) this.firstId = generatedId;
    else if (generatedId !== this.lastId + 1) {
      // The manifest records ranges; a hole would leave keys unrecorded or record keys never inserted.
      throw new Error(`generated ids of table ${this.table.table} are not consecutive (${this.lastId} then ${generatedId})`);
    }
    this.lastId = generatedId;
    this.rows++;
    if (this.form === 'values') {
      this.lists.push(values.slice());
      return;
    }
    let line = csvCell(values[0]);
    for (let i = 1; i < values.length; i++) line += `,${csvCell(values[i])}`;
    line += '\n';
    // Each row goes straight into bytes: building the batch as one long string costs more in garbage collection than
    // generating the rows. A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    if (!this.chunk || this.used + line.length * 3 > this.chunk.length) {
      if (this.chunk) this.chunks.push(this.chunk.subarray(0, this.used));
      this.chunk = Buffer.allocUnsafe(Math.max(CSV_CHUNK, line.length * 3));
      this.used = 0;
    }
    this.used += this.chunk.write(line, this.used, 'utf8');
  }

  /** The CSV bytes, in chunks (`csv` form). */
  csv(): Buffer[] {
    if (this.chunk) {
      this.chunks.push(this.chunk.subarray(0, this.used));
      this.chunk = undefined;
    }
    return this.chunks;
  }

  /** The value lists (`values` form). */
  values(): ReadonlyArray<readonly CellValue[]> {
    return this.lists;
  }
}

/** An empty buffer of one batch's rows of `table`, in the form the engine's loader sends. */
export function createTableBuffer(provider: Provider, table: TablePlan, columns: readonly string[]): TableBuffer {
  return new TableBuffer(table, columns, provider === 'postgres' ? 'csv' : 'values');
}

/**
 * How many connections load batches side by side. PostgreSQL checks each foreign key of each row in the backend of
 * the loading connection, one CPU each, which makes a single COPY stream server-bound; two backends share the work.
 * MySQL/MariaDB and SQL Server load on one connection.
 */
export function loadLanes(provider: Provider): number {
  return provider === 'postgres' ? 2 : 1;
}

/** Loads batches into one engine, on one connection. */
export interface BatchLoader {
  /** The statement kind used, for plans and reports. */
  readonly method: string;
  begin(): Promise<void>;
  load(buffer: TableBuffer): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** After the last batch: move sequences past the inserted keys (PostgreSQL serial columns). */
  finish(tables: readonly TablePlan[]): Promise<void>;
  release(): Promise<void>;
}

async function postgresLoader(pool: pg.Pool): Promise<BatchLoader> {
  const { from: copyFrom } = await import('pg-copy-streams');
  const client = await pool.connect();
  return {
    method: 'COPY FROM STDIN (CSV)',
    begin: async () => void (await client.query('BEGIN')),
    async load(buffer) {
      const { table, columns } = buffer;
      const statement = `COPY ${quoteIdentifier('postgres', table.table)} (${columns.map((c) => quoteIdentifier('postgres', c)).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
      try {
        await pipeline(Readable.from(buffer.csv()), client.query(copyFrom(statement)));
      } catch (error) {
        const e = error as { message?: string; where?: string };
        // The COPY context names the row; a trigger's PL/pgSQL context before it has a "line" of its own.
        const line = /COPY [^\n]*?, line (\d+)/.exec(e.where ?? '')?.[1];
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
    async load(buffer) {
      const { table, columns } = buffer;
      const rows = buffer.values();
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

/** The bulk-load column type of values: BIGINT, DECIMAL(18,3) or NVARCHAR(MAX), as the first non-null value says. */
function sqlServerColumn(types: typeof TYPES, values: ReadonlyArray<CellValue>) {
  const sample = values.find((v) => v !== null);
  if (typeof sample === 'number') {
    return Number.isInteger(sample) ? { type: types.BigInt } : { type: types.Decimal, precision: 18, scale: 3 };
  }
  return { type: types.NVarChar, length: Infinity };
}

/** Runs one tedious call that reports through a callback, as a promise. */
function tediousCall(run: (done: (error?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())));
}

async function sqlServerLoader(connection: DatabaseConnection): Promise<BatchLoader> {
  const tedious = await import('tedious');
  if (!connection.sqlServerConfig) throw new Error('a SQL Server bulk load needs a SQL Server connection');
  const server: TediousConnection = new tedious.Connection(connection.sqlServerConfig);
  // A lost connection is also emitted as 'error', which must not end the process: the bulk load in flight fails.
  server.on('error', () => undefined);
  await tediousCall((done) => server.connect(done));
  const batch = (text: string): Promise<void> => tediousCall((done) => server.execSqlBatch(new tedious.Request(text, done)));
  return {
    method: 'bulk load (tedious)',
    begin: () => tediousCall((done) => server.beginTransaction(done)),
    async load(buffer) {
      const { table, columns } = buffer;
      const rows = buffer.values();
      try {
        if (table.keyIsGenerated) {
          // Bulk load cannot set identity values; explicit keys go through INSERT with IDENTITY_INSERT on.
          const name = quoteIdentifier('sqlserver', table.table);
          for (let start = 0; start < rows.length; start += 900) {
            const statement = insertSql('sqlserver', table.table, columns, rows.slice(start, start + 900));
            await batch(`SET IDENTITY_INSERT ${name} ON; ${statement} SET IDENTITY_INSERT ${name} OFF;`);
          }
          return;
        }
        await new Promise<void>((resolve, reject) => {
          const bulk = server.newBulkLoad(table.table, (error) => (error ? reject(error) : resolve()));
          columns.forEach((column, i) => {
            const { type, ...options } = sqlServerColumn(tedious.TYPES, rows.map((r) => r[i]));
            bulk.addColumn(column, type, { ...options, nullable: true });
          });
          server.execBulkLoad(bulk, rows as unknown[][]);
        });
      } catch (error) {
        throw new SeedRowError(table.table, null, (error as Error).message);
      }
    },
    commit: () => tediousCall((done) => server.commitTransaction(done)),
    rollback: () => tediousCall((done) => server.rollbackTransaction(done)).catch(() => undefined),
    finish: async () => undefined,
    release: () =>
      new Promise<void>((resolve) => {
        server.once('end', () => resolve());
        server.close();
      }),
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
  return provider === 'postgres' ? 'COPY FROM STDIN (CSV)' : provider === 'mysql' ? 'multi-row INSERT' : 'bulk load (tedious)';
}
