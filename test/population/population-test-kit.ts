/**
 * Shared steps of the population tests: polling a job or seed run until it settles (generous, load-tolerant
 * deadlines; never a timed assertion) and fresh databases on the test servers, each created for one test and
 * dropped after it.
 */
import { Kysely, MssqlDialect, sql } from 'kysely';
import * as tarn from 'tarn';
import * as tedious from 'tedious';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { vi } from 'vitest';
import type { TestWorkbench } from '../helpers/test-workbench.ts';

/** URLs of the test servers (tests skip with a notice without them). */
export const testPostgresUrl = process.env.WORKBENCH_TEST_POSTGRES_URL;
export const testMysqlUrl = process.env.WORKBENCH_TEST_MYSQL_URL;
export const testMssqlUrl = process.env.WORKBENCH_TEST_MSSQL_URL;

/** Polls `probe` (vi.waitFor) until it returns a value, up to `seconds`. */
export function waitFor<T>(what: string, probe: () => Promise<T | undefined>, seconds = 180): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (value === undefined) throw new Error(`Gave up waiting for ${what}.`);
      return value;
    },
    { timeout: seconds * 1000, interval: 100 },
  );
}

/** Submits a generation job and waits until it settles; returns the final job view. */
export async function generateAndWait(wb: TestWorkbench, body: Record<string, unknown>): Promise<any> {
  const submitted = await wb.call('population', { path: '/api/population/generate', body });
  if (submitted.status !== 202) throw new Error(`generate answered ${submitted.status}: ${submitted.text}`);
  const id = submitted.json.data.jobId as string;
  return waitFor(`job ${id}`, async () => {
    const r = await wb.call('population', { path: `/api/population/generate/${id}` });
    return ['completed', 'failed', 'cancelled'].includes(r.json.data.state) ? r.json.data : undefined;
  });
}

/** Starts a seed of a job (202 expected) and waits until it is no longer running; returns the final run view. */
export async function seedUntilDone(wb: TestWorkbench, jobId: string): Promise<any> {
  const started = await wb.call('population', { path: '/api/population/seed', body: { jobId } });
  if (started.status !== 202) throw new Error(`seed answered ${started.status}: ${started.text}`);
  const id = started.json.data.seedRunId as string;
  return waitFor(`seed ${id}`, async () => {
    const r = await wb.call('population', { path: `/api/population/seed/${id}` });
    return r.json.data.state === 'running' ? undefined : r.json.data;
  });
}

/**
 * Starts a cleanup (`query` as the DELETE's query string, e.g. `?provider=...`) and waits until it has ended; returns
 * the final cleanup, or the refusal (404 NOTHING_TO_CLEAN, 409 SEED_BUSY) as it came.
 */
export async function cleanUntilDone(wb: TestWorkbench, query = ''): Promise<{ status: number; json: any }> {
  const started = await wb.call('population', { method: 'DELETE', path: `/api/population/seed/cleanup${query}` });
  if (started.status !== 202) return started;
  const id = started.json.data.cleanupId as string;
  const data = await waitFor(`cleanup ${id}`, async () => {
    const r = await wb.call('population', { path: `/api/population/seed/cleanup/${id}` });
    return r.json.data.state === 'running' ? undefined : r.json.data;
  });
  return { status: 200, json: { data } };
}

/** A database created for one test, with a client to it and its URL. */
export interface FreshDatabase {
  provider: 'postgres' | 'mysql' | 'sqlserver';
  url: string;
  name: string;
  query(text: string): Promise<any[]>;
  drop(): Promise<void>;
}

/** Creates a fresh PostgreSQL database on the server of `serverUrl`. */
export async function freshPostgresDatabase(serverUrl: string): Promise<FreshDatabase> {
  const name = `wb_pop_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    provider: 'postgres',
    url: url.toString(),
    name,
    query: async (text) => (await client.query(text)).rows,
    async drop() {
      await client.end();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Creates a fresh MySQL/MariaDB database on the server of `serverUrl`. */
export async function freshMysqlDatabase(serverUrl: string): Promise<FreshDatabase> {
  const name = `wb_pop_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const server = new URL(serverUrl);
  const admin = await mysql.createConnection({ host: server.hostname, port: Number(server.port || 3306), user: decodeURIComponent(server.username), password: decodeURIComponent(server.password) || undefined });
  await admin.query(`create database ${name}`);
  await admin.changeUser({ database: name });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    provider: 'mysql',
    url: url.toString(),
    name,
    query: async (text) => (await admin.query(text))[0] as any[],
    async drop() {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

/** Creates a fresh SQL Server database on the server of `serverUrl` (a `sqlserver://user:password@host:port/db` URL). */
export async function freshSqlServerDatabase(serverUrl: string): Promise<FreshDatabase> {
  const name = `wb_pop_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const server = new URL(serverUrl);
  const open = (database: string): Kysely<unknown> =>
    new Kysely({
      dialect: new MssqlDialect({
        tarn: { ...tarn, options: { min: 0, max: 1 } },
        tedious: {
          ...tedious,
          connectionFactory: () =>
            new tedious.Connection({
              server: server.hostname,
              authentication: {
                type: 'default',
                options: { userName: decodeURIComponent(server.username), password: decodeURIComponent(server.password) },
              },
              options: {
                port: Number(server.port || 1433),
                database,
                encrypt: server.searchParams.get('encrypt') === 'true',
                trustServerCertificate: true,
              },
            }),
        },
      }),
    });
  const admin = open('master');
  await sql.raw(`create database ${name}`).execute(admin);
  const db = open(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    provider: 'sqlserver',
    url: url.toString(),
    name,
    query: async (text) => (await sql.raw<any>(text).execute(db)).rows,
    async drop() {
      await db.destroy();
      await sql.raw(`alter database ${name} set single_user with rollback immediate; drop database ${name}`).execute(admin);
      await admin.destroy();
    },
  };
}
