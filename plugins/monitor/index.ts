/**
 * The monitor plugin (monitor base, professional tier): monitored interfaces, the ledger of every file read, the
 * stored and validated messages, metrics, alerts, status and reports. Other plugins read through
 * {@link MONITOR_SERVICE} (`api.ts`).
 */
import type { Kysely } from 'kysely';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { provideService } from '../../kernel/service-ref.ts';
import { AlertEpisodes } from './alerts/alert-episodes.ts';
import { registerAlertRoutes } from './alerts/alert-routes.ts';
import { AlertRuleRegistry } from './alerts/alert-rule-registry.ts';
import { AlertRuleEngine, RULES } from './alerts/alert-rules.ts';
import { MONITOR_SERVICE } from './api.ts';
import { monitorErrors } from './errors.ts';
import { emitIngested } from './ingest/ingest-events.ts';
import { IngestQueue } from './ingest/ingest-queue.ts';
import { registerInterfaceRoutes } from './interfaces/interface-routes.ts';
import { readableStandards } from './interfaces/interface-standard.ts';
import { InterfaceStore } from './interfaces/interface-store.ts';
import { MessageQueries } from './messages/message-query.ts';
import { MessageStore } from './messages/message-store.ts';
import { monitorConfigSchema, type MonitorConfig } from './monitor-config.ts';
import { MonitorServiceImpl } from './monitor-service.ts';
import { monitorMigrations, type MonitorDatabase } from './monitor-tables.ts';
import { pruneRawContent } from './messages/raw-retention.ts';
import { ReportBuilder } from './reports/report-builder.ts';
import { registerReportRoutes } from './reports/report-routes.ts';
import { pruneRollups } from './ingest/rollup-writer.ts';
import { RollupReader } from './rollups/rollup-reader.ts';
import { SharedAnswers } from './reports/shared-answers.ts';
import { WatchManager } from './ingest/watch-manager.ts';
import { fileNameRule } from './alerts/file-name-rule.ts';
import { skippedFilesRule } from './alerts/skipped-files-rule.ts';
import { directoryProblem } from './interfaces/interface-input.ts';
import { InterfaceOwnership } from './team/interface-ownership.ts';
import { registerNodeRoutes } from './team/node-routes.ts';
import { registerActivityRoutes } from './ingest/activity-routes.ts';
import { registerMessageRoutes } from './messages/message-routes.ts';
import { MessageViews } from './messages/message-view.ts';
import { createMessageCommands } from './messages/messages-cli.ts';
import { rawViewRecorder } from './messages/raw-view-audit.ts';
import { OwnershipRounds } from './team/ownership-rounds.ts';
import { teamWatchFacts } from './interfaces/watch-facts.ts';
import { ProjectionRunner } from './projections/projection-runner.ts';

/**
 * Runs pooled work, waiting and trying again while the pool's queue is full (it is bounded) rather than failing a
 * good file: a minute at most.
 */
async function whilePoolBusy<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SERVER_BUSY' || attempt >= 600) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The plugin module the kernel loads. */
export const plugin: PluginModule<MonitorConfig> = {
  configSchema: monitorConfigSchema,
  async register(context) {
    const { config, clock, events, logger } = context;
    context.registerErrors(monitorErrors.catalogue);
    await context.storage.migrate(monitorMigrations(context.storage.dialect));
    const db = context.storage.db as Kysely<MonitorDatabase>;
    const interfaces = new InterfaceStore(db);
    const messages = new MessageStore(db);
    const alerts = new AlertEpisodes(db, events, clock);
    const registeredRules = new AlertRuleRegistry(alerts, clock, logger, new Set(Object.values(RULES)));
    const rules = new AlertRuleEngine(db, alerts, config.alertRules, clock, registeredRules);

    const queue = new IngestQueue({
      db,
      commitStore: { db, dialect: context.storage.dialect, sqlite: context.storage.sqlite },
      clock,
      logger,
      readers: {
        // read on use: the standard plugins register their adapters while the plugins load
        adapters: () => context.standards.list(),
        validateHere: (rawLength) => !context.standardsRunner.isPooled(rawLength),
        validate: (adapter, content, options) => whilePoolBusy(() => context.standardsRunner.validate(adapter, content, options)),
        read: (adapter, content, options) => whilePoolBusy(() => context.standardsRunner.read(adapter, content, options)),
        // a busy pool is not waited for: the queue reads those files itself
        readFiles: (files, options) => context.standardsRunner.readFiles(files, options),
      },
      maxFileBytes: config.maxFileBytes,
      batchFiles: config.commitBatchFiles,
      settleMs: config.settleMs,
      openTailGraceMs: config.openTailGraceMs ?? 10 * config.settleMs,
      keepRaw: config.keepRawContent,
      latencyLimits: { horizonMs: config.latencyHorizonMs, skewMs: config.clockSkewMs },
      // files wait on a full disk (tried again later); health says why
      onCommitFailed: (error) => void context.disk.noticed(error),
      background: context.background,
    });
    // a team on one store: each interface is watched by one live node (interface-ownership.ts)
    const ownership: InterfaceOwnership = new InterfaceOwnership({
      db,
      cluster: context.cluster,
      logger,
      folderProblem: directoryProblem,
      watchProblem: (id) => watchManager.state(id)?.problem,
    });
    const watchManager: WatchManager = new WatchManager({
      owns: (id) => ownership.owns(id),
      db,
      clock,
      logger,
      queue,
      rules,
      settleMs: config.settleMs,
      pollingIntervalMs: config.pollingIntervalMs,
      checkIntervalMs: config.checkIntervalMs,
      rescanIntervalMs: config.rescanIntervalMs,
      background: context.background,
    });
    // Status, metrics and report answers are shared for a moment; anything they show that changes ends the sharing
    // (a commit first of all, before its listeners run).
    const shared = new SharedAnswers(clock, config.sharedAnswerMs, logger);
    const rounds = new OwnershipRounds({ ownership, interfaces, watchManager, logger, changed: () => shared.changed() });
    context.cluster.onHeartbeat(() => rounds.run());
    context.cluster.onLeaseLost(() => rounds.letGoOfAll());
    queue.afterCommit(() => shared.changed());
    for (const event of ['alert.raised', 'alert.escalated', 'alert.cleared', 'alert.acknowledged'] as const) events.on(event, () => shared.changed());
    // after each commit, in this order: alert rules of the files, `message.ingested`, traffic evaluation
    queue.afterCommit((files) => rules.filesCommitted(files));
    queue.afterCommit((files) => emitIngested(events, files));
    queue.afterCommit((files) => watchManager.evaluateCommitted(files));
    const rollups = new RollupReader(db, interfaces, clock);
    const queries = new MessageQueries(db, context.storage.dialect);
    const watchFacts = teamWatchFacts(ownership, watchManager);
    const reports = new ReportBuilder({
      db,
      clock,
      interfaces,
      alerts,
      rollups,
      messages: { queryMessages: (filter, options) => queries.query(filter, options) },
      watch: watchFacts,
    });
    registeredRules.register(fileNameRule((id) => watchManager.unreadableNames(id)));
    registeredRules.register(skippedFilesRule((id) => watchManager.skippedFiles(id)));
    // derived tables of other plugins, caught up after commits pause and before their reads
    const projections = new ProjectionRunner({
      db,
      store: { streamMessages: (filter, options) => queries.stream(filter, options) },
      background: context.background,
      oneAtATime: (name, work) => context.cluster.oneAtATime(name, work),
    });
    queue.afterCommit(() => projections.schedule());
    const service = new MonitorServiceImpl(interfaces, messages, queries, rollups, alerts, () => queue.size, reports, registeredRules, projections);
    registeredRules.bind(service);
    provideService(context.container, MONITOR_SERVICE, service);

    context.scheduler.schedule('raw-retention', '17 3 * * *', async () => {
      const removed = await pruneRawContent(db, clock.nowMs() - config.rawRetentionDays * 86_400_000);
      if (removed > 0) logger.info({ removed }, 'monitor removed raw message text past its retention');
    });
    context.scheduler.schedule('rollup-retention', '37 3 * * *', async () => {
      const removed = await pruneRollups(db, clock.nowMs(), config.rollupRetention);
      if (removed > 0) logger.info({ removed }, 'monitor removed roll-ups past their retention');
    });
    // the first round takes this node's interfaces and follows every other one
    context.lifecycle.onStart(() => watchManager.start([]).then(() => rounds.run()));
    context.lifecycle.onStart(() => projections.schedule());
    context.lifecycle.onStop(async () => {
      await watchManager.stop();
      await queue.stop();
      await projections.stop();
      // handed back at once: the other nodes take them at their next heartbeat rather than after the lease
      await ownership.releaseAll().catch((error: unknown) => logger.warn({ reason: (error as Error).message }, 'monitor could not hand its interfaces back'));
    });

    const routes = context.routes;
    registerInterfaceRoutes(routes, {
      interfaces,
      clock,
      readableStandards: () => readableStandards(context.standards.list()),
      placementOf: (id) => ownership.facts(id),
      changed: async (monitored, placement) => {
        if (placement !== undefined) await ownership.place(monitored.id, placement);
        await watchManager.apply(monitored);
        shared.changed();
        events.emit('monitor.interface.changed', { interfaceId: monitored.id, monitored });
      },
      removing: async (id) => {
        await watchManager.remove(id);
        // a batch already being committed for it lands before its rows are removed
        await queue.idle();
        await alerts.closeAll(id);
        await ownership.forget(id);
        shared.changed();
        events.emit('monitor.interface.deleted', { interfaceId: id });
      },
    });
    registerNodeRoutes(routes, { cluster: context.cluster, ownership });
    registerActivityRoutes(routes, { node: context.cluster.name, watchManager });
    const views = new MessageViews({
      db,
      store: service,
      interfaces,
      rawAccess: config.rawAccess,
      keepRawContent: config.keepRawContent,
      rawRetentionDays: config.rawRetentionDays,
      recordRawView: rawViewRecorder(context.container, logger),
    });
    registerMessageRoutes(routes, views);
    for (const command of createMessageCommands(views)) context.registerCommand(command);
    registerAlertRoutes(routes, { alerts, clock, interfaceExists: async (id) => (await interfaces.get(id)) !== undefined });
    registerReportRoutes(routes, { db, clock, interfaces, rollups, reports, watch: watchFacts, shared });
  },
};
