/** The health plugin: `GET /api/health` on the monitor base, public, without the envelope. */
import { z } from 'zod';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { checkHealth } from './health-check.ts';

const checkStatus = z.enum(['healthy', 'unhealthy']);
const healthReportSchema = z.object({
  status: z.enum(['healthy', 'degraded', 'unhealthy']),
  timestamp: z.string(),
  version: z.string(),
  uptimeSeconds: z.number().int(),
  checks: z.object({ database: checkStatus, cache: checkStatus }),
  conditions: z.array(z.object({ key: z.string(), reason: z.string(), since: z.string() })),
});

/** Registers the health route. */
export const plugin: PluginModule = {
  register(context) {
    // Built once: the route is polled hard, so nothing is allocated per request but the report itself.
    const probes = {
      pingDatabase: () => context.storage.ping(),
      probeCache: () => context.cache.probe(),
      conditions: () => context.faults.list(),
      clock: context.clock,
      startedAtMs: context.clock.nowMs(),
      version: context.version,
    };
    context.routes.route({
      method: 'GET',
      url: '/api/health',
      summary: 'Health of the service, its database and its cache',
      description:
        'Bare object (no envelope). HTTP 200 when healthy or degraded, 503 when unhealthy. `conditions` lists what makes ' +
        'it degraded (a full disk, a failing background job, a tampered audit trail), each with its reason.',
      tags: ['health'],
      envelope: false,
      // probes must hear at once how the service is, however busy it is
      urgent: true,
      examples: {
        response: {
          status: 'healthy',
          timestamp: '2026-01-15T09:30:00.000Z',
          version: '0.1.0',
          uptimeSeconds: 3600,
          checks: { database: 'healthy', cache: 'healthy' },
          conditions: [],
        },
      },
      response: healthReportSchema,
      otherStatuses: { 503: 'Unhealthy: the same report, with the check that failed' },
      async handler() {
        const report = await checkHealth(probes);
        return {
          raw: true,
          status: report.status === 'unhealthy' ? 503 : 200,
          contentType: 'application/json; charset=utf-8',
          body: JSON.stringify(report),
        };
      },
    });
  },
};
