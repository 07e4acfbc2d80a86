/**
 * Routes of generation jobs: submit (202 with the job id), state and progress, cancel, download of the files,
 * analytics against targets and the no-PHI attestation. Thin glue over the jobs service.
 */
import { createReadStream } from 'node:fs';
import { z } from 'zod';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { areaDemographics } from '../../synthetic-data/api.ts';
import { populationErrors } from '../errors.ts';
import type { GenerationJobs, JobView, SqlTargetFactory } from './generation-jobs.ts';
import type { ConnectedDatabase } from '../database/database-session.ts';
import {
  analyticsSchema,
  complianceSchema,
  fileParamsSchema,
  generateBodySchema,
  cancelledJobSchema,
  jobListQuerySchema,
  jobListSchema,
  jobParamsSchema,
  jobViewSchema,
} from '../population-schemas.ts';
import { POPULATION_EXAMPLES } from '../population-examples.ts';

const TAGS = ['population'];

function withDownloads(view: JobView) {
  return { ...view, files: view.files.map((f) => ({ ...f, downloadPath: `/api/population/generate/${view.jobId}/files/${f.name}` })) };
}

/** How the routes reach the connected database, for sql scripts that target its schema. */
export interface ConnectedTargets {
  connected(): ConnectedDatabase | undefined;
  sqlTargets(connected: ConnectedDatabase): Promise<SqlTargetFactory | undefined>;
}

/** What the generation routes work with. */
export interface GenerationRouteDeps {
  /** The generation jobs: submitted, listed, cancelled, their files and analytics. */
  jobs: GenerationJobs;
  /** The connected database, for sql scripts that target its schema. */
  target: ConnectedTargets;
}

/** Registers the generation routes. */
export function registerGenerationRoutes(routes: RouteRegistrar, deps: GenerationRouteDeps): void {
  const { jobs, target } = deps;
  routes.route({
    method: 'POST',
    url: '/api/population/generate',
    errors: ['UNKNOWN_AREA', 'DATABASE_NOT_CONNECTED', 'SEED_NO_TARGET_TABLES', 'POPULATION_QUEUE_FULL', 'POPULATION_DISK_FULL'],
    examples: POPULATION_EXAMPLES.submit,
    summary: 'Generate a synthetic population in the background',
    description: 'Answers 202 with {jobId}; poll GET /api/population/generate/{id} for state and progress.',
    tags: TAGS,
    tier: 'professional',
    body: generateBodySchema,
    response: jobViewSchema,
    successStatus: 202,
    async handler({ body }) {
      if (!areaDemographics(body.geographicFocus)) throw populationErrors.create('UNKNOWN_AREA', { area: body.geographicFocus });
      const connected = target.connected();
      if (body.schemaTarget === 'connected' && !connected) {
        throw populationErrors.create('DATABASE_NOT_CONNECTED', { action: 'generate sql for its schema' });
      }
      const factory = body.format === 'sql' && connected && body.schemaTarget !== 'default' ? await target.sqlTargets(connected) : undefined;
      if (body.schemaTarget === 'connected' && body.format === 'sql' && !factory) {
        throw populationErrors.create('SEED_NO_TARGET_TABLES', { tables: 'patients, encounters, conditions, observations, medications, allergies' });
      }
      const view = await jobs.submit(
        {
          count: body.count,
          format: body.format,
          geographicFocus: body.geographicFocus.trim().toLowerCase(),
          seed: body.seed,
          sqlDialect: factory && connected ? connected.schema.provider : (body.sqlDialect ?? connected?.schema.provider ?? 'postgres'),
          schemaTarget: factory ? 'connected' : 'default',
          targetDatabase: factory && connected ? connected.connection.target.label : null,
          compress: body.compress,
        },
        factory,
      );
      return withDownloads(view);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/generate/:id',
    errors: ['POPULATION_JOB_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.get,
    summary: 'State, progress, counts and (when completed) the files of a population job',
    tags: TAGS,
    tier: 'professional',
    params: jobParamsSchema,
    response: jobViewSchema,
    handler: async ({ params }) => withDownloads(await jobs.get(params.id)),
  });

  routes.route({
    method: 'GET',
    url: '/api/population/generate',
    examples: POPULATION_EXAMPLES.list,
    summary: 'Population jobs, newest first, with the disk their files take and the disk still free',
    tags: TAGS,
    tier: 'professional',
    query: jobListQuerySchema,
    response: jobListSchema,
    async handler({ query }) {
      const listed = await jobs.list(query.limit);
      return { ...listed, jobs: listed.jobs.map((job) => ({ ...withDownloads(job), diskBytes: job.diskBytes })) };
    },
  });

  routes.route({
    method: 'DELETE',
    url: '/api/population/generate/:id',
    errors: ['POPULATION_JOB_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.cancel,
    summary: 'Cancel a queued or running population job; remove a finished one with its files',
    description: 'A finished job (completed, failed or cancelled) is removed with its files: its id then answers 404.',
    tags: TAGS,
    tier: 'professional',
    params: jobParamsSchema,
    response: cancelledJobSchema,
    async handler({ params }) {
      const job = await jobs.cancelOrDelete(params.id);
      // A removed job's files are gone: no download paths.
      return job.deleted ? job : { ...withDownloads(job), deleted: false };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/generate/:id/files/:name',
    errors: ['POPULATION_JOB_NOT_FOUND', 'POPULATION_JOB_NOT_COMPLETED', 'POPULATION_FILE_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.download,
    summary: 'Download one file of a completed population job',
    description: 'Streams the file as it is read, whatever its size.',
    tags: TAGS,
    tier: 'professional',
    params: fileParamsSchema,
    // The file itself (SQL, CSV, HL7 or NDJSON), streamed.
    response: z.string(),
    async handler({ params }) {
      const { path, file } = await jobs.filePath(params.id, params.name);
      return {
        raw: true,
        contentType: file.contentType,
        body: createReadStream(path),
        headers: {
          'content-disposition': `attachment; filename="${file.name}"`,
          'content-length': String(file.bytes),
          // A compressed file is sent as stored; clients decode it (curl --compressed, browsers by themselves).
          ...(file.encoding === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
        },
      };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/generate/:id/analytics',
    errors: ['POPULATION_JOB_NOT_FOUND', 'POPULATION_JOB_NOT_COMPLETED'],
    examples: POPULATION_EXAMPLES.analytics,
    summary: 'Distributions of a completed population against their targets',
    description: 'Age pyramid, sex, race, ethnicity, states and condition prevalence; 409 while the job runs, 404 unknown.',
    tags: TAGS,
    tier: 'professional',
    params: jobParamsSchema,
    response: analyticsSchema,
    handler: ({ params }) => jobs.analytics(params.id),
  });

  routes.route({
    method: 'GET',
    url: '/api/population/compliance/:id',
    errors: ['POPULATION_JOB_NOT_FOUND', 'POPULATION_JOB_NOT_COMPLETED'],
    examples: POPULATION_EXAMPLES.compliance,
    summary: 'No-PHI attestation of a completed population',
    tags: TAGS,
    tier: 'professional',
    params: jobParamsSchema,
    response: complianceSchema,
    handler: ({ params }) => jobs.compliance(params.id),
  });
}
