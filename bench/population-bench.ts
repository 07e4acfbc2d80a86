/**
 * Population benchmarks, each beside a ceiling measured in the same run:
 * - generation of 100,000 patients as csv and as sql (goal: under 10 s each) and as FHIR (one transaction Bundle per
 *   patient, about ten times the bytes of the csv; goal: within 2x of csv), each beside writing the same number of
 *   bytes to disk in the same chunk size — the part no generator can skip — and FHIR beside csv as well.
 *   `WORKBENCH_BENCH_POPULATION_PATIENTS` scales the generated population down for a quick run;
 * - memory: peak heap while generating 20,000 and 100,000 patients (flat means the ratio stays near 1);
 * - seeding PostgreSQL through COPY (goal: 100,000 rows/s or more) and MariaDB through multi-row INSERT (goal: 30,000
 *   rows/s or more) into the default patient schema with its keys, the whole path (HTTP, plan, manifest,
 *   transactions), beside loading the very same CSV rows into tables without keys by the same statement kind, and
 *   beside loading them on one connection into the same tables with their keys and foreign keys (the server's work
 *   per row, which a seed spreads over as many connections as the engine's loader uses);
 * - cleanup of what was seeded (key-range DELETEs, child tables first) beside an unconditional DELETE of the same
 *   number of rows from the tables without keys.
 * Database parts run when WORKBENCH_TEST_POSTGRES_URL / WORKBENCH_TEST_MYSQL_URL name a server (`.ci/run` values by
 * default); each uses a fresh database it drops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createWorkbench } from '../kernel/workbench.ts';
import { mergeConfig } from '../kernel/config-loader.ts';
import { createCsvWriter } from '../plugins/population/output/csv-writer.ts';
import { DEFAULT_TABLES } from '../plugins/population/output/default-patient-schema.ts';
import { createFhirWriter } from '../plugins/population/output/fhir-writer.ts';
import { createPatientGenerator } from '../plugins/population/generation/patient-generator.ts';
import type { PopulationWriter } from '../plugins/population/output/population-writer.ts';
import { createForeignKeyIndexesSql, createTableSql } from '../plugins/population/output/sql-dialect.ts';
import { createSqlWriter } from '../plugins/population/output/sql-writer.ts';
import { createFastRandom } from '../plugins/synthetic-data/api.ts';
import { createSyntheticRandom } from '../plugins/synthetic-data/synthetic-random.ts';
import { send } from '../test/helpers/http-client.ts';

const GENERATED = Number(process.env.WORKBENCH_BENCH_POPULATION_PATIENTS ?? 100_000);
const SMALL = Math.round(GENERATED / 5);
const SEEDED = 10_000;
const POSTGRES_URL = process.env.WORKBENCH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.WORKBENCH_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function generate(count: number, format: 'csv' | 'sql' | 'fhir', dir: string): Promise<{ seconds: number; cpuSeconds: number; bytes: number; rows: number; peakHeapMb: number }> {
  globalThis.gc?.();
  const random = createFastRandom(createSyntheticRandom(42));
  const generator = createPatientGenerator(random, 'us');
  const writer: PopulationWriter =
    format === 'csv' ? await createCsvWriter(dir) : format === 'sql' ? await createSqlWriter(dir, 'postgres', 'bench') : createFhirWriter(dir, 42);
  let peak = process.memoryUsage().heapUsed;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    await writer.write(generator.next());
    if ((i & 1023) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const files = await writer.close();
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, bytes: files.reduce((s, f) => s + f.bytes, 0), rows: files.reduce((s, f) => s + f.records, 0), peakHeapMb: peak / 1_048_576 };
}

/** Writes `bytes` bytes to a file in 256 KB chunks: the disk ceiling of any generator writing that much. */
async function diskCeiling(bytes: number, dir: string): Promise<number> {
  const chunk = Buffer.alloc(256 * 1024, 'x');
  const file = await open(join(dir, 'ceiling.bin'), 'w');
  const start = performance.now();
  for (let written = 0; written < bytes; written += chunk.length) await file.write(chunk);
  await file.close();
  return (performance.now() - start) / 1000;
}

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function splitCsvLine(line: string): Array<string | null> {
  const out: Array<string | null> = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') {
      out.push(field === '' && !wasQuoted ? null : field);
      field = '';
      wasQuoted = false;
    } else field += c;
  }
  out.push(field === '' && !wasQuoted ? null : field);
  return out;
}

interface DatabaseFigures {
  seedRowsPerSecond: number;
  ceilingRowsPerSecond: number;
  /** The same rows on one connection into the tables with their keys and foreign keys. */
  keyedRowsPerSecond: number;
  cleanupRowsPerSecond: number;
  cleanupCeilingRowsPerSecond: number;
  rows: number;
}

/** Seeds SEEDED patients through the workbench (HTTP) into a fresh database, cleans up, and runs the ceilings. */
async function seedBench(
  provider: 'postgres' | 'mysql',
  database: {
    url: string;
    exec(sql: string): Promise<void>;
    parseCsv(columns: string[], csv: string): unknown;
    copyCsv(table: string, columns: string[], prepared: unknown): Promise<void>;
    close(): Promise<void>;
  },
): Promise<DatabaseFigures> {
  for (const table of DEFAULT_TABLES) {
    for (const statement of [createTableSql(provider, table), ...createForeignKeyIndexesSql(provider, table)]) await database.exec(statement.replace(/;$/, ''));
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-pop-bench-'));
  const workbench = await createWorkbench({
    env: {},
    overrides: mergeConfig({ dataDir, logging: { level: 'silent' }, servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } } }, {}),
  });
  const urls = await workbench.start();
  const call = (path: string, body?: unknown, method?: string) => send(urls.population, { path, body, method });
  try {
    const submitted = await call('/api/population/generate', { count: SEEDED, format: 'csv', seed: 7 });
    const jobId = submitted.json.data.jobId;
    await waitFor(async () => {
      const r = await call(`/api/population/generate/${jobId}`);
      return r.json.data.state === 'completed' ? true : undefined;
    });
    await call('/api/population/connect', { provider, connectionString: database.url });
    const started = performance.now();
    const seed = await call('/api/population/seed', { jobId });
    const run = await waitFor(async () => {
      const r = await call(`/api/population/seed/${seed.json.data.seedRunId}`);
      return r.json.data.state === 'running' ? undefined : r.json.data;
    });
    const seedSeconds = (performance.now() - started) / 1000;
    if (run.state !== 'completed') throw new Error(`seed ${run.state}: ${run.error}`);
    const cleanupStart = performance.now();
    const cleanupStarted = await call('/api/population/seed/cleanup', undefined, 'DELETE');
    if (cleanupStarted.status !== 202) throw new Error(`cleanup answered ${cleanupStarted.status}: ${cleanupStarted.text}`);
    // Cleanup runs in the background: timed until its poll says it ended.
    const cleanedData = await waitFor(async () => {
      const r = await call(`/api/population/seed/cleanup/${cleanupStarted.json.data.cleanupId}`);
      return r.json.data.state === 'running' ? undefined : r.json.data;
    });
    const cleanupSeconds = (performance.now() - cleanupStart) / 1000;
    if (cleanedData.state !== 'completed') throw new Error(`cleanup ${cleanedData.state}: ${cleanedData.error}`);
    const cleaned = { json: { data: cleanedData } };

    // Ceiling: the same CSV rows into tables with the same columns and no keys, by the same statement kind.
    const files = new Map<string, string>();
    for (const table of ['patients', 'encounters', 'observations', 'conditions', 'medications', 'allergies']) {
      const r = await call(`/api/population/generate/${jobId}/files/${table}.csv`);
      files.set(table, r.text);
    }
    let ceilingRows = 0;
    for (const table of DEFAULT_TABLES) {
      const ddl = createTableSql(provider, { ...table, columns: table.columns.map((c) => ({ ...c, references: undefined })) })
        .replace(/CREATE TABLE (\S+)/, (_m, name: string) => `CREATE TABLE ${name.slice(0, -1)}_ceiling${name.slice(-1)}`)
        .replace(/,\n\s+PRIMARY KEY[^\n]*/, '')
        .replace(/;$/, '');
      await database.exec(ddl);
    }
    // Rows are prepared (parsed, for INSERT) before the clock starts: the ceiling times the load alone.
    const prepared = DEFAULT_TABLES.map((table) => {
      const text = files.get(table.name) ?? '';
      const body = text.slice(text.indexOf('\n') + 1);
      ceilingRows += body.split('\n').length - 1;
      return database.parseCsv(table.columns.map((c) => c.name), body);
    });
    const ceilingStart = performance.now();
    for (let t = 0; t < DEFAULT_TABLES.length; t++) {
      const table = DEFAULT_TABLES[t];
      await database.copyCsv(`${table.name}_ceiling`, table.columns.map((c) => c.name), prepared[t]);
    }
    const ceilingSeconds = (performance.now() - ceilingStart) / 1000;
    const deleteStart = performance.now();
    for (const table of [...DEFAULT_TABLES].reverse()) await database.exec(`DELETE FROM ${provider === 'mysql' ? `\`${table.name}_ceiling\`` : `"${table.name}_ceiling"`}`);
    const deleteSeconds = (performance.now() - deleteStart) / 1000;
    // The server's own limit with the schema's work: the same rows on one connection into the seeded tables (now
    // empty again), keys, foreign keys and indexes checked and maintained as in a seed.
    const keyedStart = performance.now();
    for (let t = 0; t < DEFAULT_TABLES.length; t++) {
      const table = DEFAULT_TABLES[t];
      await database.copyCsv(table.name, table.columns.map((c) => c.name), prepared[t]);
    }
    const keyedSeconds = (performance.now() - keyedStart) / 1000;
    for (const table of [...DEFAULT_TABLES].reverse()) await database.exec(`DELETE FROM ${provider === 'mysql' ? `\`${table.name}\`` : `"${table.name}"`}`);
    return {
      rows: run.inserted,
      seedRowsPerSecond: run.inserted / seedSeconds,
      ceilingRowsPerSecond: ceilingRows / ceilingSeconds,
      keyedRowsPerSecond: ceilingRows / keyedSeconds,
      cleanupRowsPerSecond: cleaned.json.data.total / cleanupSeconds,
      cleanupCeilingRowsPerSecond: ceilingRows / deleteSeconds,
    };
  } finally {
    await workbench.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresDatabase() {
  const name = `wb_pop_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    exec: async (sql: string) => void (await client.query(sql)),
    parseCsv: (_columns: string[], csv: string): unknown => csv,
    async copyCsv(table: string, columns: string[], csv: unknown) {
      await pipeline(Readable.from([csv as string]), client.query(copyFrom(`COPY "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN WITH (FORMAT csv)`)));
    },
    async close() {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function mysqlDatabase() {
  const name = `wb_pop_bench_${process.pid}`;
  const server = new URL(MYSQL_URL);
  const connection = await mysql.createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) || undefined });
  await connection.query(`drop database if exists ${name}`);
  await connection.query(`create database ${name}`);
  await connection.changeUser({ database: name });
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    exec: async (sql: string) => void (await connection.query(sql)),
    parseCsv(columns: string[], csv: string): unknown[][] {
      return csv.split('\n').filter((l) => l.length > 0).map((l) => splitCsvLine(l.replace(/\r$/, '')).map((v, i) => (v !== null && /_time$|authored_on/.test(columns[i]) ? v.replace('T', ' ').replace('Z', '') : v)));
    },
    async copyCsv(table: string, columns: string[], prepared: unknown) {
      const rows = prepared as unknown[][];
      await connection.query('START TRANSACTION');
      for (let i = 0; i < rows.length; i += 2000) {
        await connection.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [rows.slice(i, i + 2000)]);
      }
      await connection.query('COMMIT');
    },
    async close() {
      await connection.query(`drop database if exists ${name}`);
      await connection.end();
    },
  };
}

/** Runs the population benchmarks and returns their figures. */
export async function runPopulationBench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-pop-gen-'));
  const figures: Record<string, number> = {};
  const cpuSeconds: Record<string, number> = {};
  try {
    for (const format of ['csv', 'sql', 'fhir'] as const) {
      const result = await generate(GENERATED, format, dir);
      const ceiling = await diskCeiling(result.bytes, dir);
      figures[`${format}Seconds100k`] = Math.round(result.seconds * 100) / 100;
      figures[`${format}PatientsPerSecond`] = Math.round(GENERATED / result.seconds);
      figures[`${format}DiskCeilingSeconds`] = Math.round(ceiling * 100) / 100;
      console.log(
        `generate ${fmt(GENERATED)} patients as ${format}: ${fmt(result.seconds, 2)} s (${fmt(GENERATED / result.seconds)} patients/s, ${fmt(result.rows)} ${format === 'fhir' ? 'Bundles' : 'rows'}, ${fmt(result.bytes / 1_048_576, 1)} MB; goal ${format === 'fhir' ? 'within 2x of csv' : 'under 10 s'}) | writing the same bytes to disk: ${fmt(ceiling, 2)} s | ${fmt(ceiling / result.seconds, 3)}x of the ceiling`,
      );
      cpuSeconds[format] = result.cpuSeconds;
      if (format === 'fhir') {
        const csvSeconds = figures.csvSeconds100k;
        figures.fhirToCsvRatio = Math.round((result.seconds / csvSeconds) * 100) / 100;
        figures.fhirToCsvCpuRatio = Math.round((result.cpuSeconds / cpuSeconds.csv) * 100) / 100;
        // CPU time too: on a shared machine the wall-clock ratio moves with whatever else runs.
        console.log(
          `generate as fhir beside csv (same patients): ${fmt(result.seconds, 2)} s vs ${fmt(csvSeconds, 2)} s | ${fmt(result.seconds / csvSeconds, 2)}x (goal: 2x or less) | CPU time ${fmt(result.cpuSeconds, 2)} s vs ${fmt(cpuSeconds.csv, 2)} s | ${fmt(result.cpuSeconds / cpuSeconds.csv, 2)}x`,
        );
      }
      if (format === 'csv') {
        const small = await generate(SMALL, 'csv', dir);
        figures.peakHeapMb20k = Math.round(small.peakHeapMb);
        figures.peakHeapMb100k = Math.round(result.peakHeapMb);
        console.log(
          `memory: peak heap ${fmt(small.peakHeapMb)} MB at ${fmt(SMALL)} patients, ${fmt(result.peakHeapMb)} MB at ${fmt(GENERATED)} | ${fmt(result.peakHeapMb / small.peakHeapMb, 2)}x for 5x the patients (flat = 1x)`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  for (const [provider, label, open] of [
    ['postgres', 'PostgreSQL COPY', postgresDatabase],
    ['mysql', 'MariaDB multi-row INSERT', mysqlDatabase],
  ] as const) {
    let database: Awaited<ReturnType<typeof open>> | undefined;
    try {
      database = await open();
      const r = await seedBench(provider, database);
      const key = provider === 'postgres' ? 'postgres' : 'mariadb';
      figures[`${key}SeedRowsPerSecond`] = Math.round(r.seedRowsPerSecond);
      figures[`${key}SeedCeilingRowsPerSecond`] = Math.round(r.ceilingRowsPerSecond);
      figures[`${key}SeedKeyedOneStreamRowsPerSecond`] = Math.round(r.keyedRowsPerSecond);
      figures[`${key}CleanupRowsPerSecond`] = Math.round(r.cleanupRowsPerSecond);
      figures[`${key}CleanupCeilingRowsPerSecond`] = Math.round(r.cleanupCeilingRowsPerSecond);
      console.log(
        `seed ${label} (${fmt(SEEDED)} patients, ${fmt(r.rows)} rows, keys, FKs, manifest, 1 transaction per 1,000 patients): ${fmt(r.seedRowsPerSecond)} rows/s | same rows into tables without keys: ${fmt(r.ceilingRowsPerSecond)} rows/s | ${fmt(r.seedRowsPerSecond / r.ceilingRowsPerSecond, 2)}x | same rows on one connection into the tables with their keys and FKs: ${fmt(r.keyedRowsPerSecond)} rows/s | ${fmt(r.seedRowsPerSecond / r.keyedRowsPerSecond, 2)}x`,
      );
      console.log(
        `cleanup ${provider === 'postgres' ? 'PostgreSQL' : 'MariaDB'} (key-range DELETEs, child tables first): ${fmt(r.cleanupRowsPerSecond)} rows/s | unconditional DELETE of the same rows without keys: ${fmt(r.cleanupCeilingRowsPerSecond)} rows/s | ${fmt(r.cleanupRowsPerSecond / r.cleanupCeilingRowsPerSecond, 2)}x`,
      );
    } catch (error) {
      console.log(`${label}: skipped (${(error as Error).message.split('\n')[0]})`);
    } finally {
      await database?.close().catch(() => undefined);
    }
  }
  return figures;
}
