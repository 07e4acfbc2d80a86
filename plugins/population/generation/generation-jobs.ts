/**
 * Generation jobs: a request becomes a stored job (queued), one job runs at a time in the background (running), and
 * it ends completed, failed or cancelled. Patients are generated one at a time and streamed to files, so memory stays
 * flat whatever the count; the loop yields to the event loop regularly so the service stays responsive. Progress is
 * stored as it goes, and a job left queued or running by a stop or crash is marked failed with the reason at the
 * next start rather than vanishing.
 */
import { randomInt, randomUUID, createHash } from 'node:crypto';
import { mkdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createFastRandom, type SyntheticDataService } from '../../synthetic-data/api.ts';
import { AnalyticsAccumulator, type PopulationAnalytics } from './population-analytics.ts';
import { ComplianceAccumulator, type ComplianceCheck, type LearnedIdentities } from './compliance-checks.ts';
import { createCsvWriter } from '../output/csv-writer.ts';
import { populationErrors } from '../errors.ts';
import { storedName, type OutputFile } from '../output/file-sink.ts';
import { createFhirWriter } from '../output/fhir-writer.ts';
import { createHl7Writer } from '../output/hl7-writer.ts';
import type { JobRow, JobState, PopulationTables } from '../job-records.ts';
import { createPatientGenerator } from './patient-generator.ts';
import type { PopulationWriter } from '../output/population-writer.ts';
import type { Provider } from '../output/sql-dialect.ts';
import { createSqlWriter, type SqlTarget } from '../output/sql-writer.ts';

/** Output formats. */
export const POPULATION_FORMATS = ['sql', 'csv', 'hl7', 'fhir'] as const;

/** What a job generates. */
export interface JobParams {
  count: number;
  format: (typeof POPULATION_FORMATS)[number];
  geographicFocus: string;
  /** The seed used (drawn at random when the request gave none, so the run can be replayed). */
  seed: number;
  /** Dialect of the SQL script. */
  sqlDialect: Provider;
  /** Tables of the SQL script: the default patient schema, or the connected database's (`provider://host:port/db`). */
  schemaTarget: 'default' | 'connected';
  targetDatabase: string | null;
  /** Files written gzip-compressed (`<name>.gz`, served with Content-Encoding: gzip). */
  compress?: boolean;
}

/**
 * Bytes a patient takes on disk per format, measured on 2,000 patients (sql 4,629, csv 3,564, hl7 3,542, fhir
 * 45,279) with a fifth added; compressed files take about a fifth of that (gzip at its fastest level on this text
 * shrinks it five- to tenfold). An estimate, for refusing a job the disk cannot hold before it fills the disk.
 */
const BYTES_PER_PATIENT: Record<JobParams['format'], number> = { sql: 5_600, csv: 4_300, hl7: 4_300, fhir: 54_400 };
const COMPRESSED_SHARE = 0.2;

/** About how many bytes a job's files will take. */
export function estimatedJobBytes(params: Pick<JobParams, 'count' | 'format' | 'compress'>): number {
  return Math.ceil(params.count * BYTES_PER_PATIENT[params.format] * (params.compress ? COMPRESSED_SHARE : 1));
}

/** Free bytes for an unprivileged writer on the file system holding `folder` (or its nearest existing parent). */
function freeBytes(folder: string): number {
  for (let at = folder; ; at = join(at, '..')) {
    try {
      const stats = statfsSync(at);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || at === join(at, '..')) throw error;
    }
  }
}

/** A number of bytes for a message: `4.5 GB`, `310 MB`. */
function humanBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Builds the SQL-script targets of a connected schema for a seed and reference date. */
export type SqlTargetFactory = (seed: number, referenceIso: string) => SqlTarget[];

/** A job as callers see it. */
export interface JobView {
  jobId: string;
  state: JobState;
  params: JobParams;
  progress: { generated: number; total: number; percent: number };
  counts: Record<string, number>;
  files: OutputFile[];
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The attestation of a completed job. */
export interface ComplianceAttestation {
  jobId: string;
  syntheticOnly: boolean;
  phiDetected: boolean;
  checks: ComplianceCheck[];
  seed: number;
  generatorVersion: string;
  /** SHA-256 over the files' own SHA-256 digests, in file order. */
  outputSha256: string;
  generatedAt: string | null;
  attestedAt: string;
}

/** What the jobs service needs. */
export interface GenerationJobsDeps {
  db: Kysely<PopulationTables>;
  jobsDir: string;
  synthetic: SyntheticDataService;
  logger: Logger;
  now: () => Date;
  generatorVersion: string;
  maxQueued: number;
  /** Bytes a job must leave free on the disk of the jobs' folder (507 POPULATION_DISK_FULL otherwise). */
  diskReserveBytes: number;
  /** Salted identity hashes of every learned sample, read when a job starts. */
  learnedIdentities: () => Promise<LearnedIdentities[]>;
}

const YIELD_EVERY = 250;
const PROGRESS_EVERY_MS = 1000;

function viewOf(row: JobRow): JobView {
  const params = JSON.parse(row.params) as JobParams;
  return {
    jobId: row.id,
    state: row.state,
    params,
    progress: { generated: row.generated, total: row.total, percent: row.total === 0 ? 100 : Math.floor((row.generated / row.total) * 1000) / 10 },
    counts: JSON.parse(row.counts) as Record<string, number>,
    files: row.files ? (JSON.parse(row.files) as OutputFile[]) : [],
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Creates the jobs service. Call `recoverInterrupted()` once at start. */
export function createGenerationJobs(deps: GenerationJobsDeps) {
  const { db } = deps;
  const cancelled = new Set<string>();
  // Connected-schema targets of queued sql jobs; kept in memory only (a restart fails queued jobs anyway).
  const sqlTargets = new Map<string, SqlTargetFactory>();
  let running: Promise<void> | undefined;
  let stopping = false;

  async function row(id: string): Promise<JobRow> {
    const found = await db.selectFrom('population_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!found) throw populationErrors.create('POPULATION_JOB_NOT_FOUND', { id });
    return found;
  }

  async function openWriter(id: string, params: JobParams, directory: string, referenceIso: string): Promise<PopulationWriter> {
    const compress = params.compress === true;
    switch (params.format) {
      case 'csv':
        return createCsvWriter(directory, compress);
      case 'hl7':
        return createHl7Writer(directory, compress);
      case 'fhir':
        return createFhirWriter(directory, params.seed, compress);
      case 'sql': {
        const summary = `Synthetic population: ${params.count} patients, area ${params.geographicFocus}, seed ${params.seed}, ${deps.generatorVersion}.\nEvery person in it is synthetic.`;
        const factory = sqlTargets.get(id);
        if (params.schemaTarget === 'connected' && factory) {
          const header = `${summary}\nTables and keys of ${params.targetDatabase} as analysed at submission (keys past its largest keys then).`;
          return createSqlWriter(directory, params.sqlDialect, header, factory(params.seed, referenceIso), [], compress);
        }
        return createSqlWriter(directory, params.sqlDialect, `${summary}\nTables follow the workbench's default patient schema.`, undefined, undefined, compress);
      }
    }
  }

  async function run(job: JobRow): Promise<void> {
    const params = JSON.parse(job.params) as JobParams;
    const directory = join(deps.jobsDir, job.id);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const startedAt = deps.now().toISOString();
    await db.updateTable('population_jobs').set({ state: 'running', started_at: startedAt }).where('id', '=', job.id).execute();
    const random = createFastRandom(deps.synthetic.createRandom(params.seed));
    const generator = createPatientGenerator(random, params.geographicFocus);
    const analytics = new AnalyticsAccumulator(generator.source.demographics);
    const compliance = new ComplianceAccumulator(await deps.learnedIdentities());
    let writer: PopulationWriter | undefined;
    try {
      writer = await openWriter(job.id, params, directory, random.referenceDate.toISOString());
      let lastProgress = Date.now();
      for (let i = 0; i < params.count; i++) {
        const patient = generator.next();
        analytics.add(patient);
        compliance.add(patient);
        await writer.write(patient);
        if ((i + 1) % YIELD_EVERY === 0) {
          await new Promise((resolve) => setImmediate(resolve));
          if (cancelled.has(job.id) || stopping) break;
          if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
            lastProgress = Date.now();
            await db
              .updateTable('population_jobs')
              .set({ generated: i + 1, counts: JSON.stringify(analytics.rowCounts()) })
              .where('id', '=', job.id)
              .execute();
          }
        }
      }
      if (cancelled.has(job.id) || stopping) {
        writer.abort();
        rmSync(directory, { recursive: true, force: true });
        const state = cancelled.has(job.id) ? 'cancelled' : 'failed';
        await db
          .updateTable('population_jobs')
          .set({
            state,
            error: state === 'failed' ? 'The service stopped while the job was running; submit it again.' : null,
            finished_at: deps.now().toISOString(),
          })
          .where('id', '=', job.id)
          .execute();
        return;
      }
      const files = await writer.close();
      const report = analytics.report();
      await db
        .updateTable('population_jobs')
        .set({
          state: 'completed',
          generated: params.count,
          counts: JSON.stringify(report.rows),
          files: JSON.stringify(files),
          analytics: JSON.stringify(report),
          compliance: JSON.stringify(compliance.report()),
          finished_at: deps.now().toISOString(),
        })
        .where('id', '=', job.id)
        .execute();
    } catch (error) {
      writer?.abort();
      rmSync(directory, { recursive: true, force: true });
      deps.logger.error({ err: error, jobId: job.id }, 'population job failed');
      await db
        .updateTable('population_jobs')
        .set({ state: 'failed', error: `Generation failed: ${(error as Error).message}`, finished_at: deps.now().toISOString() })
        .where('id', '=', job.id)
        .execute();
    } finally {
      cancelled.delete(job.id);
      sqlTargets.delete(job.id);
    }
  }

  /** Runs queued jobs one after another until none is left. */
  function pump(): void {
    if (running || stopping) return;
    running = (async () => {
      for (;;) {
        const next = await db.selectFrom('population_jobs').selectAll().where('state', '=', 'queued').orderBy('created_at').orderBy('id').executeTakeFirst();
        if (!next || stopping) return;
        await run(next);
      }
    })()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'population job queue stopped'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    /** Marks jobs a previous process left queued or running as failed, with the reason. */
    async recoverInterrupted(): Promise<void> {
      await db
        .updateTable('population_jobs')
        .set({ state: 'failed', error: 'The service restarted before the job finished; submit it again.', finished_at: deps.now().toISOString() })
        .where('state', 'in', ['queued', 'running'])
        .execute();
    },

    /**
     * Removes jobs that finished (completed, failed or cancelled) before `cutoffIso`, with their files; running and
     * queued jobs are never touched. Returns how many were removed.
     */
    async pruneFinishedBefore(cutoffIso: string): Promise<number> {
      const old = await db
        .selectFrom('population_jobs')
        .select('id')
        .where('state', 'in', ['completed', 'failed', 'cancelled'])
        .where('finished_at', '<', cutoffIso)
        .execute();
      for (const { id } of old) {
        rmSync(join(deps.jobsDir, id), { recursive: true, force: true });
        await db.deleteFrom('population_jobs').where('id', '=', id).execute();
      }
      return old.length;
    },

    /** Stores a queued job and starts the queue; the seed is drawn when not given. */
    async submit(request: Omit<JobParams, 'seed'> & { seed: number | null }, targets?: SqlTargetFactory): Promise<JobView> {
      const queued = await db.selectFrom('population_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'queued').executeTakeFirst();
      if (Number(queued?.n ?? 0) >= deps.maxQueued) throw populationErrors.create('POPULATION_QUEUE_FULL', { queued: queued?.n });
      // Jobs queued before this one will take their share of the disk too.
      const waiting = await db.selectFrom('population_jobs').select('params').where('state', 'in', ['queued', 'running']).execute();
      const ahead = waiting.reduce((sum, r) => sum + estimatedJobBytes(JSON.parse(r.params) as JobParams), 0);
      const needed = estimatedJobBytes(request);
      const free = Math.max(0, freeBytes(deps.jobsDir) - deps.diskReserveBytes);
      if (needed + ahead > free) {
        throw populationErrors.create('POPULATION_DISK_FULL', {
          needed: humanBytes(needed),
          ahead: ahead > 0 ? ` (and the jobs before it about ${humanBytes(ahead)})` : '',
          free: humanBytes(free),
          hint: request.compress ? '' : '; compress: true writes about a fifth of that',
        });
      }
      const params: JobParams = { ...request, seed: request.seed ?? randomInt(0, 2 ** 31 - 1) };
      const job: JobRow = {
        id: `pop_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        state: 'queued',
        params: JSON.stringify(params),
        generated: 0,
        total: params.count,
        counts: '{}',
        files: null,
        error: null,
        analytics: null,
        compliance: null,
        created_at: deps.now().toISOString(),
        started_at: null,
        finished_at: null,
      };
      if (targets) sqlTargets.set(job.id, targets);
      await db.insertInto('population_jobs').values(job).execute();
      pump();
      return viewOf(job);
    },

    /** A job's state, progress and files. */
    async get(id: string): Promise<JobView> {
      return viewOf(await row(id));
    },

    /**
     * Cancels a queued or running job (its partial files are removed); removes a finished one (completed, failed or
     * cancelled) with its files, after which its id answers 404. Answers the job as it was.
     */
    async cancelOrDelete(id: string): Promise<JobView & { deleted: boolean }> {
      const job = await row(id);
      if (job.state === 'queued') {
        await db.updateTable('population_jobs').set({ state: 'cancelled', finished_at: deps.now().toISOString() }).where('id', '=', id).where('state', '=', 'queued').execute();
      } else if (job.state === 'running') {
        cancelled.add(id);
      } else {
        rmSync(join(deps.jobsDir, id), { recursive: true, force: true });
        await db.deleteFrom('population_jobs').where('id', '=', id).execute();
        return { ...viewOf(job), deleted: true };
      }
      return { ...viewOf(await row(id)), deleted: false };
    },

    /** Every job, newest first, with the bytes its files take, the total, and the free space of the jobs' disk. */
    async list(limit: number): Promise<{ jobs: Array<JobView & { diskBytes: number }>; diskBytes: number; freeBytes: number }> {
      const rows = await db.selectFrom('population_jobs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      const jobs = rows.map((r) => {
        const view = viewOf(r);
        return { ...view, diskBytes: view.files.reduce((sum, f) => sum + f.bytes, 0) };
      });
      const all = await db.selectFrom('population_jobs').select('files').where('files', 'is not', null).execute();
      const diskBytes = all.reduce((sum, r) => sum + (JSON.parse(r.files as string) as OutputFile[]).reduce((n, f) => n + f.bytes, 0), 0);
      return { jobs, diskBytes, freeBytes: freeBytes(deps.jobsDir) };
    },

    /** A completed job's stored row (404 unknown, 409 not completed). */
    async completed(id: string, what: string): Promise<JobRow> {
      const job = await row(id);
      if (job.state !== 'completed') throw populationErrors.create('POPULATION_JOB_NOT_COMPLETED', { id, state: job.state, what });
      return job;
    },

    /** Distributions against targets of a completed job. */
    async analytics(id: string): Promise<PopulationAnalytics> {
      const job = await this.completed(id, 'analytics');
      return JSON.parse(job.analytics ?? '{}') as PopulationAnalytics;
    },

    /** The no-PHI attestation of a completed job. */
    async compliance(id: string): Promise<ComplianceAttestation> {
      const job = await this.completed(id, 'the compliance attestation');
      const view = viewOf(job);
      const checks = JSON.parse(job.compliance ?? '[]') as ComplianceCheck[];
      const syntheticOnly = checks.every((c) => c.passed);
      const outputHash = createHash('sha256');
      for (const file of view.files) outputHash.update(file.sha256);
      return {
        jobId: id,
        syntheticOnly,
        phiDetected: !syntheticOnly,
        checks,
        seed: view.params.seed,
        generatorVersion: deps.generatorVersion,
        outputSha256: outputHash.digest('hex'),
        generatedAt: job.finished_at,
        attestedAt: deps.now().toISOString(),
      };
    },

    /** Path of a completed job's file (404 when it has no such file). */
    async filePath(id: string, name: string): Promise<{ path: string; file: OutputFile }> {
      const job = await this.completed(id, 'download');
      const files = viewOf(job).files;
      const file = files.find((f) => f.name === name);
      if (!file) throw populationErrors.create('POPULATION_FILE_NOT_FOUND', { id, name, files: files.map((f) => f.name).join(', ') });
      return { path: join(deps.jobsDir, id, storedName(file)), file };
    },

    /** Resumes the queue (after recovery at start). */
    start(): void {
      pump();
    },

    /** Stops the running job (marked failed: the service stopped) and waits for it. */
    async stop(): Promise<void> {
      stopping = true;
      await running;
    },
  };
}

/** The jobs service. */
export type GenerationJobs = ReturnType<typeof createGenerationJobs>;
