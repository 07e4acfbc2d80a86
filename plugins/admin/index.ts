/**
 * The admin plugin (monitor base, enterprise tier, every route behind policy MonitorAdmin): role assignments,
 * workspaces, feature-flag writes, SLA definitions and reports with breach alerts, observability (workspace SLA
 * aggregates, violations, cost) and Prometheus metrics. Every write is recorded in the audit trail. Interfaces,
 * minutes and alerts are reached through the monitor's public service only.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { adminConfigSchema, type AdminConfig } from './admin-config.ts';
import { AUDIT_TRAIL } from '../audit/api.ts';
import { FEATURE_FLAGS } from '../feature-flags/api.ts';
import { MONITOR_SERVICE } from '../monitor/api.ts';
import { adminErrors } from './admin-errors.ts';
import { registerRoleRoutes } from './role-routes.ts';
import { WorkspaceStore, workspaceMigrations } from './workspace-store.ts';
import { registerWorkspaceRoutes } from './workspace-routes.ts';
import { registerFeatureFlagRoutes } from './feature-flag-routes.ts';
import { SlaStore, slaMigrations } from './sla-store.ts';
import { SlaService } from './sla-service.ts';
import { registerSlaRoutes } from './sla-routes.ts';
import { registerObservabilityRoutes } from './observability-routes.ts';
import { registerPrometheusMetrics } from './prometheus-metrics.ts';

/** Registers the admin routes, the SLA alert job and the metrics. */
export const plugin: PluginModule<AdminConfig> = {
  configSchema: adminConfigSchema,
  async register(context) {
    context.registerErrors(adminErrors.catalogue);
    await context.storage.migrate({ ...workspaceMigrations, ...slaMigrations });
    const audit = resolveService(context.container, AUDIT_TRAIL);
    const flags = resolveService(context.container, FEATURE_FLAGS);
    const monitor = resolveService(context.container, MONITOR_SERVICE);
    const workspaces = new WorkspaceStore(context.storage.db, context.clock);
    const slas = new SlaStore(context.storage.db);
    const service = new SlaService(slas, monitor, context.clock, context.config.slaAlerts.windowHours);

    registerRoleRoutes(context.routes, { roles: context.auth.roles, audit });
    registerWorkspaceRoutes(context.routes, { store: workspaces, audit, flags, interfaceExists: (id) => monitor.interfaceExists(id) });
    registerFeatureFlagRoutes(context.routes, { flags, workspaces, audit, clock: context.clock });
    registerSlaRoutes(context.routes, { slas, service, monitor, audit, clock: context.clock });
    registerObservabilityRoutes(context.routes, {
      workspaces,
      slas,
      service,
      monitor,
      rates: context.config.costRates,
      storage: context.storage,
      dataDir: context.dataDir,
      clock: context.clock,
    });
    registerPrometheusMetrics(context.routes, {
      monitor,
      public: context.config.metrics.public,
      events: context.events,
      lifecycle: context.lifecycle,
      observeRequests: (observer) => context.observeRequests(observer),
    });

    // An interface removed from the monitor takes its SLA and workspace links with it.
    context.events.on('monitor.interface.deleted', async ({ interfaceId }) => {
      await slas.remove(interfaceId);
      await workspaces.removeInterface(interfaceId);
    });
    // the SLA rule is judged by the monitor with its own rules (after commits and on every check), not on a timer
    monitor.registerAlertRule(service.alertRule());
  },
};
