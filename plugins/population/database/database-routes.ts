/**
 * Routes of the connected database: connect, schema, learn, profiles, seed (and its dry run and progress) and
 * cleanup. Thin glue over the session, the learner and the seed service.
 */
import { z } from 'zod';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { parseConnectionString } from './connection-string.ts';
import { openDatabaseConnection, type ConnectionTimeouts } from './database-connection.ts';
import type { DatabaseSession } from './database-session.ts';
import { populationErrors } from '../errors.ts';
import { learnProfile, type LearnedProfile } from './profile-learner.ts';
import type { ProfileStore } from './profile-store.ts';
import type { SeedRuns } from '../seeding/seed-runs.ts';
import { PROVIDERS, PROVIDER_ALIASES, type Provider } from '../output/sql-dialect.ts';
import { POPULATION_EXAMPLES } from '../population-examples.ts';

const TAGS = ['population'];

/** A provider, or one of its other names (`mariadb`, `postgresql`, `mssql`), as the provider it is. */
const providerField = z
  .enum(['postgres', 'mysql', 'sqlserver', 'mariadb', 'postgresql', 'mssql'] satisfies Array<Provider | keyof typeof PROVIDER_ALIASES>)
  .transform((name): Provider => (name in PROVIDER_ALIASES ? PROVIDER_ALIASES[name as keyof typeof PROVIDER_ALIASES] : (name as Provider)))
  .describe('postgres, mysql or sqlserver; mariadb, postgresql and mssql are accepted as their other names');

const connectBody = z
  .object({
    provider: providerField,
    connectionString: z.string().min(1).max(4000).describe('kept in memory only: never stored, logged or returned'),
  })
  .strict();

const learnBody = z
  .object({
    tables: z.array(z.string().min(1).max(200)).min(1).max(200),
    sampleSize: z.number().int().min(1).max(100_000).default(1000),
    name: z.string().min(1).max(200).regex(/^[\w.-]+$/, 'letters, digits, "_", "." and "-" only').optional().describe('profile name; default the database name'),
    k: z.number().int().min(2).max(1000).optional().describe('k-anonymity threshold; default from config (5)'),
  })
  .strict();

const jobBody = z.object({ jobId: z.string().min(1).max(64) }).strict();

const cleanupQuery = z
  .object({
    connectionString: z.string().min(1).max(4000).optional().describe('URL-encoded; default the connected database'),
    provider: providerField.optional(),
  })
  .strict();

const keyRange = z.object({ from: z.number().int(), to: z.number().int() });

const cycleSchema = z.object({
  tables: z.array(z.string()).describe('each references the next; the last references the first'),
  brokenBy: z.object({ table: z.string(), columns: z.array(z.string()), foreignKey: z.string() }).nullable().describe('the nullable foreign key inserted as NULL'),
});

/** `data` of POST /api/population/connect. */
const connectedSchema = z.object({
  connected: z.literal(true),
  database: z.string().describe('provider://host:port/database'),
  provider: z.enum(PROVIDERS),
  tables: z.array(z.object({ name: z.string(), rowCount: z.number().int() })),
  insertOrder: z.array(z.string()),
  cycles: z.array(cycleSchema),
});

const valueFrequency = z.object({ value: z.string(), count: z.number().int(), fraction: z.number() });

/** A learned profile as the routes answer it: aggregates only; identity hashes are counted, never listed. */
const learnedProfileSchema = z.object({
  name: z.string(),
  provider: z.enum(PROVIDERS),
  database: z.string(),
  learnedAt: z.string(),
  k: z.number().int().describe('k-anonymity threshold: nothing seen fewer than k times is kept'),
  sampleSize: z.number().int(),
  tables: z.array(
    z.object({
      table: z.string(),
      rowCount: z.number().int(),
      sampledRows: z.number().int(),
      columns: z.array(
        z.object({
          name: z.string(),
          dataType: z.string(),
          kind: z.enum(['number', 'date', 'string', 'boolean', 'other']),
          nullFraction: z.number(),
          distinctCount: z.number().int(),
          frequencies: z.object({ values: z.array(valueFrequency), suppressed: z.number().int() }).nullable(),
          range: z
            .object({
              min: z.union([z.number(), z.string()]),
              max: z.union([z.number(), z.string()]),
              mean: z.number().nullable(),
              histogram: z.array(z.object({ from: z.union([z.number(), z.string()]), to: z.union([z.number(), z.string()]), count: z.number().int() })),
            })
            .nullable(),
          strings: z.object({ minLength: z.number(), maxLength: z.number(), meanLength: z.number(), patterns: z.array(valueFrequency) }).nullable(),
        }),
      ),
      fanOut: z.array(
        z.object({
          foreignKey: z.string(),
          columns: z.array(z.string()),
          refTable: z.string(),
          parents: z.number().int(),
          mean: z.number(),
          min: z.number(),
          max: z.number(),
        }),
      ),
    }),
  ),
  identities: z.object({ tables: z.array(z.string()), count: z.number().int() }).nullable().describe('sampled people, as a count of salted hashes'),
});

/** `data` of GET /api/population/profiles: one summary per profile, newest first. */
const profileSummarySchema = z.object({
  name: z.string(),
  learnedAt: z.string(),
  tables: z.array(z.string()),
  sampledRows: z.number().int(),
  hasIdentities: z.boolean(),
});

/** `data` of POST /api/population/seed/dry-run: what a seed would do, changing nothing. */
const dryRunSchema = z.object({
  jobId: z.string(),
  database: z.string(),
  provider: z.enum(PROVIDERS),
  method: z.string().describe('how rows are loaded (COPY, multi-row INSERT, bulk load)'),
  transactions: z.string(),
  steps: z.array(
    z.object({
      order: z.number().int(),
      table: z.string(),
      from: z.string().describe('the default table its rows come from'),
      rowCount: z.number().int(),
      keyColumn: z.string(),
      keys: z.string().describe('the keys it would insert'),
      columns: z.array(
        z.object({
          column: z.string(),
          source: z.enum(['key', 'parent-key', 'existing-parent', 'unique', 'generated', 'profile', 'placeholder', 'null']),
          from: z.string().optional(),
          unique: z
            .union([
              z.object({ kind: z.literal('integer'), offset: z.number() }),
              z.object({ kind: z.literal('numbered'), prefix: z.string(), width: z.number().int(), offset: z.number() }),
              z.object({ kind: z.literal('text'), prefix: z.string() }),
            ])
            .optional()
            .describe('a unique column: how its values avoid those already there'),
        }),
      ),
      statement: z.string(),
      sample: z.string().nullable().describe('an INSERT of the first rows, for reading'),
      firstRows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
    }),
  ),
  untouched: z.array(z.object({ table: z.string(), reason: z.string() })),
  cycleBreakers: z.array(z.object({ table: z.string(), columns: z.array(z.string()) })),
  cycles: z.array(cycleSchema),
});

/** `data` of GET /api/population/schema: the schema as analysed. */
const schemaInfoSchema = z.object({
  provider: z.enum(PROVIDERS),
  database: z.string(),
  analysedAt: z.string(),
  tables: z.array(
    z.object({
      name: z.string(),
      columns: z.array(
        z.object({
          name: z.string(),
          dataType: z.string(),
          nullable: z.boolean(),
          default: z.string().nullable(),
          maxLength: z.number().int().nullable(),
          allowedValues: z.array(z.string()).nullable().describe('values an enum type or a check list allows'),
          generated: z.boolean().describe('filled by the database (serial, identity, auto_increment)'),
        }),
      ),
      primaryKey: z.array(z.string()),
      uniques: z.array(z.array(z.string())),
      foreignKeys: z.array(z.object({ name: z.string(), columns: z.array(z.string()), refTable: z.string(), refColumns: z.array(z.string()) })),
      checks: z.array(z.object({ name: z.string(), clause: z.string() })),
      rowCount: z.number().int(),
    }),
  ),
  insertOrder: z.array(z.string()),
  cycles: z.array(cycleSchema),
});

/** A seed run as the routes answer it: state, progress and the manifest (`tables`: per table the keys inserted). */
const seedRunSchema = z.object({
  seedRunId: z.string(),
  jobId: z.string(),
  database: z.string().describe('provider://host:port/database'),
  state: z.enum(['running', 'completed', 'failed', 'cleaned']),
  inserted: z.number().int(),
  progress: z.object({ inserted: z.number().int(), expected: z.number().int(), percent: z.number() }),
  tables: z
    .array(
      z.object({
        table: z.string(),
        keyColumn: z.string(),
        rows: z.number().int(),
        kind: z.enum(['integer', 'text']),
        prefix: z.string().optional().describe('text keys: the prefix before the numbers from..to'),
        from: z.number().int(),
        to: z.number().int(),
        gaps: z.array(keyRange).optional().describe('ranges inside from..to not inserted (a batch rolled back between committed ones)'),
      }),
    )
    .describe('the seed manifest: what cleanup deletes'),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** A cleanup as the routes answer it. */
const cleanupSchema = z.object({
  cleanupId: z.string(),
  database: z.string().describe('provider://host:port/database'),
  state: z.enum(['running', 'completed', 'failed']),
  deleted: z.record(z.string(), z.number().int()).describe('rows deleted per table, of the seed runs cleaned so far'),
  total: z.number().int(),
  expected: z.number().int().describe('rows the manifests of the seed runs being cleaned record'),
  seedRuns: z.array(z.string()).describe('seed runs this cleanup deletes, newest first'),
  cleanedSeedRuns: z.array(z.string()).describe('seed runs whose deletion has committed'),
  error: z.string().nullable().describe('why it stopped (CLEANUP_FAILED); the runs cleaned before stay cleaned'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** A profile as routes return it: identity hashes are counted, never listed. */
function publicProfile(profile: LearnedProfile) {
  const { identities, ...rest } = profile;
  return { ...rest, identities: identities ? { tables: identities.tables, count: identities.count } : null };
}

/** What the database routes work with. */
export interface DatabaseRouteDeps {
  /** The connected database, if any. */
  session: DatabaseSession;
  /** The learned profiles. */
  profiles: ProfileStore;
  /** The seed runs. */
  seeds: SeedRuns;
  /** The time limits of a connection. */
  timeouts: ConnectionTimeouts;
  /** The default k-anonymity threshold of learning. */
  k: number;
  /** The current time. */
  now: () => Date;
}

/** Registers the database routes. */
export function registerDatabaseRoutes(routes: RouteRegistrar, deps: DatabaseRouteDeps): void {
  const { session, profiles, seeds } = deps;

  const schemaView = () => {
    const connected = session.require('read the schema');
    return { ...connected.schema, database: connected.connection.target.label };
  };

  routes.route({
    method: 'POST',
    url: '/api/population/connect',
    errors: ['CONNECTION_STRING_INVALID', 'DATABASE_UNREACHABLE'],
    examples: POPULATION_EXAMPLES.connect,
    summary: 'Connect a PostgreSQL, MySQL/MariaDB or SQL Server database and analyse its schema',
    description: 'The connection string stays in memory for the session; it is never stored, logged or returned.',
    tags: TAGS,
    tier: 'professional',
    body: connectBody,
    response: connectedSchema,
    async handler({ body }) {
      const connected = await session.connect(body.provider, body.connectionString);
      const { schema } = connected;
      return {
        connected: true as const,
        database: connected.connection.target.label,
        provider: schema.provider,
        tables: schema.tables.map((t) => ({ name: t.name, rowCount: t.rowCount })),
        insertOrder: schema.insertOrder,
        cycles: schema.cycles,
      };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/schema',
    errors: ['DATABASE_NOT_CONNECTED'],
    examples: POPULATION_EXAMPLES.schema,
    summary: 'Schema analysed at the last connect: tables, columns, keys, enum/check values, row counts, insert order',
    tags: TAGS,
    tier: 'professional',
    response: schemaInfoSchema,
    async handler() {
      await session.refresh();
      return schemaView();
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/population/learn',
    errors: ['DATABASE_NOT_CONNECTED', 'DATABASE_UNREACHABLE', 'UNKNOWN_TABLES'],
    examples: POPULATION_EXAMPLES.learn,
    summary: 'Learn aggregate patterns of tables from a sample (k-anonymous; never rows)',
    tags: TAGS,
    tier: 'professional',
    body: learnBody,
    response: learnedProfileSchema,
    async handler({ body }) {
      const connected = session.require('learn');
      const known = new Set(connected.schema.tables.map((t) => t.name));
      const missing = body.tables.filter((t) => !known.has(t));
      if (missing.length > 0) throw populationErrors.create('UNKNOWN_TABLES', { tables: missing.map((t) => `"${t}"`).join(', '), known: [...known].join(', ') || 'none' });
      const profile = await learnProfile(connected.connection.db, connected.schema, {
        name: body.name ?? connected.schema.database,
        tables: body.tables,
        sampleSize: body.sampleSize,
        k: body.k ?? deps.k,
        now: deps.now(),
      });
      await profiles.save(profile);
      return publicProfile(profile);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/profiles',
    examples: POPULATION_EXAMPLES.profiles,
    summary: 'Learned profiles',
    tags: TAGS,
    tier: 'professional',
    response: z.array(profileSummarySchema),
    handler: () => profiles.list(),
  });

  routes.route({
    method: 'GET',
    url: '/api/population/profiles/:name',
    errors: ['LEARNED_PROFILE_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.profile,
    summary: 'One learned profile',
    tags: TAGS,
    tier: 'professional',
    params: z.object({ name: z.string().min(1).max(200) }),
    response: learnedProfileSchema,
    handler: async ({ params }) => publicProfile(await profiles.get(params.name)),
  });

  routes.route({
    method: 'POST',
    url: '/api/population/seed/dry-run',
    errors: ['DATABASE_NOT_CONNECTED', 'DATABASE_UNREACHABLE', 'POPULATION_JOB_NOT_FOUND', 'POPULATION_JOB_NOT_COMPLETED', 'SEED_FORMAT_UNSUPPORTED', 'SEED_NO_TARGET_TABLES'],
    examples: POPULATION_EXAMPLES.dryRun,
    summary: 'The seed plan (statements in order, row counts, first rows); executes nothing',
    tags: TAGS,
    tier: 'professional',
    body: jobBody,
    response: dryRunSchema,
    async handler({ body }) {
      const connected = session.require('dry-run a seed');
      await session.refresh();
      return seeds.dryRun(body.jobId, connected);
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/population/seed',
    errors: ['DATABASE_NOT_CONNECTED', 'DATABASE_UNREACHABLE', 'POPULATION_JOB_NOT_FOUND', 'POPULATION_JOB_NOT_COMPLETED', 'SEED_FORMAT_UNSUPPORTED', 'SEED_NO_TARGET_TABLES', 'SEED_BUSY'],
    examples: POPULATION_EXAMPLES.seed,
    summary: 'Seed the connected database with a generated population (background; poll the returned run)',
    tags: TAGS,
    tier: 'professional',
    body: jobBody,
    response: seedRunSchema,
    successStatus: 202,
    async handler({ body }) {
      const connected = session.require('seed');
      await session.refresh();
      return seeds.start(body.jobId, connected);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/seed/:id',
    errors: ['SEED_RUN_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.seedRun,
    summary: 'State and manifest of a seed run',
    tags: TAGS,
    tier: 'professional',
    params: z.object({ id: z.string().min(1).max(64) }),
    response: seedRunSchema,
    handler: ({ params }) => seeds.get(params.id),
  });

  routes.route({
    method: 'DELETE',
    url: '/api/population/seed/cleanup',
    errors: ['DATABASE_NOT_CONNECTED', 'DATABASE_UNREACHABLE', 'CONNECTION_STRING_INVALID', 'SEED_BUSY', 'NOTHING_TO_CLEAN'],
    examples: POPULATION_EXAMPLES.cleanup,
    summary: 'Delete exactly the rows seeded into a database (background; poll the returned cleanup)',
    description:
      'Answers 202 with {cleanupId}; poll GET /api/population/seed/cleanup/{id}. Reverse foreign-key order, never ' +
      'TRUNCATE, one transaction per seed run: the counts polled are rows whose deletion committed.',
    tags: TAGS,
    tier: 'professional',
    query: cleanupQuery,
    response: cleanupSchema,
    successStatus: 202,
    async handler({ query }) {
      if (!query.connectionString) {
        const connected = session.require('clean up');
        return seeds.startCleanup(connected.connection);
      }
      if (!query.provider) throw populationErrors.create('CONNECTION_STRING_INVALID', { provider: 'database', reason: 'provider (postgres, mysql or sqlserver) is required with connectionString' });
      const target = parseConnectionString(query.provider, query.connectionString);
      const current = session.peek();
      if (current && current.connection.target.key === target.key) return seeds.startCleanup(current.connection);
      const connection = await openDatabaseConnection(target, deps.timeouts);
      try {
        // The connection opened for this cleanup closes when the cleanup ends.
        return await seeds.startCleanup(connection, () => connection.close());
      } catch (error) {
        await connection.close().catch(() => undefined);
        throw error;
      }
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/population/seed/cleanup/:id',
    errors: ['CLEANUP_NOT_FOUND'],
    examples: POPULATION_EXAMPLES.cleanupState,
    summary: 'State and counts of a cleanup',
    tags: TAGS,
    tier: 'professional',
    params: z.object({ id: z.string().min(1).max(64) }),
    response: cleanupSchema,
    handler: ({ params }) => seeds.cleanup(params.id),
  });
}
