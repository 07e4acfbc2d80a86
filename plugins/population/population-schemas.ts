/** Request and response schemas of the population routes (they also feed the population base's OpenAPI document). */
import { z } from 'zod';
import { POPULATION_FORMATS } from './generation/generation-jobs.ts';
import { PROVIDERS } from './output/sql-dialect.ts';

/** Largest population one job generates. */
export const MAX_POPULATION = 1_000_000;

/** Body of POST /api/population/generate. */
export const generateBodySchema = z
  .object({
    count: z.number().int().min(1).max(MAX_POPULATION).default(100).describe('number of patients, 1 to 1,000,000'),
    format: z.enum(POPULATION_FORMATS).default('sql').describe('sql (one script), csv (one file per table), hl7 (ADT^A01 and ORU^R01 v2.5.1), fhir (one transaction Bundle per patient, NDJSON)'),
    geographicFocus: z.string().min(2).max(10).default('us').describe('"us" or a state as "us-" and its USPS code, e.g. "us-ca"'),
    seed: z.number().int().min(0).max(2 ** 31 - 1).nullable().default(null).describe('same seed, same bytes; drawn at random (and reported) when null'),
    sqlDialect: z.enum(PROVIDERS).optional().describe('dialect of the sql script; default the connected database\'s, else postgres'),
    schemaTarget: z
      .enum(['default', 'connected'])
      .optional()
      .describe('tables of the sql script: the connected schema (default when a connected database has population tables) or the default patient schema'),
    compress: z
      .boolean()
      .default(false)
      .describe('write the files gzip-compressed (about a fifth of the size; downloads are served with Content-Encoding: gzip)'),
  })
  .strict();

/** Query of GET /api/population/generate. */
export const jobListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('newest jobs listed, 1 to 1,000 (default 100)'),
});

/** Path parameter of the job routes. */
export const jobParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Path parameters of the download route. */
export const fileParamsSchema = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(64) });

const outputFileSchema = z.object({
  name: z.string(),
  bytes: z.number(),
  sha256: z.string(),
  records: z.number(),
  contentType: z.string(),
  downloadPath: z.string().optional(),
  encoding: z.literal('gzip').optional().describe('the file is stored and served gzip-compressed; bytes is the compressed size, sha256 that of the content'),
});

/** A job as the routes return it. */
export const jobViewSchema = z.object({
  jobId: z.string(),
  state: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  params: z.object({
    count: z.number(),
    format: z.enum(POPULATION_FORMATS),
    geographicFocus: z.string(),
    seed: z.number(),
    sqlDialect: z.enum(PROVIDERS),
    schemaTarget: z.enum(['default', 'connected']),
    targetDatabase: z.string().nullable(),
    compress: z.boolean().optional(),
  }),
  progress: z.object({ generated: z.number(), total: z.number(), percent: z.number() }),
  counts: z.record(z.string(), z.number()),
  files: z.array(outputFileSchema),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

const distributionSchema = z.array(
  z.object({ key: z.string(), label: z.string(), count: z.number(), percent: z.number(), targetPercent: z.number(), difference: z.number() }),
);

/** `data` of GET /api/population/generate/{id}/analytics. */
export const analyticsSchema = z.object({
  patients: z.number(),
  rows: z.record(z.string(), z.number()),
  agePyramid: distributionSchema,
  sex: distributionSchema,
  race: distributionSchema,
  ethnicity: distributionSchema,
  states: distributionSchema,
  conditionPrevalence: distributionSchema,
  largestDifference: z.record(z.string(), z.number()),
});

/** `data` of GET /api/population/compliance/{id}. */
export const complianceSchema = z.object({
  jobId: z.string(),
  syntheticOnly: z.boolean(),
  phiDetected: z.boolean(),
  checks: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      passed: z.boolean(),
      checked: z.number(),
      failed: z.number(),
      failures: z.array(z.object({ patientId: z.number(), mrn: z.string(), reason: z.string() })),
    }),
  ),
  seed: z.number(),
  generatorVersion: z.string(),
  outputSha256: z.string(),
  generatedAt: z.string().nullable(),
  attestedAt: z.string(),
});

/** `data` of DELETE /api/population/generate/{id}: the job as it was, and whether it was removed (a finished job). */
export const cancelledJobSchema = jobViewSchema.extend({
  deleted: z.boolean().describe('true: the job was finished and is removed with its files (its id now answers 404); false: it was cancelled'),
});

/** `data` of GET /api/population/generate. */
export const jobListSchema = z.object({
  jobs: z.array(jobViewSchema.extend({ diskBytes: z.number().int().describe('bytes its files take on disk') })),
  diskBytes: z.number().int().describe('bytes the files of every job take'),
  freeBytes: z.number().int().describe('bytes free on the disk of the data folder'),
});
