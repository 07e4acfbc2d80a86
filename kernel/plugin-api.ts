/**
 * The contract between the kernel and its plugins. A plugin is a folder with a `plugin.json` manifest and an entry
 * module that exports {@link PluginModule}: an optional zod schema of its config section and one `register(context)`.
 * Everything a plugin may use arrives through the {@link PluginContext}; plugins never import each other.
 */
import type { Readable } from 'node:stream';
import type { DependencyContainer } from 'tsyringe';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely';
import type { ErrorCatalogue } from './errors.ts';
import type { StandardsRegistry } from './standards-registry.ts';
import type { EventBus } from './events.ts';
import type { JobScheduler } from './background/scheduler.ts';
import type { BackgroundJobs } from './background/background-guard.ts';
import type { DiskWatch } from './store/disk-full.ts';
import type { ServiceFaults } from './background/service-faults.ts';
import type { ClusterMembership } from './cluster/cluster.ts';
import type { Clock } from './clock.ts';
import type { Entitlement, Tier } from './entitlement.ts';
import type { AuthService, Principal } from './auth/auth-service.ts';
import type { MonitorRole } from './auth/principal.ts';
import type { RequestObserver } from './http/request-observers.ts';
import type { ProfilePack } from './standards/profile-packs.ts';
import type { PluginManifest, BaseName } from './plugin-host/plugin-manifest.ts';
import type { Cache } from './cache.ts';
import type { PagedAnswer } from './http/paging.ts';
import type { FeatureSwitches } from './feature-switches.ts';
import type { StandardsRunner } from './workers/standards-runner.ts';

/** HTTP methods a route may declare. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler receives: parsed, validated input and the caller, with no web framework in sight. */
export interface RouteRequest<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
  /** The authenticated caller, when the route has a policy or the request carried valid credentials. */
  principal?: Principal;
  /** Unique id of this request (also in the service log), for audit records. */
  requestId: string;
  /** Network address the request came from. */
  sourceAddress: string;
}

/** A raw (non-envelope) answer, for files such as CSV exports or HTML reports. */
export interface RawResponse {
  raw: true;
  status?: number;
  contentType: string;
  /** The content; a stream is sent as it is produced (large exports stay out of memory). */
  body: string | Buffer | Readable;
  /** Extra headers; an array value sends the header several times (e.g. Set-Cookie). */
  headers?: Record<string, string | string[]>;
}

/** Declaration of one route: schemas feed both validation and the OpenAPI document of the base. */
export interface RouteDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  url: string;
  summary: string;
  description?: string;
  tags?: string[];
  /**
   * Lowest licence tier allowed; below it the answer is 402 TIER_REQUIRED. Default: the `tier` of the plugin's
   * manifest.
   */
  tier?: Tier;
  /** Authorization policy; `MonitorAdmin` needs a Bearer API key or JWT carrying that role. */
  policy?: 'MonitorAdmin';
  /** When true the principal is resolved if credentials are sent, but none are required. */
  optionalAuth?: boolean;
  /**
   * Open to anonymous local callers, but a caller who sends credentials must hold this role or a higher one
   * (MonitorAdmin > MonitorOperator > MonitorViewer): 401 for a bad credential, 403 for too low a role.
   */
  minimumRole?: MonitorRole;
  /**
   * The route's work grows with its body (validate, diff): a request whose body is over `work.inlineBelowBytes`
   * waits for a slot of the kernel's heavy-request gate before its body is read; when too many wait, 503
   * SERVER_BUSY with Retry-After.
   */
  heavy?: boolean;
  /**
   * Served ahead of other requests: under load, requests take turns of the event loop (the kernel's RequestTurns),
   * and an urgent route never waits for one. For cheap probes that must answer at once (health, readiness).
   */
  urgent?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Bodies other than JSON the route reads as text (an HL7 message sent as `text/plain`, a FHIR resource as
   * `application/fhir+json`), and how such a text becomes the body the `body` schema checks; the other parameters
   * then travel in the query string (`query`). Any other content type gets 415 naming the accepted ones.
   */
  rawBody?: {
    contentTypes: readonly string[];
    /** Builds the body from the message (text, or a JSON object that {@link isMessage} recognised). */
    toBody(message: string | Record<string, unknown>, query: z.output<Q>): unknown;
    /**
     * True when a JSON body is the message itself rather than the route's JSON form (a FHIR resource posted as
     * application/json); it is then given to {@link toBody} with the other parameters from the query string.
     */
    isMessage?(body: object): boolean;
  };
  /** Examples for the OpenAPI document; the docs page pre-fills "Try it out" with them. */
  examples?: RouteExamples;
  /**
   * Codes of the error catalogues the route may answer besides those every route may (400 VALIDATION_FAILED, 404
   * ROUTE_NOT_FOUND, 500); the OpenAPI document lists each under its status with its message. The kernel adds the
   * ones it raises itself (401/403 of a policy, 402 of a tier, 503 SERVER_BUSY of a heavy route, 404
   * FEATURE_DISABLED of a switchable one).
   */
  errors?: readonly string[];
  /** Statuses other than the success status answered with the `response` schema (health: 503 when unhealthy). */
  otherStatuses?: Readonly<Record<number, string>>;
  /** Schema of `data` (or of the whole body when `envelope` is false). */
  response: R;
  /** Status of a successful answer (default 200). */
  successStatus?: number;
  /** Wrap the answer in `{success, data, error}` (default true). */
  envelope?: boolean;
  /**
   * A list route: its handler returns a {@link PagedAnswer} and the envelope carries `page: {next, truncated, limit}`
   * beside `data` (kernel/paging.ts).
   */
  paged?: boolean;
  handler: (
    request: RouteRequest<z.output<P>, z.output<Q>, z.output<B>>,
  ) => Promise<z.input<R> | RawResponse | PagedAnswer<z.input<R>>> | z.input<R> | RawResponse | PagedAnswer<z.input<R>>;
}

/** Example values of a route, shown in its OpenAPI document. */
export interface RouteExamples {
  /** A JSON body. */
  body?: unknown;
  /** A raw body: one for every content type of `rawBody`, or one per content type (a type left out shows none). */
  rawBody?: string | Readonly<Record<string, string>>;
  /** Query parameters (name -> value). */
  query?: Record<string, string | number | boolean>;
  /** Path parameters (name -> value). */
  params?: Record<string, string | number>;
  /** The successful answer's `data` (or whole body without the envelope). */
  response?: unknown;
}

/** Registers routes on one base address. */
export interface RouteRegistrar {
  readonly base: BaseName;
  route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
    definition: RouteDefinition<P, Q, B, R>,
  ): void;
}

/** A CLI subcommand a plugin adds to `workbench`. */
export interface CliCommand {
  /** Command words, e.g. `validate` or `keys create`. */
  name: string;
  summary: string;
  usage: string;
  /**
   * False when the command never touches the database: it then runs without opening it (and without loading the
   * database layer), which keeps it fast. Default true.
   */
  usesStorage?: boolean;
  /** Plugins the command loads beside its own when they are enabled (a plugin's manifest declares them). */
  loads?: string[];
  /** Runs the command; returns the process exit code. Output goes through `io`. */
  run(args: string[], io: CliIo): Promise<number>;
}

/**
 * What a plugin registers for a command its manifest declares (`commands` in plugin.json): the manifest gives the
 * usage, summary and whether it uses storage; the plugin gives what it does.
 */
export type PluginCommand = Pick<CliCommand, 'name' | 'run'>;

/** Output streams of a CLI command (so tests can capture them). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Storage as a plugin sees it: the shared Kysely instance and its own migrations. */
export interface PluginStorage {
  /** The shared Kysely instance. Tables a plugin creates are prefixed with its namespace by convention. */
  // each plugin types its own tables
  readonly db: Kysely<any>;
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The embedded SQLite database's own handle (better-sqlite3) for bulk writes with prepared statements, once the
   * database is open; undefined on PostgreSQL. It is the connection Kysely uses: use it only inside
   * `db.connection().execute(...)`, which holds that connection so no other query runs in between.
   */
  readonly sqlite?: import('better-sqlite3').Database;
  /**
   * Kysely's `sql` template tag, available once the database is open (always in the server). Take it from here
   * rather than importing kysely values at module scope: a command that never opens the database then never loads the
   * database layer.
   */
  readonly sql: typeof import('kysely').sql;
  /** Runs the plugin's migrations (namespaced by plugin id, applied in name order). */
  migrate(migrations: Record<string, Migration>): Promise<void>;
  /** True when the database answers within the timeout (a recent answer may be reused; see Storage.ping). */
  ping(timeoutMs?: number): Promise<boolean>;
}

/** Start and stop hooks. Stop hooks run in reverse order of registration at shutdown. */
export interface Lifecycle {
  onStart(hook: () => Promise<void> | void): void;
  onStop(hook: () => Promise<void> | void): void;
}

/**
 * What a plugin sees inside a thread of the worker pool (manifest `"worker": true`): enough to build standard
 * adapters and the services they need, and nothing that belongs to the main thread (no routes, storage, events).
 */
export interface WorkerPluginContext<C = unknown> {
  readonly manifest: PluginManifest;
  /** The plugin's own validated config section. */
  readonly config: C;
  /** The thread's own DI container; plugins register services under exported tokens and resolve others' by token. */
  readonly container: DependencyContainer;
  readonly logger: Logger;
  /** The thread's registry: adapters registered here serve the pooled validate, diff and generate work. */
  readonly standards: StandardsRegistry;
  readonly clock: Clock;
  /** Profile packs discovered in `profiles/` (and any extra profile dirs of the config). */
  readonly profiles: readonly ProfilePack[];
  /** Directory of the plugin (for data files shipped with it). */
  readonly directory: string;
}

/** Everything the kernel hands a plugin. */
export interface PluginContext<C = unknown> extends WorkerPluginContext<C> {
  readonly storage: PluginStorage;
  readonly events: EventBus;
  /** Cron jobs, named per plugin; on a team's shared store each occurrence runs on one node. */
  readonly scheduler: JobScheduler;
  /**
   * Timers and background work of the plugin (named per plugin): every failure is logged and reported in health,
   * never thrown into the process. Use it for every `setTimeout`/`setInterval` whose callback does work.
   */
  readonly background: BackgroundJobs;
  /** Conditions that make the service degraded (health lists them); a plugin reports and clears its own. */
  readonly faults: ServiceFaults;
  /** Recognises a write refused for want of space (opening the `storage-full` condition) and builds its 507. */
  readonly disk: DiskWatch;
  /** This process as a node of the team sharing the store: its name, the live nodes, heartbeats. */
  readonly cluster: ClusterMembership;
  readonly entitlement: Entitlement;
  readonly auth: AuthService;
  readonly cache: Cache;
  /** Runs validate, diff and generate of a registered standard on the event loop or in the worker pool, by size. */
  readonly standardsRunner: StandardsRunner;
  /**
   * Routes on the manifest's base. A route without its own `tier` needs the manifest's `tier`. For a plugin whose
   * manifest declares base `none`, registering a route is a boot error naming the plugin and the route.
   */
  readonly routes: RouteRegistrar;
  /**
   * Routes on another base than the manifest's, for a plugin with pages on several bases (analytics' landing pages);
   * nothing else restricts it, so use `routes` unless a route belongs elsewhere.
   */
  routesOn(base: BaseName): RouteRegistrar;
  /**
   * The address a base listens on (`http://127.0.0.1:5101`), read when needed: a port chosen by the system is known
   * only once the service started. Undefined when nothing listens (a CLI command). For links between the bases' pages.
   */
  baseUrl(base: BaseName): string | undefined;
  /**
   * Switches route groups off by feature flag: the plugin that stores flags supplies them here (see
   * {@link FeatureSwitches}); every other plugin's routes are switched by the flag named in its manifest.
   */
  readonly featureSwitches: FeatureSwitches;
  /** Adds an observer told of every answered request on every base (route pattern, status, duration). */
  observeRequests(observer: RequestObserver): void;
  readonly lifecycle: Lifecycle;
  /** Declares the plugin's error catalogue (listed in docs/reference/error-codes.md). */
  registerErrors(catalogue: ErrorCatalogue): void;
  /**
   * Supplies a `workbench` CLI subcommand the manifest declares in `commands`; a command the manifest does not
   * declare, or one declared and never supplied, is a boot error.
   */
  registerCommand(command: PluginCommand): void;
  /** The service's data directory. */
  readonly dataDir: string;
  /** The product version (package.json), as the health report and the OpenAPI documents show it. */
  readonly version: string;
}

/** What a plugin's entry module exports. */
export interface PluginModule<C = unknown> {
  /** Schema of the plugin's config section (`plugins.<id>` in the config file). */
  configSchema?: z.ZodType<C>;
  register(context: PluginContext<C>): Promise<void> | void;
  /**
   * Runs in each thread of the worker pool when the manifest says `"worker": true`: registers what pooled work
   * needs there (typically the same standard adapter `register` puts in the main registry).
   */
  registerWorker?(context: WorkerPluginContext<C>): Promise<void> | void;
}
