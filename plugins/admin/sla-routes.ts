/**
 * SLA routes (`/api/monitor/admin/sla`): upsert a definition for a monitored interface, read it, remove it, and the
 * report over a window (default: the 30 days before `to`, `to` defaulting to now), computed from the monitor's
 * stored minutes (see sla-report.ts for every definition).
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import { interfaceNotFound, type MonitorService } from '../monitor/api.ts';
import type { AuditTrail } from '../audit/api.ts';
import { recordAdminWrite } from './admin-audit.ts';
import { ADMIN_ROUTE } from './admin-route-defaults.ts';
import type { SlaService } from './sla-service.ts';
import type { SlaStore } from './sla-store.ts';
import { slaDefinitionSchema, slaReportSchema } from './sla-schemas.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

/** Default report window, in days before `to`. */
export const DEFAULT_REPORT_DAYS = 30;

const percent = z.number().min(0).max(100);
const interfaceParams = z.object({ interfaceId: z.string().min(1).max(200) });
const storedSlaSchema = slaDefinitionSchema.extend({ createdAt: z.string(), updatedAt: z.string() });

/** What the SLA routes work with. */
export interface SlaRouteDeps {
  /** The SLA definitions. */
  slas: SlaStore;
  /** The SLA reports of a window. */
  service: SlaService;
  /** The monitor's service contract (which interfaces exist). */
  monitor: MonitorService;
  /** Where each change is recorded. */
  audit: AuditTrail;
  /** The clock a change's time is read from. */
  clock: Clock;
}

/** Registers the SLA routes. */
export function registerSlaRoutes(routes: RouteRegistrar, deps: SlaRouteDeps): void {
  const { slas, service, monitor, audit } = deps;

  routes.route({
    ...ADMIN_ROUTE,
    method: 'POST',
    url: '/api/monitor/admin/sla',
    examples: ADMIN_EXAMPLES.defineSla,
    summary: 'Define (or replace) the SLA of a monitored interface',
    body: z
      .object({
        interfaceId: z.string().trim().min(1).max(200),
        uptimeTarget: percent,
        maxResponseMs: z.number().int().positive().max(7 * 86_400_000),
        alertThresholdPercent: percent,
      })
      .strict(),
    errors: ['INTERFACE_NOT_FOUND'],
    response: z.object({ sla: storedSlaSchema, created: z.boolean() }),
    async handler(request) {
      const definition = request.body;
      if (!(await monitor.interfaceExists(definition.interfaceId))) {
        throw interfaceNotFound(definition.interfaceId, 'interfaceId', 'body');
      }
      const result = await slas.upsert(definition, deps.clock.now().toISOString());
      await recordAdminWrite(audit, request, 'sla.upsert', 'sla', definition.interfaceId, {
        uptimeTarget: definition.uptimeTarget,
        maxResponseMs: definition.maxResponseMs,
        alertThresholdPercent: definition.alertThresholdPercent,
        created: result.created,
      });
      return result;
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'POST',
    url: '/api/monitor/admin/sla/evaluate',
    examples: ADMIN_EXAMPLES.evaluateSlas,
    summary: 'Judge every SLA over the alert window now; answers the interfaces alerted',
    description:
      'Each SLA is judged over the rolling alert window (`slaAlerts.windowHours`) as the monitor\'s alert rule judges it ' +
      'after commits and on every check (there at most once a minute per interface): an SLA past its threshold raises ' +
      'or keeps its `sla-breach` alert, one within it clears it. Useful right after defining SLAs or importing history.',
    response: z.object({ alerted: z.array(z.string()) }),
    async handler(request) {
      const alerted = await service.evaluateAlerts();
      await recordAdminWrite(audit, request, 'sla.evaluate', 'sla', '*', { alerted: alerted.length });
      return { alerted };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/monitor/admin/sla/:interfaceId',
    examples: ADMIN_EXAMPLES.getSla,
    summary: 'The SLA of an interface',
    params: interfaceParams,
    response: storedSlaSchema,
    async handler({ params }) {
      const sla = await slas.get(params.interfaceId);
      if (!sla) throw kernelErrors.create('NOT_FOUND', { what: `An SLA for interface "${params.interfaceId}"` });
      return sla;
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'DELETE',
    url: '/api/monitor/admin/sla/:interfaceId',
    examples: ADMIN_EXAMPLES.removeSla,
    summary: 'Remove the SLA of an interface',
    params: interfaceParams,
    response: z.object({ interfaceId: z.string(), removed: z.boolean() }),
    async handler(request) {
      const { interfaceId } = request.params;
      if (!(await slas.remove(interfaceId))) throw kernelErrors.create('NOT_FOUND', { what: `An SLA for interface "${interfaceId}"` });
      await recordAdminWrite(audit, request, 'sla.delete', 'sla', interfaceId);
      return { interfaceId, removed: true };
    },
  });

  routes.route({
    ...ADMIN_ROUTE,
    method: 'GET',
    url: '/api/monitor/admin/sla/:interfaceId/report',
    examples: ADMIN_EXAMPLES.slaReport,
    summary: 'SLA report from the stored minutes: uptime, share within maxResponseMs, error rate, breaches, met',
    params: interfaceParams,
    query: z.object({ from: timestampInput.optional(), to: timestampInput.optional() }).strict(),
    response: slaReportSchema,
    async handler({ params, query }) {
      const sla = await service.require(params.interfaceId);
      return service.report(sla, service.window(query.from, query.to, DEFAULT_REPORT_DAYS));
    },
  });
}
