/**
 * The analytics read routes on the monitor base: timeseries, topn, query, dashboards and the CSV export. Handlers
 * only parse, check the window and the interface, and call the engines or the monitor's contract.
 */
import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { Clock } from '../../kernel/clock.ts';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import { ALERT_SEVERITIES, interfaceNotFound, ROLLUP_DIMENSIONS, ROLLUP_METRICS } from '../monitor/api.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import { ANALYTICS_EXAMPLES } from './analytics-examples.ts';
import { dashboardSchema, queryResultSchema, timeseriesSchema, topNSchema } from './analytics-schemas.ts';
import type { DashboardEngine } from './dashboard-engine.ts';
import { alertMatches, filterInterfaceIds, messageFilterOf, queryFiltersSchema } from './query-filters.ts';
import { checkExportRows, ExportSlots, seriesCsv, seriesFileName } from './series-csv.ts';
import { checkPoints, checkWindowLength, GRANULARITIES, analyticsWindow, stepOf } from './time-window.ts';

/** What the read routes use. */
export interface AnalyticsRouteDeps {
  source: AnalyticsSource;
  dashboards: DashboardEngine;
  clock: Clock;
}

const interfaceIdInput = z.string().min(1).max(100);

const seriesQuery = z
  .object({
    interfaceId: interfaceIdInput.optional(),
    since: timestampInput.optional(),
    until: timestampInput.optional(),
    granularity: z.enum(GRANULARITIES).default('oneHour'),
    metric: z.enum(ROLLUP_METRICS).default('messagesTotal'),
  })
  .strict();

/** Registers timeseries, topn, query, dashboards and export/csv. */
export function registerAnalyticsRoutes(routes: RouteRegistrar, deps: AnalyticsRouteDeps): void {
  const { source, clock } = deps;
  const exportSlots = new ExportSlots();

  async function checkInterface(interfaceId: string | undefined): Promise<void> {
    if (interfaceId !== undefined && !(await source.interfaceExists(interfaceId))) {
      throw interfaceNotFound(interfaceId);
    }
  }

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/timeseries',
    errors: ['WINDOW_INVALID', 'ANALYTICS_TOO_MANY_POINTS', 'INTERFACE_NOT_FOUND'],
    summary: 'A metric of one interface (or all) over time: every UTC-aligned bucket of the window, zeros included',
    description:
      'Read from the monitor\'s roll-ups, never from stored messages. since/until default to the last 24 hours; at most 10,000 buckets.',
    tags: ['analytics'],
    query: seriesQuery,
    examples: ANALYTICS_EXAMPLES.timeseries,
    response: timeseriesSchema,
    async handler({ query }) {
      const window = analyticsWindow(clock.nowMs(), query.since, query.until);
      checkPoints(window, query.granularity);
      await checkInterface(query.interfaceId);
      const points = await source.series({
        ...(query.interfaceId ? { interfaceIds: [query.interfaceId] } : {}),
        ...window,
        step: stepOf(query.granularity),
        metric: query.metric,
      });
      return {
        interfaceId: query.interfaceId ?? null,
        metric: query.metric,
        granularity: query.granularity,
        since: window.since.toISOString(),
        until: window.until.toISOString(),
        // the answer carries what a chart and a reader need; the latency parts stay in the roll-ups
        points: points.map(({ start, value, messages, failed }) => ({ start, value, messages, failed })),
      };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/topn',
    errors: ['WINDOW_INVALID', 'INTERFACE_NOT_FOUND'],
    summary: 'The top interfaces, message types, error codes or sending facilities by a metric, each with its share',
    tags: ['analytics'],
    query: z
      .object({
        metric: z.enum(ROLLUP_METRICS).default('messagesTotal'),
        by: z.enum(ROLLUP_DIMENSIONS).default('interface'),
        n: z.coerce.number().int().min(1).max(100).default(10),
        since: timestampInput.optional(),
        until: timestampInput.optional(),
        interfaceId: interfaceIdInput.optional(),
      })
      .strict(),
    examples: ANALYTICS_EXAMPLES.topn,
    response: topNSchema,
    async handler({ query }) {
      const window = analyticsWindow(clock.nowMs(), query.since, query.until);
      await checkInterface(query.interfaceId);
      const rows = await source.topN({
        by: query.by,
        metric: query.metric,
        n: query.n,
        ...window,
        ...(query.interfaceId ? { interfaceIds: [query.interfaceId] } : {}),
      });
      return { by: query.by, metric: query.metric, n: query.n, since: window.since.toISOString(), until: window.until.toISOString(), rows };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/analytics/query',
    errors: ['WINDOW_INVALID', 'INTERFACE_NOT_FOUND', 'MESSAGE_CURSOR_INVALID'],
    summary: 'Messages (without raw text, a page at a time by cursor) and alerts matching filters, with totals',
    description: `Filters: interfaceId, severity (alerts), messageType, status (valid|invalid), errorCode, sendingFacility. Unknown keys are refused. Pass the answer's next as cursor for the following page.`,
    tags: ['analytics'],
    body: z
      .object({
        filters: queryFiltersSchema.default({}),
        since: timestampInput.optional(),
        until: timestampInput.optional(),
        limit: z.number().int().min(1).max(1000).default(100),
        cursor: z.string().min(1).max(200).optional(),
      })
      .strict(),
    examples: ANALYTICS_EXAMPLES.query,
    response: queryResultSchema,
    async handler({ body }) {
      const window = analyticsWindow(clock.nowMs(), body.since, body.until, 'body');
      for (const id of filterInterfaceIds(body.filters)) await checkInterface(id);
      const filter = messageFilterOf(body.filters, window);
      const [page, count, alerts] = await Promise.all([
        source.queryMessages(filter, { limit: body.limit, after: body.cursor ?? null }),
        source.countMessages(filter),
        source.listAlerts({ since: window.since, ...(body.filters.severity ? { severity: body.filters.severity } : {}) }),
      ]);
      const matches = alertMatches(body.filters);
      const matching = alerts.filter((alert) => matches(alert) && new Date(alert.triggeredAt) < window.until);
      const bySeverity = Object.fromEntries(ALERT_SEVERITIES.map((severity) => [severity, matching.filter((a) => a.severity === severity).length]));
      return {
        since: window.since.toISOString(),
        until: window.until.toISOString(),
        // the page carries no raw text: the default projection leaves it out
        messages: page.messages.map(({ raw: _raw, cursor: _cursor, ...facts }) => facts),
        next: page.next,
        totals: {
          messages: count,
          alerts: matching.length,
          alertsBySeverity: bySeverity,
          openAlerts: matching.filter((a) => a.acknowledgedAt === null && a.clearedAt === null).length,
        },
        // bounded like a page of messages; the totals count them all
        alerts: matching.slice(0, body.limit),
      };
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/dashboards/:template',
    errors: ['WINDOW_INVALID', 'ANALYTICS_TEMPLATE_NOT_FOUND', 'ANALYTICS_TEMPLATE_PARAMETER_MISSING', 'INTERFACE_NOT_FOUND'],
    summary: 'A dashboard filled from its template (overview, interface, errors; templates are data files)',
    tags: ['analytics'],
    params: z.object({ template: z.string().min(1).max(100) }).strict(),
    query: z
      .object({ since: timestampInput.optional(), until: timestampInput.optional(), interfaceId: interfaceIdInput.optional() })
      .strict(),
    examples: ANALYTICS_EXAMPLES.dashboard,
    response: dashboardSchema,
    async handler({ params, query }) {
      const window = analyticsWindow(clock.nowMs(), query.since, query.until);
      checkWindowLength(window);
      return deps.dashboards.fill(params.template, window, query.interfaceId ? { interfaceId: query.interfaceId } : {});
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/export/csv',
    errors: ['WINDOW_INVALID', 'ANALYTICS_TOO_MANY_POINTS', 'INTERFACE_NOT_FOUND', 'ANALYTICS_EXPORTS_BUSY'],
    summary: 'A time series as a CSV file (RFC 4180, header row, UTC, formula-safe), streamed from the roll-ups',
    tags: ['analytics'],
    query: seriesQuery,
    examples: ANALYTICS_EXAMPLES.csv,
    response: z.string(),
    async handler({ query }) {
      const window = analyticsWindow(clock.nowMs(), query.since, query.until);
      const request = { interfaceId: query.interfaceId ?? null, granularity: query.granularity, metric: query.metric, window };
      checkExportRows(request);
      await checkInterface(query.interfaceId);
      const release = exportSlots.take();
      return {
        raw: true,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'content-disposition': `attachment; filename="${seriesFileName(request)}"` },
        body: seriesCsv(source, request, release),
      };
    },
  });
}
