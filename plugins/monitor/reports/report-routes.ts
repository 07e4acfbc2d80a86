/**
 * Routes of metrics, status and report (professional tier, like every monitoring route: the status and report
 * summarise the interfaces, which are a professional feature).
 */
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import type { RouteRegistrar } from '../../../kernel/plugin-api.ts';
import { interfaceMetricsSchema, interfaceNotFound, interfaceStatusSchema, monitorReportSchema, type MonitoredInterface } from '../api.ts';
import { interfaceMetrics, windowStartMs, type InterfaceMetrics } from '../interfaces/interface-metrics.ts';
import type { InterfaceStore } from '../interfaces/interface-store.ts';
import { idParams, sinceHours } from '../monitor-schemas.ts';
import { overallState, STATES, type InterfaceStatus } from './monitor-status.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import type { ReportBuilder, WatchFacts } from './report-builder.ts';
import { renderReportHtml } from './report-html.ts';
import { renderReportText } from './report-text.ts';
import type { RollupReader } from '../rollups/rollup-reader.ts';
import { MONITOR_EXAMPLES } from '../monitor-examples.ts';
import type { SharedAnswers } from './shared-answers.ts';

/** What the routes need. */
export interface ReportRouteDeps {
  db: Kysely<MonitorDatabase>;
  clock: Clock;
  interfaces: InterfaceStore;
  rollups: RollupReader;
  reports: ReportBuilder;
  watch: WatchFacts;
  /** Identical requests share one computation (and its answer for a moment). */
  shared: SharedAnswers;
}

/** Registers metrics, status and report. */
export function registerReportRoutes(routes: RouteRegistrar, deps: ReportRouteDeps): void {
  const { db, clock, interfaces, rollups, reports, watch, shared } = deps;

  // The window's start is part of each key: a request after the clock hour turned never gets the last hour's window.
  const metricsOf = (monitored: MonitoredInterface, hours: number): Promise<InterfaceMetrics> => {
    const nowMs = clock.nowMs();
    const startMs = windowStartMs(nowMs, hours);
    return shared.answer(`metrics|${monitored.id}|${hours}|${startMs}`, () =>
      interfaceMetrics(db, rollups, monitored.id, {
        startMs,
        untilMs: startMs + hours * 3_600_000,
        nowMs,
        watchingSinceMs: watch.watchingSinceMs(monitored.id),
      }),
    );
  };

  const statusOf = (monitored: MonitoredInterface): Promise<InterfaceStatus> => reports.status(monitored);

  routes.route({
    method: 'GET',
    url: '/api/monitor/interfaces/:id/metrics',
    examples: MONITOR_EXAMPLES.metrics,
    summary: 'Metrics of an interface over the last sinceHours clock hours (1..8760, default 24), both field sets, every hour present',
    tags: ['monitor'],
    tier: 'professional',
    params: idParams,
    query: z.object({ sinceHours }).strict(),
    errors: ['INTERFACE_NOT_FOUND'],
    response: interfaceMetricsSchema,
    async handler({ params, query }) {
      const monitored = await interfaces.get(params.id);
      if (!monitored) throw interfaceNotFound(params.id, 'id', 'params');
      return metricsOf(monitored, query.sinceHours);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/status',
    examples: MONITOR_EXAMPLES.status,
    summary: 'Overall monitoring state and each interface: healthy, degraded, down or idle with the reason',
    tags: ['monitor'],
    tier: 'professional',
    response: z.object({ state: z.enum(STATES), checkedAt: z.string(), interfaces: z.array(interfaceStatusSchema) }),
    handler: () =>
      shared.answer('status', async () => {
        const statuses: InterfaceStatus[] = [];
        for (const monitored of await interfaces.list()) statuses.push(await statusOf(monitored));
        return { state: overallState(statuses.map((s) => s.state)), checkedAt: clock.now().toISOString(), interfaces: statuses };
      }),
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/report',
    examples: MONITOR_EXAMPLES.report,
    summary: 'Report of a window: text (default), html (one self-contained page) or json',
    tags: ['monitor'],
    tier: 'professional',
    query: z.object({ format: z.enum(['text', 'html', 'json']).default('text'), sinceHours }).strict(),
    // The schema of format=json; text and html are the same report rendered as text/plain or text/html.
    response: monitorReportSchema,
    async handler({ query }) {
      const nowMs = clock.nowMs();
      const startMs = windowStartMs(nowMs, query.sinceHours);
      // one report of the window serves every format; each request renders its own
      const report = await shared.answer(`report|${query.sinceHours}|${startMs}`, async () => {
        // whole clock hours, the current one included (nothing is stored past now)
        const built = await reports.build({ since: new Date(startMs), until: new Date(startMs + query.sinceHours * 3_600_000) });
        built.sinceHours = query.sinceHours;
        return built;
      });
      if (query.format === 'json') return report;
      if (query.format === 'html') return { raw: true, contentType: 'text/html; charset=utf-8', body: renderReportHtml(report) };
      return { raw: true, contentType: 'text/plain; charset=utf-8', body: renderReportText(report) };
    },
  });
}
