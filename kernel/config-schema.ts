/**
 * The kernel's part of the config file, one zod schema with defaults; types come from the schema. Each plugin
 * declares the schema of its own section (`plugins.<id>`), validated at the same time (see config-loader.ts).
 */
import { z } from 'zod';
import { TIERS } from './entitlement.ts';

/** Host names a server may bind: loopback only. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'] as const;

const serverSchema = (port: number) =>
  z
    .object({
      host: z
        .string()
        .default('127.0.0.1')
        .refine((host) => (LOOPBACK_HOSTS as readonly string[]).includes(host), {
          message:
            'must be a loopback address (127.0.0.1, ::1 or localhost); the service is never reachable from another machine',
        }),
      port: z.number().int().min(0).max(65535).default(port),
    })
    .strict()
    .prefault({});

/** Schema of the kernel's config keys. */
export const kernelConfigSchema = z
  .object({
    /**
     * Folder of the embedded database and other state; null: the platform's per-user data folder (data-dir.ts).
     * Relative paths resolve against the working directory.
     */
    dataDir: z.string().min(1).nullable().default(null),
    /** Local licence tier. The shipped default is enterprise so a new user sees every feature. */
    tier: z.enum(TIERS).default('enterprise'),
    servers: z
      .object({
        bridge: serverSchema(5101),
        monitor: serverSchema(5100),
        population: serverSchema(5102),
      })
      .strict()
      .prefault({}),
    http: z
      .object({
        /** Largest accepted request body in bytes (default 10 MB). */
        bodyLimitBytes: z.number().int().min(1024).default(10 * 1024 * 1024),
        /** Browser origins allowed to call the service (CORS). Empty: no CORS headers, foreign origins refused. */
        allowedOrigins: z.array(z.url()).default([]),
      })
      .strict()
      .prefault({}),
    storage: z
      .object({
        /** PostgreSQL URL for a shared store; null keeps the embedded SQLite file in dataDir. */
        url: z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
          .nullable()
          .default(null),
        /** SQLite file name inside dataDir. */
        sqliteFile: z.string().min(1).default('workbench.sqlite'),
      })
      .strict()
      .prefault({}),
    auth: z
      .object({
        jwt: z
          .object({
            /** Shared secret for HS256 tokens (at least 32 characters). */
            hs256Secret: z.string().min(32, 'must be at least 32 characters').nullable().default(null),
            /** JWKS address for asymmetric tokens (RS256, ES256, EdDSA...). */
            jwksUrl: z.url().nullable().default(null),
            /** Allowed asymmetric algorithms for JWKS keys. */
            asymmetricAlgorithms: z
              .array(z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']))
              .min(1)
              .default(['RS256', 'ES256']),
            issuer: z.string().nullable().default(null),
            audience: z.string().nullable().default(null),
            /** Claim holding the caller's roles (string or array). */
            rolesClaim: z.string().default('roles'),
            /** Allowed clock skew in seconds. */
            clockToleranceSeconds: z.number().int().min(0).max(300).default(60),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    work: z
      .object({
        /** Worker threads for heavy work (validate, diff, generate of large inputs); null: one per CPU core. */
        threads: z.number().int().min(1).max(64).nullable().default(null),
        /** Time one piece of pooled work may take before its worker is recycled and the caller gets 422. */
        timeBudgetMs: z.number().int().min(100).max(600_000).default(10_000),
        /** Inputs smaller than this (characters of message content) run on the event loop; larger go to a worker. */
        inlineBelowBytes: z.number().int().min(0).default(16 * 1024),
        /**
         * Received content (a monitored file) of at least this many bytes is read and validated in a worker; shorter
         * content is read on the event loop, each message over `inlineBelowBytes` still validated in a worker. A
         * pooled read pays a thread hop and a copy of every message back, worth it only for content that would hold
         * the event loop for long (a megabyte of small messages reads in about 0.1 s).
         */
        readInPoolFromBytes: z.number().int().min(0).default(2 * 1024 * 1024),
        /** Heavy requests waiting for a worker beyond those running; more get 503 SERVER_BUSY with Retry-After. */
        maxQueued: z.number().int().min(0).max(1_000).default(4),
        /** Old-generation heap limit of each worker thread, in MB; work that needs more gets 422. */
        workerHeapMb: z.number().int().min(64).max(16_384).default(1_024),
        /**
         * Boot the workers at start and keep them (the first large request is fast), rather than on first use, ended
         * again after `idleTimeoutMs` without work (each idle worker holds every standard's definitions).
         */
        warmOnStart: z.boolean().default(false),
        /** Milliseconds a worker booted on first use may stay without work before it ends (not with warmOnStart). */
        idleTimeoutMs: z.number().int().min(1_000).max(86_400_000).default(300_000),
        /**
         * How far the service's JavaScript heap may grow past what was live after the last full collection before the
         * next one, in percent. Lower keeps the resident size down at the cost of more frequent collections; 0 leaves
         * it to V8, which lets the heap grow to about four times what is live on a machine with much memory.
         */
        heapGrowthPercent: z.number().int().min(0).max(300).default(100),
      })
      .strict()
      .prefault({}),
    /** This process as a node of a team sharing one PostgreSQL store (see docs/guides/team-on-postgresql.md). */
    node: z
      .object({
        /**
         * Stable name of the node; null: the host name and the data folder's id (`<host>-<id>`). Each process on a
         * shared store needs its own.
         */
        name: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, dots, dashes or underscores')
          .nullable()
          .default(null),
        /**
         * Milliseconds after its last heartbeat a node is taken for dead: its interfaces and jobs pass to the other
         * nodes. It beats every third of this (at most every 10 s).
         */
        leaseMs: z.number().int().min(1_000).max(3_600_000).default(30_000),
      })
      .strict()
      .prefault({}),
    logging: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      })
      .strict()
      .prefault({}),
    /** Extra folders searched for plugins (each holding `<id>/plugin.json`). */
    pluginDirs: z.array(z.string()).default([]),
    /** Extra folders searched for profile packs. */
    profileDirs: z.array(z.string()).default([]),
    /** Per-plugin sections: `{ enabled?: boolean, ...the plugin's own keys }`. */
    plugins: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  })
  .strict();

/** The validated kernel config. */
export type KernelConfig = z.infer<typeof kernelConfigSchema>;

