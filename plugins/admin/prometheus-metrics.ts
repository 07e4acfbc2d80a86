/**
 * The service's own metrics in Prometheus text format at `GET /metrics` on the monitor base (prom-client, one
 * registry per service instance): requests per base, method, route pattern and status, their latency histogram,
 * messages ingested and failed per interface, the monitor's queue of files waiting, stored messages, model calls
 * the triage guard withheld (`ai-triage.model.withheld`), and the process defaults (CPU, memory, event loop lag,
 * handles). Admin-only unless `metrics.public` opens it.
 *
 * prom-client is loaded when the servers start (never by one-shot commands); the request observer is installed at
 * registration, as the kernel requires, and counts from then on.
 */
import { z } from 'zod';
import type { Counter, Registry } from 'prom-client';
import type { EventBus } from '../../kernel/events.ts';
import type { Lifecycle, RouteDefinition, RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { RequestObserver, RequestSample } from '../../kernel/http/request-observers.ts';
import type { MonitorService } from '../monitor/api.ts';
import type { ModelCallWithheld } from '../ai-triage/api.ts';
import { RequestMetrics } from './request-metrics.ts';
import { ADMIN_EXAMPLES } from './admin-examples.ts';

interface Metrics {
  registry: Registry;
  ingested: Counter<'interface_id'>;
  ingestedFailed: Counter<'interface_id'>;
  modelCallsWithheld: Counter<'use' | 'reason'>;
}

async function createMetrics(monitor: MonitorService, requests: RequestMetrics): Promise<Metrics> {
  const { Counter, Gauge, Registry, collectDefaultMetrics } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'workbench_' });
  // prom-client's Metric type names internals these plain collectors need not have; the registry reads only
  // name, help, type, aggregator, get() and reset().
  registry.registerMetric(requests.counter() as unknown as Parameters<Registry['registerMetric']>[0]);
  registry.registerMetric(requests.histogram() as unknown as Parameters<Registry['registerMetric']>[0]);
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
    modelCallsWithheld: new Counter({
      name: 'workbench_model_calls_withheld_total',
      help: 'Calls to the triage model withheld since start: reason identifier (the request carried an identifying value) or not-deidentified.',
      labelNames: ['use', 'reason'] as const,
      registers: [registry],
    }),
  };
}

/** What the metrics route uses. */
export interface PrometheusMetricsDeps {
  monitor: MonitorService;
  /** Serve the route without credentials (`metrics.public`); else it needs policy MonitorAdmin. */
  public: boolean;
  events: EventBus;
  lifecycle: Lifecycle;
  /** Installs the observer that counts every request of every base (the plugin's `observeRequests`). */
  observeRequests: (observer: RequestObserver) => void;
}

/** Registers the metrics and the route. */
export function registerPrometheusMetrics(routes: RouteRegistrar, deps: PrometheusMetricsDeps): void {
  const { monitor } = deps;
  const requests = new RequestMetrics();
  deps.observeRequests((sample: RequestSample) => requests.observe(sample));
  let loading: Promise<Metrics> | undefined;
  let metrics: Metrics | undefined;
  const load = () => {
    loading ??= createMetrics(monitor, requests).then((created) => (metrics = created));
    return loading;
  };
  deps.lifecycle.onStart(async () => {
    await load();
  });

  deps.events.on('message.ingested', (event) => {
    if (!metrics) return;
    metrics.ingested.inc({ interface_id: event.interfaceId }, event.messages.length);
    const failed = event.messages.filter((m) => !m.isValid).length;
    if (failed > 0) metrics.ingestedFailed.inc({ interface_id: event.interfaceId }, failed);
  });

  deps.events.on('ai-triage.model.withheld', (event: ModelCallWithheld) => {
    metrics?.modelCallsWithheld.inc({ use: event.use, reason: event.reason });
  });

  const access: Pick<RouteDefinition, 'policy'> = deps.public ? {} : { policy: 'MonitorAdmin' };
  routes.route({
    ...access,
    method: 'GET',
    url: '/metrics',
    examples: ADMIN_EXAMPLES.prometheus,
    summary: `Prometheus metrics of the service (${deps.public ? 'open: metrics.public is on' : 'policy MonitorAdmin'})`,
    tags: ['admin'],
    tier: 'enterprise',
    response: z.string(),
    async handler() {
      const { registry } = await load();
      return { raw: true as const, contentType: registry.contentType, body: await registry.metrics() };
    },
  });
}
