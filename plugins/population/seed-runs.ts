/**
 * Seeding, its dry run, and cleanup. A seed regenerates the job's population from its seed (same seed, same
 * patients, so the database receives exactly what the files hold) and loads it in batches of patients, one
 * transaction per batch, through the engine's fast path. Before each batch commits, the manifest (per table, the
 * exact range of inserted keys) is stored, so every inserted key is on record. Cleanup deletes exactly those keys,
 * child tables first, never with TRUNCATE, so rows that were there before and rows others added since stay.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { createFastRandom, type SyntheticDataService } from '../synthetic-data/api.ts';
import type { DatabaseConnection } from './database-connection.ts';
import type { ConnectedDatabase } from './database-session.ts';
import type { CellValue } from './default-patient-schema.ts';
import { populationErrors } from './errors.ts';
import type { GenerationJobs, JobParams } from './generation-jobs.ts';
import type { PopulationTables, SeedRunRow } from './job-records.ts';
import { createPatientGenerator } from './patient-generator.ts';
import type { PatientRecord } from './patient-record.ts';
import type { ProfileStore } from './profile-store.ts';
import type { LearnedProfile } from './profile-learner.ts';
import { type BatchLoader, loadMethod, openBatchLoader, SeedRowError } from './seed-loaders.ts';
import { buildSeedPlan, createRowBuilder, type PlanInputs, type SeedPlan, type TablePlan, translateKey } from './seed-plan.ts';
import { insertSql, quoteIdentifier, type Provider } from './sql-dialect.ts';
import type { SqlTarget } from './sql-writer.ts';

/** Recorded keys of one table: an exact, gap-free range of what was inserted. */
export type TableManifest = { table: string; keyColumn: string; rows: number } & (
  | { kind: 'integer'; from: number; to: number }
  | { kind: 'text'; prefix: string; from: number; to: number }
);

/** A seed run as callers see it. */
export type SeedRunView = {
  seedRunId: string;
  jobId: string;
  database: string;
  state: SeedRunRow['state'];
  inserted: number;
  progress: { inserted: number; expected: number; percent: number };
  tables: TableManifest[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

const PATIENTS_PER_BATCH = 1000;
const TEXT_DELETE_BATCH = 1000;

/** Rows inserted against the rows the run will insert (known from the job's counts when it started). */
function progressOf(row: SeedRunRow): { inserted: number; expected: number; percent: number } {
  const expected = (JSON.parse(row.manifest) as { expectedRows?: number }).expectedRows ?? row.inserted;
  return { inserted: row.inserted, expected, percent: expected === 0 ? 100 : Math.min(100, Math.floor((row.inserted / expected) * 1000) / 10) };
}

function viewOf(row: SeedRunRow): SeedRunView {
  return {
    seedRunId: row.id,
    jobId: row.job_id,
    database: row.database_label,
    state: row.state,
    inserted: row.inserted,
    progress: progressOf(row),
    tables: (JSON.parse(row.manifest) as { tables: TableManifest[] }).tables,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** What the seed service needs. */
export interface SeedRunsDeps {
  db: Kysely<PopulationTables>;
  jobs: GenerationJobs;
  profiles: ProfileStore;
  synthetic: SyntheticDataService;
  logger: Logger;
  now: () => Date;
}

/** Reads what the plan depends on: the largest integer keys and a few keys of referenced tables. */
async function planInputs(connected: ConnectedDatabase, profiles: readonly LearnedProfile[], prefix: string): Promise<PlanInputs> {
  const { schema, connection } = connected;
  const provider = schema.provider;
  const maxKeys = new Map<string, number>();
  const existingKeys = new Map<string, CellValue[]>();
  const draft = buildSeedPlan({ schema, profiles, maxKeys, existingKeys, textKeyPrefix: prefix });
  for (const t of draft.tables) {
    if (t.key.kind !== 'integer') continue;
    const result = await sql<{ m: unknown }>`select max(${sql.raw(quoteIdentifier(provider, t.keyColumn))}) as m from ${sql.raw(quoteIdentifier(provider, t.table))}`.execute(connection.db);
    maxKeys.set(t.table, Number(result.rows[0]?.m ?? 0) || 0);
  }
  for (const t of draft.tables) {
    for (const c of t.columns) {
      if (c.source !== 'existing-parent' || !c.from || existingKeys.has(c.from)) continue;
      const parent = schema.tables.find((x) => x.name === c.from);
      const key = parent?.primaryKey[0];
      if (!key) continue;
      const q = quoteIdentifier(provider, key);
      const table = quoteIdentifier(provider, c.from);
      const query =
        provider === 'sqlserver'
          ? sql<{ k: CellValue }>`select top 100 ${sql.raw(q)} as k from ${sql.raw(table)} order by ${sql.raw(q)}`
          : sql<{ k: CellValue }>`select ${sql.raw(q)} as k from ${sql.raw(table)} order by ${sql.raw(q)} limit 100`;
      existingKeys.set(c.from, (await query.execute(connection.db)).rows.map((r) => r.k));
    }
  }
  return { schema, profiles, maxKeys, existingKeys, textKeyPrefix: prefix };
}

/** Profiles learned from the connected database. */
async function profilesOf(store: ProfileStore, connected: ConnectedDatabase): Promise<LearnedProfile[]> {
  const out: LearnedProfile[] = [];
  for (const summary of await store.list()) {
    const profile = await store.get(summary.name);
    if (profile.provider === connected.schema.provider && profile.database === connected.schema.database) out.push(profile);
  }
  return out;
}

/** Creates the seed service. */
export function createSeedRuns(deps: SeedRunsDeps) {
  const { db } = deps;
  const busy = new Map<string, string>();

  async function seedableJob(jobId: string): Promise<JobParams> {
    const job = await deps.jobs.completed(jobId, 'seeding');
    const params = JSON.parse(job.params) as JobParams;
    if (params.format !== 'sql' && params.format !== 'csv') throw populationErrors.create('SEED_FORMAT_UNSUPPORTED', { id: jobId, format: params.format });
    return params;
  }

  function requireTables(plan: SeedPlan): void {
    if (plan.tables.length === 0) {
      throw populationErrors.create('SEED_NO_TARGET_TABLES', { tables: 'patients, encounters, conditions, observations, medications, allergies' });
    }
  }

  async function row(id: string): Promise<SeedRunRow> {
    const found = await db.selectFrom('population_seed_runs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!found) throw populationErrors.create('SEED_RUN_NOT_FOUND', { id });
    return found;
  }

  async function execute(runId: string, connected: ConnectedDatabase, params: JobParams, plan: SeedPlan, inputs: PlanInputs, expectedRows: number): Promise<void> {
    const random = createFastRandom(deps.synthetic.createRandom(params.seed));
    const generator = createPatientGenerator(random, params.geographicFocus);
    const rowsOf = createRowBuilder(plan, inputs, params.seed, random.referenceDate.toISOString());
    const manifest: TableManifest[] = [];
    const columnsOf = new Map(plan.tables.map((t) => [t.table, t.columns.map((c) => c.column)]));
    let loader: BatchLoader | undefined;
    let inserted = 0;
    try {
      loader = await openBatchLoader(connected.connection);
      const active = loader;
      // Builds one batch's rows, yielding now and then so the previous batch's load keeps streaming meanwhile.
      const prepare = async (start: number) => {
        const patients: PatientRecord[] = [];
        for (let i = start; i < Math.min(params.count, start + PATIENTS_PER_BATCH); i++) {
          patients.push(generator.next());
          if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
        }
        return plan.tables.map((table) => {
          const rows: CellValue[][] = [];
          for (const patient of patients) for (const r of rowsOf(table, patient)) rows.push(r);
          const keyIndex = table.columns.findIndex((c) => c.source === 'key');
          const ids = rows.map((r) => (table.key.kind === 'integer' ? Number(r[keyIndex]) - table.key.offset : Number(String(r[keyIndex]).slice(table.key.prefix.length))));
          return { table, rows, ids, keyIndex };
        });
      };
      // Loads one batch in its own transaction; the manifest is on record before the commit, so a key is never in
      // the database without being recorded.
      const store = async (batch: Awaited<ReturnType<typeof prepare>>) => {
        await active.begin();
        let batchRows = 0;
        for (const { table, rows, ids, keyIndex } of batch) {
          if (rows.length === 0) continue;
          try {
            await active.load(table, columnsOf.get(table.table) ?? [], rows);
          } catch (error) {
            if (error instanceof SeedRowError && error.rowIndex !== null) {
              const key = rows[error.rowIndex]?.[keyIndex];
              throw new SeedRowError(error.table, error.rowIndex, `row with ${table.keyColumn} = ${String(key)}: ${error.reason}`);
            }
            throw error;
          }
          batchRows += rows.length;
          let entry = manifest.find((m) => m.table === table.table);
          if (!entry) {
            entry =
              table.key.kind === 'integer'
                ? { table: table.table, keyColumn: table.keyColumn, rows: 0, kind: 'integer', from: table.key.offset + ids[0], to: table.key.offset + ids[0] }
                : { table: table.table, keyColumn: table.keyColumn, rows: 0, kind: 'text', prefix: table.key.prefix, from: ids[0], to: ids[0] };
            manifest.push(entry);
          }
          entry.to = table.key.kind === 'integer' ? table.key.offset + ids[ids.length - 1] : ids[ids.length - 1];
          entry.rows += rows.length;
        }
        await db
          .updateTable('population_seed_runs')
          .set({ manifest: JSON.stringify({ tables: manifest, expectedRows }), inserted: inserted + batchRows })
          .where('id', '=', runId)
          .execute();
        await active.commit();
        inserted += batchRows;
      };
      let pending: Promise<void> | undefined;
      for (let start = 0; start < params.count; start += PATIENTS_PER_BATCH) {
        const batch = await prepare(start);
        if (pending) await pending;
        pending = store(batch);
        // Handled when awaited; this only keeps a failure from counting as unhandled while the next batch is built.
        pending.catch(() => undefined);
      }
      if (pending) await pending;
      await loader.finish(plan.tables);
      await db.updateTable('population_seed_runs').set({ state: 'completed', inserted, finished_at: deps.now().toISOString() }).where('id', '=', runId).execute();
    } catch (error) {
      await loader?.rollback();
      // The failed batch is rolled back: take its rows off the record.
      const reason = error instanceof SeedRowError ? `Seeding stopped at table ${error.table}, ${error.message.slice(error.table.length + 2)}; that batch was rolled back` : `Seeding failed: ${(error as Error).message}`;
      const committed = await committedManifest(connected.connection, manifest);
      await db
        .updateTable('population_seed_runs')
        .set({ state: 'failed', error: reason, manifest: JSON.stringify({ tables: committed.tables, expectedRows }), inserted: committed.rows, finished_at: deps.now().toISOString() })
        .where('id', '=', runId)
        .execute();
      deps.logger.warn({ seedRunId: runId, reason }, 'seed run failed');
    } finally {
      await loader?.release().catch(() => undefined);
      busy.delete(connected.connection.target.key);
    }
  }

  /** After a failure, trims each table's range to the keys that are really there (the rolled-back batch is not). */
  async function committedManifest(connection: DatabaseConnection, manifest: TableManifest[]): Promise<{ tables: TableManifest[]; rows: number }> {
    const provider = connection.target.provider;
    const tables: TableManifest[] = [];
    let rows = 0;
    for (const m of manifest) {
      const column = quoteIdentifier(provider, m.keyColumn);
      const table = quoteIdentifier(provider, m.table);
      if (m.kind === 'integer') {
        const found = await sql<{ n: unknown; hi: unknown }>`select count(*) as n, max(${sql.raw(column)}) as hi from ${sql.raw(table)} where ${sql.raw(column)} >= ${m.from} and ${sql.raw(column)} <= ${m.to}`.execute(connection.db);
        const n = Number(found.rows[0]?.n ?? 0);
        if (n > 0) tables.push({ ...m, to: Number(found.rows[0]?.hi), rows: n });
        rows += n;
      } else {
        const found = await sql<{ n: unknown }>`select count(*) as n from ${sql.raw(table)} where ${sql.raw(column)} like ${`${m.prefix}%`}`.execute(connection.db);
        const n = Number(found.rows[0]?.n ?? 0);
        if (n > 0) tables.push({ ...m, to: m.from + n - 1, rows: n });
        rows += n;
      }
    }
    return { tables, rows };
  }

  return {
    /**
     * SQL-script targets for the connected schema, as a seed would fill it (same keys, fitted values, profiles), for
     * a population drawn from `seed`; undefined when the schema has none of the population tables.
     */
    async sqlTargets(connected: ConnectedDatabase): Promise<((seed: number, referenceIso: string) => SqlTarget[]) | undefined> {
      const profiles = await profilesOf(deps.profiles, connected);
      const inputs = await planInputs(connected, profiles, 'syn-script-');
      const plan = buildSeedPlan(inputs);
      if (plan.tables.length === 0) return undefined;
      return (seed, referenceIso) => {
        const rowsOf = createRowBuilder(plan, inputs, seed, referenceIso);
        return plan.tables.map((t) => ({ table: t.table, columns: t.columns.map((c) => c.column), rowsOf: (patient) => rowsOf(t, patient), identityInsert: t.keyIsGenerated }));
      };
    },

    /** The plan of seeding a job into the connected database, with statements and first rows; changes nothing. */
    async dryRun(jobId: string, connected: ConnectedDatabase) {
      const params = await seedableJob(jobId);
      const profiles = await profilesOf(deps.profiles, connected);
      const inputs = await planInputs(connected, profiles, 'syn-dryrun-');
      const plan = buildSeedPlan(inputs);
      requireTables(plan);
      const job = await deps.jobs.get(jobId);
      const random = createFastRandom(deps.synthetic.createRandom(params.seed));
      const generator = createPatientGenerator(random, params.geographicFocus);
      const rowsOf = createRowBuilder(plan, inputs, params.seed, random.referenceDate.toISOString());
      const firstRows = new Map<string, CellValue[][]>(plan.tables.map((t) => [t.table, []]));
      for (let i = 0; i < Math.min(params.count, 20); i++) {
        const patient = generator.next();
        for (const t of plan.tables) {
          const bucket = firstRows.get(t.table) as CellValue[][];
          for (const r of rowsOf(t, patient)) if (bucket.length < 3) bucket.push(r);
        }
      }
      const provider = connected.schema.provider;
      return {
        jobId,
        database: connected.connection.target.label,
        provider,
        method: loadMethod(provider),
        transactions: `one per ${PATIENTS_PER_BATCH} patients`,
        steps: plan.tables.map((t, index) => {
          const columns = t.columns.map((c) => c.column);
          const rowCount = job.counts[t.source] ?? 0;
          const first = firstRows.get(t.table) ?? [];
          return {
            order: index + 1,
            table: t.table,
            from: t.source,
            rowCount,
            keyColumn: t.keyColumn,
            keys: t.key.kind === 'integer' ? `${translateKey(t.key, 1)} to ${translateKey(t.key, rowCount)}` : `${t.key.prefix}1 to ${t.key.prefix}${rowCount}`,
            columns: t.columns,
            statement: statementOf(provider, t, columns),
            sample: first.length > 0 ? insertSql(provider, t.table, columns, first) : null,
            firstRows: first.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]]))),
          };
        }),
        untouched: plan.untouched,
        cycleBreakers: plan.cycleBreakers,
        cycles: connected.schema.cycles,
      };
    },

    /** Starts seeding a completed sql/csv job into the connected database (202 with the run). */
    async start(jobId: string, connected: ConnectedDatabase): Promise<SeedRunView> {
      const params = await seedableJob(jobId);
      const target = connected.connection.target;
      const running = busy.get(target.key);
      if (running) throw populationErrors.create('SEED_BUSY', { id: running });
      const runId = `seed_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      busy.set(target.key, runId);
      try {
        const profiles = await profilesOf(deps.profiles, connected);
        const inputs = await planInputs(connected, profiles, `syn-${runId.slice(5, 13)}-`);
        const plan = buildSeedPlan(inputs);
        requireTables(plan);
        const counts = (await deps.jobs.get(jobId)).counts;
        const expectedRows = plan.tables.reduce((sum, t) => sum + (counts[t.source] ?? 0), 0);
        const record: SeedRunRow = {
          id: runId,
          job_id: jobId,
          database_key: target.key,
          database_label: target.label,
          state: 'running',
          manifest: JSON.stringify({ tables: [], expectedRows }),
          inserted: 0,
          error: null,
          created_at: deps.now().toISOString(),
          finished_at: null,
        };
        await db.insertInto('population_seed_runs').values(record).execute();
        void execute(runId, connected, params, plan, inputs, expectedRows);
        return viewOf(record);
      } catch (error) {
        busy.delete(target.key);
        throw error;
      }
    },

    /** A seed run's state and manifest. */
    async get(id: string): Promise<SeedRunView> {
      return viewOf(await row(id));
    },

    /** Marks runs a previous process left running as failed (their committed batches stay on record). */
    async recoverInterrupted(): Promise<void> {
      await db
        .updateTable('population_seed_runs')
        .set({ state: 'failed', error: 'The service stopped during seeding; committed batches are on record and cleanup removes them.', finished_at: deps.now().toISOString() })
        .where('state', '=', 'running')
        .execute();
    },

    /** Deletes every recorded key of the database, child tables first; counts per table. 404 when nothing is recorded. */
    async cleanup(connection: DatabaseConnection): Promise<{ database: string; deleted: Record<string, number>; total: number; seedRuns: string[] }> {
      const target = connection.target;
      const running = busy.get(target.key);
      if (running) throw populationErrors.create('SEED_BUSY', { id: running });
      const runs = await db
        .selectFrom('population_seed_runs')
        .selectAll()
        .where('database_key', '=', target.key)
        .where('state', 'in', ['completed', 'failed'])
        .orderBy('created_at', 'desc')
        .execute();
      const recorded = runs.filter((r) => (JSON.parse(r.manifest) as { tables: TableManifest[] }).tables.length > 0);
      if (recorded.length === 0) throw populationErrors.create('NOTHING_TO_CLEAN', { database: target.label });
      busy.set(target.key, 'cleanup');
      const deleted: Record<string, number> = {};
      try {
        for (const run of recorded) {
          const tables = (JSON.parse(run.manifest) as { tables: TableManifest[] }).tables;
          let current = '';
          try {
            await connection.db.transaction().execute(async (trx) => {
              for (const m of [...tables].reverse()) {
                current = m.table;
                let count = 0;
                if (m.kind === 'integer') {
                  const result = await trx.deleteFrom(m.table).where(m.keyColumn, '>=', m.from).where(m.keyColumn, '<=', m.to).executeTakeFirst();
                  count = Number(result.numDeletedRows);
                } else {
                  for (let id = m.from; id <= m.to; id += TEXT_DELETE_BATCH) {
                    const keys: string[] = [];
                    for (let k = id; k < Math.min(m.to + 1, id + TEXT_DELETE_BATCH); k++) keys.push(`${m.prefix}${k}`);
                    const result = await trx.deleteFrom(m.table).where(m.keyColumn, 'in', keys).executeTakeFirst();
                    count += Number(result.numDeletedRows);
                  }
                }
                deleted[m.table] = (deleted[m.table] ?? 0) + count;
              }
            });
          } catch (error) {
            throw populationErrors.create('CLEANUP_FAILED', {
              table: current,
              reason: `${(error as Error).message.split('\n')[0].slice(0, 300)} (rows added since may reference the seeded rows)`,
            });
          }
          await db.updateTable('population_seed_runs').set({ state: 'cleaned', finished_at: deps.now().toISOString() }).where('id', '=', run.id).execute();
        }
      } finally {
        busy.delete(target.key);
      }
      return { database: target.label, deleted, total: Object.values(deleted).reduce((a, b) => a + b, 0), seedRuns: recorded.map((r) => r.id) };
    },
  };

  function statementOf(provider: Provider, t: TablePlan, columns: string[]): string {
    const q = (name: string) => quoteIdentifier(provider, name);
    if (provider === 'postgres') return `COPY ${q(t.table)} (${columns.map(q).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
    if (provider === 'mysql') return `INSERT INTO ${q(t.table)} (${columns.map(q).join(', ')}) VALUES (...), (...) -- 2000 rows per statement`;
    return t.keyIsGenerated
      ? `SET IDENTITY_INSERT ${q(t.table)} ON; INSERT INTO ${q(t.table)} (${columns.map(q).join(', ')}) VALUES (...) -- 900 rows per statement; SET IDENTITY_INSERT ${q(t.table)} OFF;`
      : `BULK INSERT (mssql Table) ${q(t.table)} (${columns.map(q).join(', ')})`;
  }
}

/** The seed service's type. */
export type SeedRuns = ReturnType<typeof createSeedRuns>;
