/**
 * Seeding, its dry run, and cleanup. A seed regenerates the job's population from its seed (same seed, same
 * patients, so the database receives exactly what the files hold) and loads it in batches of patients, one
 * transaction per batch, through the engine's fast path, on as many connections side by side as the engine gains from
 * (the next batch is generated meanwhile). Before each batch commits, the manifest (per table, the ranges of
 * inserted keys) is stored, so every inserted key is on record. Cleanup deletes exactly those keys, child tables
 * first, never with TRUNCATE, so rows that were there before and rows others added since stay.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { createFastRandom, type SyntheticDataService } from '../../synthetic-data/api.ts';
import type { DatabaseConnection } from '../database/database-connection.ts';
import type { ConnectedDatabase } from '../database/database-session.ts';
import type { CellValue } from '../output/default-patient-schema.ts';
import { populationErrors } from '../errors.ts';
import type { GenerationJobs, JobParams } from '../generation/generation-jobs.ts';
import type { PopulationTables, SeedRunRow } from '../job-records.ts';
import { createPatientGenerator } from '../generation/patient-generator.ts';
import type { ProfileStore } from '../database/profile-store.ts';
import type { LearnedProfile } from '../database/profile-learner.ts';
import { type BatchLoader, createTableBuffer, loadLanes, loadMethod, openBatchLoader, SeedRowError, type TableBuffer } from './seed-loaders.ts';
import { type BatchIds, keySegments, manifestOf, type TableManifest } from './seed-manifest.ts';
import { buildSeedPlan, createRowBuilder, type PlanInputs, type SeedPlan, type TablePlan, translateKey, type UniquePlan } from './seed-plan.ts';
import { insertSql, quoteIdentifier, type Provider } from '../output/sql-dialect.ts';
import type { SqlTarget } from '../output/sql-writer.ts';

/** One batch of a run: its rows while it waits to load, the generated ids it inserts per table, and how far it got. */
interface BatchRecord {
  index: number;
  buffers: TableBuffer[];
  ids: BatchIds[];
  rows: number;
  state: 'loading' | 'committing' | 'committed' | 'failed' | 'uncertain';
}

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

/**
 * A cleanup as callers see it: `deleted` and `total` count the rows of the seed runs already cleaned (each run is one
 * transaction, so the counts only ever hold committed deletions); `expected` is what the manifests record.
 */
export type CleanupView = {
  cleanupId: string;
  database: string;
  state: 'running' | 'completed' | 'failed';
  deleted: Record<string, number>;
  total: number;
  expected: number;
  seedRuns: string[];
  cleanedSeedRuns: string[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

/** Cleanups kept in memory to be polled (they are not stored: a seed run's own state says whether it was cleaned). */
const KEPT_CLEANUPS = 100;

const PATIENTS_PER_BATCH = 1000;
const TEXT_DELETE_BATCH = 1000;

/** Rows inserted against the rows the run will insert (known from the job's counts when it started). */
function progressOf(row: SeedRunRow): { inserted: number; expected: number; percent: number } {
  const expected = (JSON.parse(row.manifest) as { expectedRows?: number }).expectedRows ?? row.inserted;
  return { inserted: row.inserted, expected, percent: expected === 0 ? 100 : Math.min(100, Math.floor((row.inserted / expected) * 1000) / 10) };
}

/** Where a seed stopped, from the error's own fields: `table patients, row 200 of the batch: <reason>`. */
function seedRowPlace(error: SeedRowError): string {
  return `table ${error.table}${error.rowIndex === null ? '' : `, row ${error.rowIndex + 1} of the batch`}: ${error.reason}`;
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
  const uniqueOffsets = new Map<string, number>();
  for (const t of draft.tables) {
    for (const c of t.columns) {
      if (c.source === 'unique' && c.unique && c.unique.kind !== 'text') {
        uniqueOffsets.set(`${t.table}.${c.column}`, await largestUsedNumber(connected, t.table, c.column, c.unique));
      }
    }
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
  return { schema, profiles, maxKeys, existingKeys, textKeyPrefix: prefix, uniqueOffsets };
}

/**
 * The largest number a unique column already holds: its largest value (integers), or the largest number among its
 * values of the seed's shape, `prefix` then digits (`SYN00001000`: 1000). One grouped query, read through the
 * column's index where there is one. A value of that shape with something other than digits after the prefix cannot
 * be numbered past: the seed then stops before inserting anything, naming the column.
 */
async function largestUsedNumber(
  connected: ConnectedDatabase,
  table: string,
  column: string,
  unique: Exclude<UniquePlan, { kind: 'text' }>,
): Promise<number> {
  const provider = connected.schema.provider;
  const q = sql.raw(quoteIdentifier(provider, column));
  const from = sql.raw(quoteIdentifier(provider, table));
  if (unique.kind === 'integer') {
    const result = await sql<{ m: unknown }>`select max(${q}) as m from ${from}`.execute(connected.connection.db);
    return Number(result.rows[0]?.m ?? 0) || 0;
  }
  const length = sql.raw(provider === 'sqlserver' ? 'len' : 'char_length');
  // `!` escapes LIKE's wildcards (a backslash would need escaping itself in MySQL's string literals).
  const pattern = `${unique.prefix.replace(/[!%_[]/g, (c) => `!${c}`)}%`;
  const result = await sql<{ m: unknown }>`select max(${q}) as m from ${from} where ${q} like ${pattern} escape '!' and ${length}(${q}) >= ${unique.prefix.length + unique.width} group by ${length}(${q})`.execute(connected.connection.db);
  let largest = 0;
  for (const row of result.rows) {
    const digits = String(row.m).slice(unique.prefix.length);
    if (!/^\d+$/.test(digits)) {
      throw new Error(`column ${table}.${column} is unique and holds "${String(row.m).slice(0, 40)}", which starts like the seed's values (${unique.prefix} and digits) but cannot be numbered past`);
    }
    largest = Math.max(largest, Number(digits));
  }
  return largest;
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
  const cleanups = new Map<string, CleanupView>();

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
    const provider = connected.schema.provider;
    const random = createFastRandom(deps.synthetic.createRandom(params.seed));
    const generator = createPatientGenerator(random, params.geographicFocus);
    const rows = createRowBuilder(plan, inputs, params.seed, random.referenceDate.toISOString());
    const columnsOf = new Map(plan.tables.map((t) => [t.table, t.columns.map((c) => c.column)]));
    const batches: BatchRecord[] = [];
    const lanes: BatchLoader[] = [];
    const inFlight = new Set<Promise<void>>();
    let failure: { index: number; error: unknown } | undefined;
    // Manifest writes go one after another, each with every batch on record at the time it runs, so a later write
    // never replaces a newer manifest with an older one.
    let recording: Promise<void> = Promise.resolve();
    const record = (): Promise<void> => {
      recording = recording.catch(() => undefined).then(async () => {
        const kept = batches.filter((b) => b.state === 'committing' || b.state === 'committed');
        await db
          .updateTable('population_seed_runs')
          .set({ manifest: JSON.stringify({ tables: manifestOf(plan, kept.map((b) => b.ids)), expectedRows }), inserted: kept.reduce((n, b) => n + b.rows, 0) })
          .where('id', '=', runId)
          .execute();
      });
      return recording;
    };
    try {
      for (let i = 0; i < loadLanes(provider); i++) lanes.push(await openBatchLoader(connected.connection));
      // Generates one batch straight into the engine's wire form, yielding now and then so the batches being loaded
      // keep streaming meanwhile.
      const prepare = async (index: number): Promise<BatchRecord> => {
        const buffers = plan.tables.map((t) => createTableBuffer(provider, t, columnsOf.get(t.table) ?? []));
        const start = index * PATIENTS_PER_BATCH;
        for (let i = start; i < Math.min(params.count, start + PATIENTS_PER_BATCH); i++) {
          const patient = generator.next();
          for (const buffer of buffers) rows.visit(buffer.table, patient, buffer);
          if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
        }
        const filled = buffers.filter((b) => b.rows > 0);
        return {
          index,
          buffers: filled,
          ids: filled.map((b) => ({ table: b.table.table, first: b.firstId, last: b.lastId })),
          rows: filled.reduce((n, b) => n + b.rows, 0),
          state: 'loading',
        };
      };
      // Loads one batch in its own transaction; the manifest holding its keys is on record before the commit, so a key
      // is never in the database without being recorded. Once an earlier batch has failed, a batch rolls back instead
      // of going on, as if the batches had gone one after another.
      const store = async (lane: BatchLoader, batch: BatchRecord) => {
        const overtaken = () => failure !== undefined && failure.index < batch.index;
        await lane.begin();
        try {
          for (const buffer of batch.buffers) {
            if (overtaken()) break;
            try {
              await lane.load(buffer);
            } catch (error) {
              if (error instanceof SeedRowError && error.rowIndex !== null) {
                const key = translateKey(buffer.table.key, buffer.firstId + error.rowIndex);
                throw new SeedRowError(error.table, error.rowIndex, `row with ${buffer.table.keyColumn} = ${String(key)}: ${error.reason}`);
              }
              throw error;
            }
          }
          batch.buffers = [];
          if (overtaken()) {
            batch.state = 'failed';
            await lane.rollback();
            return;
          }
          batch.state = 'committing';
          await record();
        } catch (error) {
          batch.state = 'failed';
          await lane.rollback();
          throw error;
        }
        try {
          await lane.commit();
        } catch (error) {
          // The commit's outcome is unknown (the connection may have dropped after the server committed).
          batch.state = 'uncertain';
          throw error;
        }
        batch.state = 'committed';
      };
      const free = [...lanes];
      for (let index = 0; index * PATIENTS_PER_BATCH < params.count && !failure; index++) {
        const batch = await prepare(index);
        while (free.length === 0) await Promise.race(inFlight);
        if (failure) break;
        batches.push(batch);
        const lane = free.pop() as BatchLoader;
        const task: Promise<void> = store(lane, batch)
          .catch((error: unknown) => {
            if (!failure || batch.index < failure.index) failure = { index: batch.index, error };
          })
          .finally(() => {
            free.push(lane);
            inFlight.delete(task);
          });
        inFlight.add(task);
      }
      await Promise.all(inFlight);
      if (failure) throw failure.error;
      await lanes[0].finish(plan.tables);
      const inserted = batches.reduce((n, b) => n + b.rows, 0);
      await db.updateTable('population_seed_runs').set({ state: 'completed', inserted, finished_at: deps.now().toISOString() }).where('id', '=', runId).execute();
    } catch (error) {
      await Promise.all(inFlight);
      await Promise.all(lanes.map((lane) => lane.rollback()));
      // Failed batches are rolled back: take their keys off the record.
      let reason = error instanceof SeedRowError ? `Seeding stopped at ${seedRowPlace(error)}; that batch was rolled back` : `Seeding failed: ${(error as Error).message}`;
      // When the database cannot be asked (it went away), a batch whose commit had no answer stays on record:
      // cleanup deletes by key, so it removes whatever of that batch is there and nothing else.
      let unknownOutcome = 0;
      const committed = await committedBatches(connected.connection, plan, batches).catch(() => {
        const kept = batches.filter((b) => b.state !== 'failed');
        unknownOutcome = kept.filter((b) => b.state !== 'committed').length;
        return kept;
      });
      if (unknownOutcome > 0) {
        reason += `; the database could not be asked whether ${unknownOutcome} batch${unknownOutcome === 1 ? '' : 'es'} committed, so ${unknownOutcome === 1 ? 'its' : 'their'} keys stay on record and cleanup removes whatever of them is there`;
      }
      await recording.catch(() => undefined);
      await db
        .updateTable('population_seed_runs')
        .set({
          state: 'failed',
          error: reason,
          manifest: JSON.stringify({ tables: manifestOf(plan, committed.map((b) => b.ids)), expectedRows }),
          inserted: committed.reduce((n, b) => n + b.rows, 0),
          finished_at: deps.now().toISOString(),
        })
        .where('id', '=', runId)
        .execute();
      deps.logger.warn({ seedRunId: runId, reason }, 'seed run failed');
    } finally {
      await Promise.all(lanes.map((lane) => lane.release().catch(() => undefined)));
      busy.delete(connected.connection.target.key);
    }
  }

  /**
   * After a failure, the batches that are in the database: those whose commit succeeded, and those whose commit
   * answered with an error but whose first key is there all the same (a batch is one transaction: all or nothing).
   */
  async function committedBatches(connection: DatabaseConnection, plan: SeedPlan, batches: readonly BatchRecord[]): Promise<BatchRecord[]> {
    const provider = connection.target.provider;
    const out: BatchRecord[] = [];
    for (const batch of batches) {
      if (batch.state === 'committed') out.push(batch);
      if (batch.state !== 'uncertain' || batch.ids.length === 0) continue;
      const probe = batch.ids[0];
      const table = plan.tables.find((t) => t.table === probe.table) as TablePlan;
      const column = quoteIdentifier(provider, table.keyColumn);
      const found = await sql<{ n: unknown }>`select count(*) as n from ${sql.raw(quoteIdentifier(provider, table.table))} where ${sql.raw(column)} = ${translateKey(table.key, probe.first)}`.execute(connection.db);
      if (Number(found.rows[0]?.n ?? 0) > 0) out.push(batch);
    }
    return out;
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
        transactions: `one per ${PATIENTS_PER_BATCH} patients${loadLanes(provider) > 1 ? `, ${loadLanes(provider)} connections loading side by side` : ''}`,
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

    /**
     * Starts deleting every recorded key of the database in the background, child tables first, one transaction per
     * seed run (newest first), and answers at once with the cleanup to poll. Refused before anything starts: 409
     * SEED_BUSY while a seed or cleanup runs there, 404 NOTHING_TO_CLEAN when nothing is recorded. `release` runs
     * once the cleanup has ended (it closes a connection opened for it).
     */
    async startCleanup(connection: DatabaseConnection, release: () => Promise<void> = async () => undefined): Promise<CleanupView> {
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
      const cleanup: CleanupView = {
        cleanupId: `clean_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        database: target.label,
        state: 'running',
        deleted: {},
        total: 0,
        expected: recorded.reduce((n, r) => n + (JSON.parse(r.manifest) as { tables: TableManifest[] }).tables.reduce((m, t) => m + t.rows, 0), 0),
        seedRuns: recorded.map((r) => r.id),
        cleanedSeedRuns: [],
        error: null,
        createdAt: deps.now().toISOString(),
        finishedAt: null,
      };
      busy.set(target.key, cleanup.cleanupId);
      cleanups.set(cleanup.cleanupId, cleanup);
      // Only the latest cleanups are kept to be polled; older ones have long been read.
      for (const id of cleanups.keys()) {
        if (cleanups.size <= KEPT_CLEANUPS) break;
        if (cleanups.get(id)?.state !== 'running') cleanups.delete(id);
      }
      void (async () => {
        try {
          for (const run of recorded) {
            const tables = (JSON.parse(run.manifest) as { tables: TableManifest[] }).tables;
            const counted: Record<string, number> = {};
            let current = '';
            try {
              await connection.db.transaction().execute(async (trx) => {
                for (const m of [...tables].reverse()) {
                  current = m.table;
                  let count = 0;
                  for (const segment of keySegments(m)) {
                    if (m.kind === 'integer') {
                      const result = await trx.deleteFrom(m.table).where(m.keyColumn, '>=', segment.from).where(m.keyColumn, '<=', segment.to).executeTakeFirst();
                      count += Number(result.numDeletedRows);
                      continue;
                    }
                    for (let id = segment.from; id <= segment.to; id += TEXT_DELETE_BATCH) {
                      const keys: string[] = [];
                      for (let k = id; k < Math.min(segment.to + 1, id + TEXT_DELETE_BATCH); k++) keys.push(`${m.prefix}${k}`);
                      const result = await trx.deleteFrom(m.table).where(m.keyColumn, 'in', keys).executeTakeFirst();
                      count += Number(result.numDeletedRows);
                    }
                  }
                  counted[m.table] = count;
                }
              });
            } catch (error) {
              throw populationErrors.create('CLEANUP_FAILED', {
                table: current,
                reason: `${(error as Error).message.split('\n')[0].slice(0, 300)} (rows added since may reference the seeded rows)`,
              });
            }
            await db.updateTable('population_seed_runs').set({ state: 'cleaned', finished_at: deps.now().toISOString() }).where('id', '=', run.id).execute();
            // Counts show once their run's transaction committed: what the poll reports is what is gone.
            for (const [table, count] of Object.entries(counted)) cleanup.deleted[table] = (cleanup.deleted[table] ?? 0) + count;
            cleanup.total = Object.values(cleanup.deleted).reduce((a, b) => a + b, 0);
            cleanup.cleanedSeedRuns.push(run.id);
          }
          cleanup.state = 'completed';
        } catch (error) {
          cleanup.state = 'failed';
          cleanup.error = (error as Error).message;
          deps.logger.warn({ cleanupId: cleanup.cleanupId, reason: cleanup.error }, 'cleanup failed');
        } finally {
          cleanup.finishedAt = deps.now().toISOString();
          busy.delete(target.key);
          await release().catch(() => undefined);
        }
      })();
      return { ...cleanup, deleted: { ...cleanup.deleted }, cleanedSeedRuns: [...cleanup.cleanedSeedRuns] };
    },

    /** A cleanup's state and counts (404 for an id this process did not start or no longer keeps). */
    cleanup(id: string): CleanupView {
      const cleanup = cleanups.get(id);
      if (!cleanup) throw populationErrors.create('CLEANUP_NOT_FOUND', { id });
      return { ...cleanup, deleted: { ...cleanup.deleted }, cleanedSeedRuns: [...cleanup.cleanedSeedRuns] };
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
