/**
 * Observability (`/api/admin/observability`, policy MonitorAdmin): the SLA aggregate of a workspace (the `{orgId}` is
 * the workspace id), its violations (breach ranges of its interfaces, newest first), and cost metrics.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.ts';
import type { PluginContext, RouteRegistrar } from '../../kernel/plugin-api.ts';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import type { MonitorService } from '../monitor/api.ts';
import { ADMIN_ROUTE } from './admin-route-defaults.ts';
import { measureCosts, type CostRates } from './cost-metrics.ts';
import type { SlaService, WindowedReport } from './sla-service.ts';
import type { SlaStore } from './sla-store.ts';
import { breachSchema, slaDefinitionSchema } from './sla-schemas.ts';
import { requireWorkspace } from './workspace-routes.ts';
import type { WorkspaceStore } from './workspace-store.ts';
import { DEFAULT_REPORT_DAYS } from './sla-routes.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

/** Most violations one answer lists (the count is complete). */
const MAX_VIOLATIONS = 1000;
const orgParams = z.object({ orgId: z.string().min(1).max(80) });

const interfaceSummary = z.object({
  interfaceId: z.string(),
  name: z.string().nullable(),
  sla: slaDefinitionSchema.nullable(),
  uptimePercent: z.number().nullable(),
  withinMaxResponsePercent: z.number().nullable(),
  errorRatePercent: z.number().nullable(),
  breachCount: z.number(),
  met: z.boolean().nullable(),
});

function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1_000_000) / 10_000 : null;
}

/** What the observability routes work with. */
export interface ObservabilityRouteDeps {
  /** The workspaces whose interfaces are reported. */
  workspaces: WorkspaceStore;
  /** The SLA definitions. */
  slas: SlaStore;
  /** The SLA reports of a window. */
  service: SlaService;
  /** The monitor's service contract (interfaces and their roll-ups). */
  monitor: MonitorService;
  /** The rates the cost estimate applies. */
  rates: CostRates;
  /** The store whose size the cost estimate measures. */
  storage: PluginContext['storage'];
  /** The data folder the cost estimate measures. */
  dataDir: string;
  /** The clock the cost estimate reads. */
  clock: Clock;
}

/** Registers the observability routes. */
export function registerObservabilityRoutes(routes: RouteRegistrar, deps: ObservabilityRouteDeps): void {
  const { workspaces, slas, service, monitor } = deps;

  /** The reports of a workspace's interfaces that have an SLA (others are listed without one). */
  const reportsOf = async (orgId: string, window: { from: Date; to: Date }) => {
    const workspace = await requireWorkspace(workspaces, orgId);
    const entries: Array<{ interfaceId: string; name: string | null; report: WindowedReport | undefined; sla: z.infer<typeof slaDefinitionSchema> | undefined }> = [];
    for (const interfaceId of workspace.interfaceIds) {
      const found = await monitor.getInterface(interfaceId);
      const stored = await slas.get(interfaceId);
      const sla = stored
        ? { interfaceId, uptimeTarget: stored.uptimeTarget, maxResponseMs: stored.maxResponseMs, alertThresholdPercent: stored.alertThresholdPercent }
        : undefined;
      entries.push({ interfaceId, name: found?.name ?? null, sla, report: sla && found ? await service.report(sla, window) : undefined });
    }
    return { workspace, entries };
  };

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/admin/observability/sla/:orgId',
    examples: ADMIN_EXAMPLES.workspaceSla,
    summary: 'SLA aggregate of a workspace (orgId = workspace id) over a window (default the last 30 days)',
    params: orgParams,
    query: z.object({ from: timestampInput.optional(), to: timestampInput.optional() }).strict(),
    response: z.object({
      orgId: z.string(),
      name: z.string(),
      from: z.string(),
      to: z.string(),
      summary: z.object({
        interfaces: z.number(),
        withSla: z.number(),
        met: z.number(),
        notMet: z.number(),
        uptimePercent: z.number().nullable(),
        withinMaxResponsePercent: z.number().nullable(),
        errorRatePercent: z.number().nullable(),
        messages: z.number(),
        breaches: z.number(),
      }),
      interfaces: z.array(interfaceSummary),
    }),
    async handler({ params, query }) {
      const window = service.window(query.from, query.to, DEFAULT_REPORT_DAYS);
      const { workspace, entries } = await reportsOf(params.orgId, window);
      const reports = entries.flatMap((e) => (e.report ? [e.report] : []));
      const sum = (pick: (r: WindowedReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
      return {
        orgId: workspace.id,
        name: workspace.name,
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        summary: {
          interfaces: entries.length,
          withSla: reports.length,
          met: reports.filter((r) => r.met === true).length,
          notMet: reports.filter((r) => r.met === false).length,
          // Minute-weighted over the interfaces with an SLA, so a long-watched interface counts for its minutes.
          // of observed minutes, as each report counts them (minutes the service was not running are apart)
          uptimePercent: percent(sum((r) => r.minutes.up), sum((r) => r.minutes.total - r.minutes.notObserved)),
          withinMaxResponsePercent: percent(sum((r) => r.messages.withinMaxResponse), sum((r) => r.messages.withLatency)),
          errorRatePercent: percent(sum((r) => r.messages.failed), sum((r) => r.messages.total)),
          messages: sum((r) => r.messages.total),
          breaches: sum((r) => r.breachCount),
        },
        interfaces: entries.map((e) => ({
          interfaceId: e.interfaceId,
          name: e.name,
          sla: e.sla ?? null,
          uptimePercent: e.report?.uptimePercent ?? null,
          withinMaxResponsePercent: e.report?.withinMaxResponsePercent ?? null,
          errorRatePercent: e.report?.errorRatePercent ?? null,
          breachCount: e.report?.breachCount ?? 0,
          met: e.report?.met ?? null,
        })),
      };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/admin/observability/sla/:orgId/violations',
    examples: ADMIN_EXAMPLES.workspaceViolations,
    summary: 'SLA breaches of a workspace since `from` (default 30 days before `to`, `to` default now), newest first',
    params: orgParams,
    query: z.object({ from: timestampInput.optional(), to: timestampInput.optional() }).strict(),
    response: z.object({
      orgId: z.string(),
      from: z.string(),
      to: z.string(),
      total: z.number(),
      violations: z.array(breachSchema.extend({ interfaceId: z.string(), name: z.string().nullable() })),
    }),
    async handler({ params, query }) {
      const window = service.window(query.from, query.to, DEFAULT_REPORT_DAYS);
      const { workspace, entries } = await reportsOf(params.orgId, window);
      const violations = entries
        .flatMap((e) => (e.report?.breaches ?? []).map((b) => ({ ...b, interfaceId: e.interfaceId, name: e.name })))
        .sort((a, b) => (a.from < b.from ? 1 : a.from > b.from ? -1 : a.interfaceId.localeCompare(b.interfaceId)));
      const total = entries.reduce((count, e) => count + (e.report?.breachCount ?? 0), 0);
      return {
        orgId: workspace.id,
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        total,
        violations: violations.slice(0, MAX_VIOLATIONS),
      };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/admin/observability/metrics/cost',
    examples: ADMIN_EXAMPLES.cost,
    summary: 'What running the Workbench costs here: CPU, memory, storage, messages and their growth, monthly estimate',
    response: z.object({
      measuredAt: z.string(),
      process: z.object({ cpuSeconds: z.number(), uptimeSeconds: z.number(), cpuCoreShare: z.number(), rssBytes: z.number(), heapUsedBytes: z.number() }),
      storage: z.object({ dialect: z.string(), dataDirBytes: z.number(), databaseBytes: z.number(), totalBytes: z.number() }),
      messages: z.object({
        stored: z.number(),
        perDay: z.array(z.object({ day: z.string(), messages: z.number() })),
        growthPerDay: z.number(),
        bytesPerMessage: z.number().nullable(),
      }),
      estimate: z.object({
        currency: z.string(),
        rates: z.object({ currency: z.string(), cpuCoreHour: z.number(), memoryGiBHour: z.number(), storageGiBMonth: z.number() }),
        monthly: z.number(),
        cpu: z.number(),
        memory: z.number(),
        storage: z.number(),
        storageNextMonthBytes: z.number(),
        formula: z.string(),
      }),
    }),
    handler: () =>
      measureCosts({
        db: deps.storage.db,
        sql: deps.storage.sql,
        dialect: deps.storage.dialect,
        dataDir: deps.dataDir,
        monitor,
        clock: deps.clock,
        rates: deps.rates,
      }),
  });
}
