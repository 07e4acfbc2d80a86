/**
 * Boots the Workbench: config -> container -> storage -> plugins -> servers. The same object serves the long-running
 * service (`start()`), the CLI (plugins registered, nothing listening) and the tests (ephemeral ports).
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type pino from 'pino';
import { projectRoot, type LoadedConfig } from './config-loader.ts';
import { readPluginSet, type PluginSetSources } from './plugin-host/plugin-set.ts';
import { createLogger } from './logger.ts';
import { TOKENS } from './tokens.ts';
import { provideService } from './service-ref.ts';
import { systemClock, type Clock } from './clock.ts';
import { Cache } from './cache.ts';
import { EventBus } from './events.ts';
import { Scheduler } from './background/scheduler.ts';
import { BackgroundGuard } from './background/background-guard.ts';
import { DiskWatch } from './store/disk-full.ts';
import { ServiceFaults } from './background/service-faults.ts';
import { Cluster } from './cluster/cluster.ts';
import { StoredJobClaims } from './cluster/job-claims.ts';
import { nodeNameOf } from './cluster/node-name.ts';
import type { ProcessLock } from './cluster/sqlite-process-lock.ts';
import type { ClusterDatabase } from './cluster/cluster-tables.ts';
import { StandardsRegistry } from './standards-registry.ts';
import { Entitlement } from './entitlement.ts';
import { ErrorRegistry } from './errors.ts';
import type { Storage } from './storage.ts';
import { createDeferredStorage } from './store/deferred-storage.ts';
import { kernelMigrations } from './auth/kernel-migrations.ts';
import { ApiKeyStore } from './auth/api-keys.ts';
import { RoleAssignmentStore } from './auth/role-assignments.ts';
import { AuthService } from './auth/auth-service.ts';
import { createConfiguredJwtVerifier } from './auth/jwt-verifier.ts';
import { BASES, type BaseName, type DisabledPlugin, type DiscoveredPlugin } from './plugin-host/plugin-manifest.ts';
import { loadPluginModules, type LoadedPlugin } from './plugin-host/plugin-loader.ts';
import { discoverProfilePacks, type ProfilePack } from './standards/profile-packs.ts';
import type { BaseServer } from './http/base-server.ts';
import { createOfflineRegistrar, createRefusingRegistrar, createRouteRegistrar } from './http/route-registrar.ts';
import { LifecycleHooks } from './lifecycle.ts';
import { RequestObservers } from './http/request-observers.ts';
import { HeavyRequestGate } from './http/heavy-request-gate.ts';
import { RequestTurns } from './http/request-turns.ts';
import { StandardsRunner } from './workers/standards-runner.ts';
import { WorkPool, poolSize } from './workers/work-pool.ts';
import { memoryCeilingMb } from './workers/memory-ceiling.ts';
import type { CliCommand, PluginContext } from './plugin-api.ts';
import { secureDataFolder } from './data-dir.ts';
import { FeatureSwitches } from './feature-switches.ts';

/** The product version (from package.json). */
export const WORKBENCH_VERSION: string = (
  JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;

/** Options of {@link createWorkbench}. */
export interface WorkbenchOptions extends PluginSetSources {
  /**
   * Load only these plugins and what they require (one-shot CLI commands); the others are neither imported nor
   * registered, and their config sections are not checked. Default: every enabled plugin.
   */
  onlyPlugins?: ReadonlySet<string>;
  clock?: Clock;
  /** Log destination (tests capture it). */
  logDestination?: pino.DestinationStream;
  /**
   * Check every route's answer against its response schema (a mismatch is a 500) and every route's examples against
   * its schemas at boot (a mismatch is a boot error). Tests turn this on.
   */
  checkResponses?: boolean;
  /** The module worker threads load; default the service's own. Tests point it at a module that does not load. */
  poolWorkerEntry?: { filename: string; sourceEntry?: string };
  /**
   * Build the HTTP servers (default true). One-shot CLI commands boot without them: routes are accepted and not
   * served, and the web framework is never loaded, so the command starts fast.
   */
  serve?: boolean;
}

/** A booted Workbench. */
export interface Workbench {
  readonly config: LoadedConfig;
  readonly container: DependencyContainer;
  readonly logger: Logger;
  readonly storage: Storage;
  readonly plugins: readonly LoadedPlugin[];
  readonly disabledPlugins: readonly DisabledPlugin[];
  readonly profilePacks: readonly ProfilePack[];
  /** The base servers; empty when booted with `serve: false`. */
  readonly servers: Readonly<Record<BaseName, BaseServer>>;
  readonly commands: ReadonlyMap<string, CliCommand>;
  readonly errors: ErrorRegistry;
  /** This process as a node of the team sharing the store (the only node on SQLite). */
  readonly cluster: Cluster;
  /** Opens the database when it was deferred (booted with `serve: false`); a no-op otherwise. */
  openStorage(): Promise<void>;
  /** Listens on the three bases and runs start hooks; resolves with the base URLs. */
  start(): Promise<Record<BaseName, string>>;
  /** Stops everything in order (servers, hooks, jobs, events, database); safe to call twice. */
  stop(): Promise<void>;
}

/** The plugins of `ids` and everything they require, in load order. */
function withRequirements(ordered: DiscoveredPlugin[], ids: ReadonlySet<string>): DiscoveredPlugin[] {
  const byId = new Map(ordered.map((plugin) => [plugin.manifest.id, plugin]));
  const wanted = new Set<string>();
  const add = (id: string): void => {
    const plugin = byId.get(id);
    if (!plugin || wanted.has(id)) return;
    wanted.add(id);
    for (const dependency of plugin.manifest.requires) add(dependency);
  };
  for (const id of ids) add(id);
  return ordered.filter((plugin) => wanted.has(plugin.manifest.id));
}

/** Boots a Workbench; throws ConfigError / PluginSetError / a named plugin failure when it cannot. */
export async function createWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const { config, ordered, disabled, unknownSections } = await readPluginSet(options);
  const kernelConfig = config.kernel;
  const sections = kernelConfig.plugins;
  const logger = createLogger({ level: kernelConfig.logging.level, destination: options.logDestination });
  const clock = options.clock ?? systemClock;

  const loaded = await loadPluginModules(options.onlyPlugins ? withRequirements(ordered, options.onlyPlugins) : ordered, sections);
  for (const id of unknownSections) logger.warn(`config section plugins.${id} names no installed plugin`);
  for (const off of disabled) logger.info(`plugin ${off.id} is off: ${off.reason}`);

  const container = rootContainer.createChildContainer();
  const cache = new Cache(clock);
  const events = new EventBus(logger);
  // What makes the service degraded (a full disk, a failing background job), and the guard background work runs under.
  const faults = new ServiceFaults();
  const disk = new DiskWatch(
    faults,
    config.dataDir,
    kernelConfig.storage.url ? 'the PostgreSQL server' : `the data folder ${config.dataDir}`,
    logger,
  );
  const background = new BackgroundGuard(logger, faults, disk);
  const scheduler = new Scheduler(logger, background);
  const standards = new StandardsRegistry();
  const entitlement = new Entitlement(kernelConfig.tier);
  const errors = new ErrorRegistry();
  const lifecycle = new LifecycleHooks(logger);
  const featureSwitches = new FeatureSwitches();
  const work = kernelConfig.work;
  const standardsRunner = new StandardsRunner(work.inlineBelowBytes, work.readInPoolFromBytes);
  const gate = new HeavyRequestGate(poolSize(work.threads), work.maxQueued, work.inlineBelowBytes);
  // one event loop serves the three bases: their requests take turns of it together
  const turns = new RequestTurns();
  let pool: WorkPool | undefined;

  const serve = options.serve !== false;
  const openStorage = async (): Promise<Storage> => {
    const security = secureDataFolder(config.dataDir);
    if (security === 'tightened') logger.warn(`data folder ${config.dataDir} was readable by others; its mode is now 0700`);
    else if (typeof security === 'object') logger.warn(`data folder ${config.dataDir} is readable by others: ${security.unchanged}`);
    // The database layer loads with the first storage, so a command that never opens one never loads it.
    const { createStorage } = await import('./storage.ts');
    return createStorage({
      url: kernelConfig.storage.url,
      dataDir: config.dataDir,
      sqliteFile: kernelConfig.storage.sqliteFile,
      onConnectionLost: (error) => logger.warn({ reason: error.message }, 'a connection to the PostgreSQL store was lost'),
      checkpointInThread: serve,
      // a checkpoint refused for want of space is the full disk's condition (health says so), not only a log line
      onCheckpointFailed: (reason) => {
        if (!disk.noticed({ message: reason })) logger.warn({ reason }, 'a checkpoint of the SQLite store failed; it is tried again');
      },
    });
  };
  // A server opens its database at boot; a one-shot command only when it uses one (see CliCommand.usesStorage).
  const deferred = serve ? undefined : createDeferredStorage(kernelConfig.storage.url ? 'postgres' : 'sqlite', openStorage);
  const storage: Storage = deferred ?? (await openStorage());
  const servers = {} as Record<BaseName, BaseServer>;
  // a one-shot command is no node (it never registers): its name is not looked up, so it leaves the data folder alone
  const nodeName = serve ? nodeNameOf(kernelConfig.node.name, config.dataDir) : (kernelConfig.node.name ?? 'command');
  const cluster = new Cluster(storage, { name: nodeName, leaseMs: kernelConfig.node.leaseMs, version: WORKBENCH_VERSION }, logger, background.forOwner('kernel'));
  let processLock: ProcessLock | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    // New requests are refused and running work is terminated first (a validation never holds shutdown), then
    // plugins release watchers and jobs, then the database closes.
    standardsRunner.usePool(undefined);
    await Promise.allSettled([...Object.values(servers).map((server) => server.close()), pool?.close()]);
    await lifecycle.runStop(2_000);
    await scheduler.stopAll();
    await events.drain();
    await storage.close();
    processLock?.release();
  };

  try {
    await storage.migrate('kernel', kernelMigrations);
    // On a shared store every occurrence of a scheduled job runs on one node (see scheduler.ts).
    if (serve && storage.dialect === 'postgres') {
      scheduler.coordinate(new StoredJobClaims(storage.db as Kysely<ClusterDatabase>, cluster.name, () => cluster.storeNowMs()));
    }
    // The node registers first and leaves last: plugins' start hooks find it registered, and its row goes only
    // after they let go of their work.
    if (serve) {
      lifecycle.onStart(() => cluster.start());
      lifecycle.onStop(() => cluster.stop());
    }
    const apiKeys = new ApiKeyStore(storage.db, clock, (change) => events.emit('auth.api-key-changed', change));
    const roles = new RoleAssignmentStore(storage.db, clock);
    const auth = new AuthService(apiKeys, roles, kernelConfig.auth.jwt.rolesClaim);
    if (kernelConfig.auth.jwt.hs256Secret || kernelConfig.auth.jwt.jwksUrl) {
      auth.addTokenVerifier(createConfiguredJwtVerifier(kernelConfig.auth.jwt, clock));
    }

    provideService(container, TOKENS.Config, config);
    provideService(container, TOKENS.Logger, logger);
    provideService(container, TOKENS.Storage, storage);
    provideService(container, TOKENS.Events, events);
    provideService(container, TOKENS.Scheduler, scheduler);
    provideService(container, TOKENS.Standards, standards);
    provideService(container, TOKENS.Entitlement, entitlement);
    provideService(container, TOKENS.Auth, auth);
    provideService(container, TOKENS.ApiKeys, apiKeys);
    provideService(container, TOKENS.Clock, clock);
    provideService(container, TOKENS.Cache, cache);
    provideService(container, TOKENS.Errors, errors);
    provideService(container, TOKENS.StandardsRunner, standardsRunner);

    const packRoots = [join(projectRoot, 'profiles'), ...kernelConfig.profileDirs.map((dir) => resolve(dir))];
    const { packs, problems: packProblems } = discoverProfilePacks(packRoots);
    for (const problem of packProblems) logger.warn(`profile pack ${problem.directory} skipped: ${problem.problem}`);

    // Loaded only when serving: the web framework and the OpenAPI generator are most of a one-shot command's start.
    const { createBaseServer } = serve ? await import('./http/base-server.ts') : { createBaseServer: undefined };
    for (const base of createBaseServer ? BASES : []) {
      const settings = kernelConfig.servers[base];
      servers[base] = createBaseServer!({
        name: base,
        host: settings.host,
        port: settings.port,
        bodyLimit: kernelConfig.http.bodyLimitBytes,
        allowedOrigins: kernelConfig.http.allowedOrigins,
        logger,
        version: WORKBENCH_VERSION,
        otherBases: () => BASES.filter((name) => name !== base).map((name) => ({ base: name, url: servers[name].url() })),
        lookupError: (code) => errors.list().find((row) => row.code === code),
        disk,
        locateRoute: (method, path) => {
          const other = BASES.find((name) => name !== base && servers[name].openapi.serves(method, path));
          return other ? { base: other, url: `${servers[other].url()}${path}` } : undefined;
        },
      });
    }

    const requestObservers = new RequestObservers(() =>
      serve ? BASES.map((base) => ({ base, app: servers[base].app })) : [],
    );
    const commands = new Map<string, CliCommand>();
    for (const plugin of loaded) {
      const { id, base } = plugin.manifest;
      const registrarFor = (target: BaseName) =>
        !serve
          ? createOfflineRegistrar(target)
          : createRouteRegistrar({
              app: servers[target].app,
              base: target,
              entitlement,
              auth,
              openapi: servers[target].openapi,
              owner: id,
              defaultTier: plugin.manifest.tier,
              checkResponses: options.checkResponses ?? false,
              events,
              gate,
              turns,
              featureFlag: plugin.manifest.featureFlag === undefined ? id : plugin.manifest.featureFlag,
              switches: featureSwitches,
            });
      const context: PluginContext = {
        manifest: plugin.manifest,
        config: plugin.config,
        container,
        logger: logger.child({ plugin: id }),
        storage: {
          db: storage.db,
          dialect: storage.dialect,
          get sqlite() {
            return storage.sqlite;
          },
          get sql() {
            return storage.sql;
          },
          // A plugin migrating its tables may query them next: that opens a deferred storage.
          migrate: (migrations) => (deferred ? deferred.migrateNow(id, migrations) : storage.migrate(id, migrations)),
          ping: (timeoutMs) => storage.ping(timeoutMs),
        },
        events,
        scheduler: scheduler.forPlugin(id),
        background: background.forOwner(id),
        faults,
        disk,
        cluster,
        standards,
        standardsRunner,
        entitlement,
        auth,
        clock,
        cache,
        profiles: packs,
        routes: base === 'none' ? createRefusingRegistrar(id) : registrarFor(base),
        routesOn: registrarFor,
        baseUrl: (target) => (serve ? servers[target].url() : undefined),
        featureSwitches,
        observeRequests: (observer) => requestObservers.add(observer),
        lifecycle: lifecycle.forOwner(id),
        registerErrors: (catalogue) => errors.register(id, catalogue),
        registerCommand: (command) => {
          const declared = plugin.manifest.commands.find((c) => c.name === command.name);
          if (!declared) {
            throw new Error(`CLI command "${command.name}" is not declared in the "commands" of its plugin.json.`);
          }
          if (commands.has(command.name)) {
            throw new Error(`CLI command "${command.name}" is already registered.`);
          }
          commands.set(command.name, { ...declared, run: command.run });
        },
        directory: plugin.directory,
        dataDir: config.dataDir,
        version: WORKBENCH_VERSION,
      };
      try {
        await plugin.module.register(context);
      } catch (error) {
        throw new Error(`Plugin "${id}" failed to initialise: ${(error as Error).message}`, { cause: error });
      }
      const unsupplied = plugin.manifest.commands.filter((c) => !commands.has(c.name)).map((c) => c.name);
      if (unsupplied.length > 0) {
        throw new Error(`Plugin "${id}" failed to initialise: its plugin.json declares the command(s) ${unsupplied.join(', ')}, which it did not register.`);
      }
    }

    // A pack for a standard nobody registered would otherwise be ignored without a word.
    const registered = standards.list().map((adapter) => adapter.id);
    // (a partial boot, for one CLI command, leaves standards out on purpose)
    for (const pack of options.onlyPlugins ? [] : packs) {
      if (standards.get(pack.manifest.standard)) continue;
      logger.warn(
        `profile pack ${pack.manifest.id} (${pack.directory}) names standard "${pack.manifest.standard}", which no ` +
          `plugin registers (registered: ${registered.join(', ') || 'none'}); its profiles are not loaded`,
      );
    }

    return {
      config,
      container,
      logger,
      storage,
      plugins: loaded,
      disabledPlugins: disabled,
      profilePacks: packs,
      servers,
      commands,
      errors,
      cluster,
      openStorage: async () => {
        await deferred?.open();
      },
      async start() {
        const urls = {} as Record<BaseName, string>;
        if (!serve) throw new Error('This Workbench was booted without servers (serve: false); it cannot start.');
        try {
          if (storage.dialect === 'sqlite' && !processLock) {
            const { lockSqliteStore } = await import('./cluster/sqlite-process-lock.ts');
            processLock = lockSqliteStore(join(config.dataDir, kernelConfig.storage.sqliteFile));
          }
          const workerPlugins = loaded.filter((plugin) => plugin.manifest.worker);
          if (workerPlugins.length > 0 && !pool) {
            pool = new WorkPool({
              threads: work.threads,
              timeBudgetMs: work.timeBudgetMs,
              maxQueued: work.maxQueued,
              workerHeapMb: work.workerHeapMb,
              keepWarm: work.warmOnStart,
              idleTimeoutMs: work.idleTimeoutMs,
              boot: {
                plugins: workerPlugins.map(({ manifest, directory }) => ({ manifest, directory })),
                sections: kernelConfig.plugins,
                profiles: packs,
                logLevel: kernelConfig.logging.level,
              },
              logger,
              ...(options.poolWorkerEntry ? { entry: options.poolWorkerEntry } : {}),
              onWorkersFailing: (reason) => (reason ? faults.report('worker-pool', reason) : faults.clear('worker-pool')),
            });
            standardsRunner.usePool(pool);
            if (work.warmOnStart) pool.warm();
            const ceiling = memoryCeilingMb({
              threads: pool.size,
              workerHeapMb: work.workerHeapMb,
              bodyLimitBytes: kernelConfig.http.bodyLimitBytes,
            });
            logger.info(
              { threads: pool.size, timeBudgetMs: work.timeBudgetMs, memoryCeilingMb: ceiling },
              `heavy work runs in up to ${pool.size} worker thread(s), ${work.warmOnStart ? 'started now and kept' : 'started on first use and ended when idle'}; memory ceiling ${ceiling} MB`,
            );
          }
          for (const base of BASES) urls[base] = await servers[base].listen();
          await lifecycle.runStart();
        } catch (error) {
          await stop();
          throw error;
        }
        return urls;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
