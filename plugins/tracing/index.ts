/**
 * The tracing plugin (monitor base, professional tier): traces of a patient, account or control id across
 * interfaces, gaps (expected sequences, MSH-13, duplicate control ids), latency between interfaces, and expected
 * sequences from config and the API. It reads stored messages only through the monitor's query contract and raises
 * gap alerts through the monitor's alert-rule extension point.
 */
import { z } from 'zod';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../monitor/api.ts';
import { SequenceSyntaxError, formatSequence, parseSequence } from './sequence-syntax.ts';
import { SequenceStore, tracingMigrations } from './sequence-store.ts';
import { tracingErrors } from './tracing-errors.ts';
import { registerTracingRoutes } from './tracing-routes.ts';
import { TracingService, type DefinedSequence } from './tracing-service.ts';
import { DEFAULT_MATCH_WINDOW_MS } from './latency-pairing.ts';
import { createGapAlertRule } from './gap-alert-rule.ts';
import { FeedIndex } from './feed-index.ts';
import { feedControlIdMigration, feedMigration } from './feed-tables.ts';
import { feedProjection } from './feed-projection.ts';
import { SequenceInterfaceCheck } from './sequence-interfaces.ts';

const configSchema = z
  .object({
    /** Expected sequences of the config file (listed beside those defined through the API; not removable there). */
    sequences: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/),
            sequence: z.string().min(1).max(1000),
            /** Raise an alert on the interfaces concerned when a gap of this sequence is found. */
            alert: z.boolean().default(false),
          })
          .strict(),
      )
      .max(100)
      .default([]),
    /** Most messages one gaps, latency or observed-sequences read goes through (answers say truncated beyond). */
    maxScanMessages: z.number().int().min(1_000).max(5_000_000).default(200_000),
    /** Window of the observed sequences of GET /api/monitor/sequences, in hours before now. */
    observedWindowHours: z.number().int().min(1).max(24 * 31).default(24),
    /** Most observed sequences listed. */
    observedTop: z.number().int().min(1).max(100).default(10),
    /** Most messages the observed sequences read: the first of the window (the listing stays quick on a busy store). */
    observedMaxMessages: z.number().int().min(100).max(1_000_000).default(20_000),
    /** Window the gap alert rule judges, in minutes before now. */
    alertWindowMinutes: z.number().int().min(1).max(24 * 60).default(60),
    /** Most messages the gap alert rule reads of its window (one read serves every interface). */
    alertMaxMessages: z.number().int().min(100).max(1_000_000).default(50_000),
    /** Window of the latency's fallback pairing by patient, type and MSH-7, in ms. */
    matchWindowMs: z.number().int().min(0).max(86_400_000).default(DEFAULT_MATCH_WINDOW_MS),
  })
  .strict()
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.sequences.forEach((entry, index) => {
      if (names.has(entry.name)) ctx.addIssue({ code: 'custom', path: ['sequences', index, 'name'], message: `name "${entry.name}" is used twice` });
      names.add(entry.name);
      try {
        parseSequence(entry.sequence);
      } catch (error) {
        if (!(error instanceof SequenceSyntaxError)) throw error;
        ctx.addIssue({ code: 'custom', path: ['sequences', index, 'sequence'], message: error.message });
      }
    });
  });

type TracingConfig = z.infer<typeof configSchema>;

/** Registers the tracing routes, its table and the gap alert rule. */
export const plugin: PluginModule<TracingConfig> = {
  configSchema,
  async register(context) {
    context.registerErrors(tracingErrors.catalogue);
    await context.storage.migrate({
      ...tracingMigrations,
      '002_feed': feedMigration(context.storage.dialect),
      '003_feed_control_id': feedControlIdMigration(),
    });
    const monitor = resolveService(context.container, MONITOR_SERVICE);
    const store = new SequenceStore(context.storage.db);
    const configSequences: DefinedSequence[] = context.config.sequences.map((entry) => ({
      name: entry.name,
      sequence: formatSequence(parseSequence(entry.sequence)),
      alert: entry.alert,
      source: 'config',
      createdAt: null,
    }));
    const { sequences: _sequences, ...limits } = context.config;
    // the monitor keeps the feed up to date from every commit (a burst shares one catch-up) and before each read
    const feed = new FeedIndex(context.storage.db, context.storage.sqlite, monitor.registerProjection(feedProjection()));
    const service = new TracingService(monitor, feed, store, configSequences, limits, () => context.clock.nowMs());
    // A defined sequence whose step names no interface is a health condition (not a refusal to start: interfaces
    // are created through the API, often after the config names them); judged at start and whenever it may change.
    const sequenceCheck = new SequenceInterfaceCheck({
      sequences: () => service.definedSequences(),
      interfaces: () => monitor.listInterfaces(),
      faults: context.faults,
      warn: (problems) => {
        if (problems.length > 0) context.logger.warn({ problems }, `expected sequences name unknown interfaces: ${problems.join('; ')}`);
        else context.logger.info('every interface the expected sequences name exists');
      },
    });
    const recheckSequences = (deleting?: string) => context.background.run('sequence-interfaces', () => sequenceCheck.check(deleting));
    context.lifecycle.onStart(() => recheckSequences());
    registerTracingRoutes(context.routes, {
      service,
      monitor,
      clock: context.clock,
      configNames: new Set(configSequences.map((s) => s.name)),
      sequencesChanged: () => void recheckSequences(),
    });
    monitor.registerAlertRule(createGapAlertRule(service));
    // Event names of a trace come from the interface list, read once and forgotten when it changes.
    context.events.on('monitor.interface.changed', () => {
      service.forgetInterfaces();
      void recheckSequences();
    });
    context.events.on('monitor.interface.deleted', (event) => {
      service.forgetInterfaces();
      void recheckSequences(event.interfaceId);
    });
    // The feed drops a deleted interface's rows.
    context.events.on('monitor.interface.deleted', (event) => feed.forgetInterface(event.interfaceId));
  },
};
