/**
 * The service's own metrics in Prometheus text format at `GET /metrics` on the monitor base (prom-client, one
 * registry per service instance): requests per base, method, route pattern and status, their latency histogram,
 * messages ingested and failed per interface, the monitor's queue of files waiting, stored messages, and the
 * process defaults (CPU, memory, event loop lag, handles). Admin-only unless `metrics.public` opens it.
 *
 * prom-client is loaded when the servers start (never by one-shot commands); the request observer is installed at
 * registration, as the kernel requires, and counts from then on.
 */
import { z } from 'zod';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { PluginContext, RouteDefinition } from '../../kernel/plugin-api.ts';
import type { RequestSample } from '../../kernel/http/request-observers.ts';
import type { MonitorService } from '../monitor/api.ts';

interface Metrics {
  registry: Registry;
  requests: Counter<'base' | 'method' | 'route' | 'status'>;
  durations: Histogram<'base' | 'method' | 'route'>;
  ingested: Counter<'interface_id'>;
  ingestedFailed: Counter<'interface_id'>;
}

async function createMetrics(monitor: MonitorService): Promise<Metrics> {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'workbench_' });
  new Gauge({
    name: 'workbench_monitor_queue_depth',
    help: 'Settled files waiting to be read by the monitor.',
    registers: [registry],
    collect() {
      this.set(monitor.queueDepth());
    },
  });
  new Gauge({
    name: 'workbench_messages_stored',
    help: 'Messages held in the store.',
    registers: [registry],
    async collect() {
      this.set((await monitor.storedMessageCounts()).messages);
    },
  });
  return {
    registry,
    requests: new Counter({
      name: 'workbench_http_requests_total',
      help: 'Answered HTTP requests by base, method, route pattern and status.',
      labelNames: ['base', 'method', 'route', 'status'] as const,
      registers: [registry],
    }),
    durations: new Histogram({
      name: 'workbench_http_request_duration_seconds',
      help: 'Time from request arrival to the end of the answer, by base, method and route pattern.',
      labelNames: ['base', 'method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    ingested: new Counter({
      name: 'workbench_messages_ingested_total',
      help: 'Messages read from watched folders since start, by interface.',
      labelNames: ['interface_id'] as const,
      registers: [registry],
    }),
    ingestedFailed: new Counter({
      name: 'workbench_messages_failed_total',
      help: 'Messages read from watched folders since start that failed validation, by interface.',
      labelNames: ['interface_id'] as const,
      registers: [registry],
    }),
  };
}

/** Registers the metrics and the route. */
export function registerPrometheusMetrics(context: PluginContext, monitor: MonitorService, options: { public: boolean }): void {
  let loading: Promise<Metrics> | undefined;
  let metrics: Metrics | undefined;
  const load = () => {
    loading ??= createMetrics(monitor).then((created) => (metrics = created));
    return loading;
  };
  context.lifecycle.onStart(async () => {
    await load();
  });

  context.observeRequests((sample: RequestSample) => {
    if (!metrics) return;
    metrics.requests.inc({ base: sample.base, method: sample.method, route: sample.route, status: String(sample.status) });
    metrics.durations.observe({ base: sample.base, method: sample.method, route: sample.route }, sample.durationMs / 1000);
  });
  context.events.on('message.ingested', (event) => {
    if (!metrics) return;
    metrics.ingested.inc({ interface_id: event.interfaceId }, event.messages.length);
    const failed = event.messages.filter((m) => !m.isValid).length;
    if (failed > 0) metrics.ingestedFailed.inc({ interface_id: event.interfaceId }, failed);
  });

  const access: Pick<RouteDefinition, 'policy'> = options.public ? {} : { policy: 'MonitorAdmin' };
  context.routes?.route({
    ...access,
    method: 'GET',
    url: '/metrics',
    summary: `Prometheus metrics of the service (${options.public ? 'open: metrics.public is on' : 'policy MonitorAdmin'})`,
    tags: ['admin'],
    tier: 'enterprise',
    response: z.string(),
    async handler() {
      const { registry } = await load();
      return { raw: true as const, contentType: registry.contentType, body: await registry.metrics() };
    },
  });
}
