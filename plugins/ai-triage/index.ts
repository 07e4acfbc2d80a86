/**
 * The AI triage plugin: triage of one message (offline knowledge base, optional model), and patterns, summary and
 * upgrade check of a monitored interface read through the monitor's query contract. The upgrade detector also runs
 * as a monitor alert rule (`vendor-upgrade`) when `upgradeAlertRule` is on.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { DEIDENTIFY_SERVICE } from '../deidentify/api.ts';
import { MONITOR_SERVICE } from '../monitor/api.ts';
import { InterfaceAnalysis } from './interfaces/interface-analysis.ts';
import { loadKnowledgeBase } from './triage/knowledge-base.ts';
import { structureVocabulary } from './model/caller-needles.ts';
import { llmConfigProblem, ModelGateway, withNote } from './model/llm-client.ts';
import { SYSTEM_PROMPT } from './model/llm-prompt.ts';
import { triageWithModel } from './model/model-triage.ts';
import { type TriageConfig, triageConfigSchema } from './triage-config.ts';
import { TriageEngine, type TriageInput, type TriageResult } from './triage/triage-engine.ts';
import { registerTriageRoutes } from './triage-routes.ts';
import { createUpgradeAlertRule } from './interfaces/upgrade-alert-rule.ts';
import { triageMigrations } from './triage-tables.ts';
import { AggregateStore } from './aggregate/aggregate-store.ts';
import { triageProjection } from './aggregate/triage-projection.ts';
import { hl7TextFeatures } from './interfaces/upgrade-signals.ts';

/** Registers the routes, the error catalogue, the aggregate's tables and projection and, when configured, the upgrade alert rule. */
export const plugin: PluginModule<TriageConfig> = {
  configSchema: triageConfigSchema,
  async register(context) {
    await context.storage.migrate(triageMigrations);
    const { base, problems } = loadKnowledgeBase(
      join(context.directory, 'knowledge'),
      context.profiles.map((pack) => pack.directory),
    );
    for (const problem of problems) context.logger.warn({ file: problem.file }, `Triage knowledge file ${problem.file} was skipped: ${problem.problem}`);
    const engine = new TriageEngine(base, {
      detect: (content) => context.standards.detect(content),
      // Compatibility mode: its errors are what receivers reject; what only strict mode fails comes as warnings, ranked after.
      validate: (adapter, content) => context.standardsRunner.validate(adapter, content, { mode: 'compatibility', maxIssues: 1_000 }),
    });
    const deidentify = resolveService(context.container, DEIDENTIFY_SERVICE);
    const llm = context.config.llm;
    const llmProblem = llm.enabled ? llmConfigProblem(llm) : undefined;
    if (llmProblem) context.logger.error(`The triage model is off: ${llmProblem}.`);
    const gateway = new ModelGateway(llm, {
      findNeedles: (text, needles) => deidentify.findNeedles(text, needles),
      logger: context.logger,
      events: context.events,
      env: process.env,
    });
    const modelDeps = { gateway, deidentify, adapterOf: (id: string) => context.standards.get(id), vocabulary: structureVocabulary(base, SYSTEM_PROMPT) };
    const triage = async (input: TriageInput): Promise<TriageResult> => {
      const offline = await engine.triage(input);
      if (!llm.enabled) return offline;
      if (llmProblem) return withNote(offline, `The model is off: ${llmProblem}.`);
      return triageWithModel(offline, input, modelDeps);
    };
    // The monitor is resolved on use: its service is registered by then (manifest `requires`).
    const monitor = () => resolveService(context.container, MONITOR_SERVICE);
    const aggregate = new AggregateStore(context.storage.db, context.storage.sql);
    // the monitor folds every commit into the aggregate (a burst shares one catch-up) and catches it up before reads
    const follower = monitor().registerProjection(
      triageProjection(aggregate, hl7TextFeatures((path, version) => context.standards.get('hl7')?.describe(path, version ? { version } : {}))),
    );
    context.events.on('monitor.interface.deleted', async ({ interfaceId }) => {
      await follower.catchUp();
      await follower.exclusive(() => aggregate.forget(interfaceId));
    });
    context.scheduler.schedule('triage-aggregate-retention', '47 3 * * *', async () => {
      const cutoff = new Date(context.clock.nowMs() - context.config.aggregateRetentionDays * 86_400_000).toISOString();
      const removed = await follower.exclusive(() => aggregate.prune(cutoff));
      if (removed > 0) context.logger.info({ removed }, 'triage removed aggregate rows past their retention');
    });
    const analysis = new InterfaceAnalysis(monitor, base, () => context.clock.nowMs(), aggregate, follower);
    registerTriageRoutes(context.routes, { entitlement: context.entitlement, triage, analysis });
    // also on the monitor base, where the message view asks for triage's explanation (a page calls its own base only)
    registerTriageRoutes(context.routesOn('monitor'), { entitlement: context.entitlement, triage, analysis });
    if (context.config.upgradeAlertRule) {
      monitor().registerAlertRule(createUpgradeAlertRule(analysis, context.config.upgradeAlertHours, context.config.upgradeAlertReuseSeconds));
    }
  },
};
