/**
 * Seeding. A seed regenerates the job's population from its seed (same seed, same patients, so the database receives
 * exactly what the files hold) and loads it in batches of patients, one transaction per batch, through the engine's
 * fast path, on as many connections side by side as the engine gains from (the next batch is generated meanwhile).
 * Before each batch commits, the manifest (per table, the ranges of inserted keys) is stored, so every inserted key is
 * on record for cleanup.
 *
 * What a plan depends on is read by seed-inputs.ts; the dry run is seed-dry-run.ts and cleanup seed-cleanup.ts.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { createFastRandom, type SyntheticDataService } from '../../synthetic-data/api.ts';
import type { DatabaseConnection } from '../database/database-connection.ts';
import type { ConnectedDatabase } from '../database/database-session.ts';
import { populationErrors } from '../errors.ts';
import type { GenerationJobs, JobParams } from '../generation/generation-jobs.ts';
import type { PopulationTables, SeedRunRow } from '../job-records.ts';
import { createPatientGenerator } from '../generation/patient-generator.ts';
import type { ProfileStore } from '../database/profile-store.ts';
import { type BatchLoader, createTableBuffer, loadLanes, openBatchLoader, PATIENTS_PER_BATCH, SeedRowError, type TableBuffer } from './seed-loaders.ts';
import { type BatchIds, manifestOf, type TableManifest } from './seed-manifest.ts';
import { buildSeedPlan, createRowBuilder, type PlanInputs, type SeedPlan, type TablePlan, translateKey } from './seed-plan.ts';
import { quoteIdentifier } from '../output/sql-dialect.ts';
import type { SqlTarget } from '../output/sql-writer.ts';
import { createSeedCleanups } from './seed-cleanup.ts';
import { dryRunSeed } from './seed-dry-run.ts';
import { planInputs, profilesOf, requireTables, seedableJob } from './seed-inputs.ts';

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

/** Creates the seed service. */
export function createSeedRuns(deps: SeedRunsDeps) {
  const { db } = deps;
  const busy = new Map<string, string>();
  const cleanups = createSeedCleanups(deps, busy);

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
    dryRun: (jobId: string, connected: ConnectedDatabase) => dryRunSeed(deps, jobId, connected),

    /** Starts seeding a completed sql/csv job into the connected database (202 with the run). */
    async start(jobId: string, connected: ConnectedDatabase): Promise<SeedRunView> {
      const params = await seedableJob(deps.jobs, jobId);
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
    startCleanup: cleanups.startCleanup,

    /** A cleanup's state and counts (404 for an id this process did not start or no longer keeps). */
    cleanup: cleanups.cleanup,
  };
}

/** The seed service's type. */
export type SeedRuns = ReturnType<typeof createSeedRuns>;
