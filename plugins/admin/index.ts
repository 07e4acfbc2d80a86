/**
 * The admin plugin (monitor base, enterprise tier, every route behind policy MonitorAdmin): role assignments,
 * workspaces, feature-flag writes, SLA definitions and reports, and observability. Every write is recorded in the
 * audit trail. Interfaces are read through the monitor's public service only.
 */
import { z } from 'zod';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { AUDIT_TRAIL, type AuditTrail } from '../audit/api.ts';
import { FEATURE_FLAGS, type FeatureFlags } from '../feature-flags/api.ts';
import { MONITOR_SERVICE, type MonitorService } from '../monitor/api.ts';
import { adminErrors } from './admin-errors.ts';
import { registerRoleRoutes } from './role-routes.ts';
import { WorkspaceStore, workspaceMigrations } from './workspace-store.ts';
import { registerWorkspaceRoutes } from './workspace-routes.ts';
import { registerFeatureFlagRoutes } from './feature-flag-routes.ts';

const configSchema = z.object({}).strict();

type AdminConfig = z.infer<typeof configSchema>;

/** Registers the admin routes. */
export const plugin: PluginModule<AdminConfig> = {
  configSchema,
  async register(context) {
    context.registerErrors(adminErrors.catalogue);
    await context.storage.migrate(workspaceMigrations);
    const audit = context.container.resolve<AuditTrail>(AUDIT_TRAIL);
    const flags = context.container.resolve<FeatureFlags>(FEATURE_FLAGS);
    const monitor = context.container.resolve<MonitorService>(MONITOR_SERVICE);
    const workspaces = new WorkspaceStore(context.storage.db, context.clock);

    registerRoleRoutes(context, audit);
    registerWorkspaceRoutes(context, {
      store: workspaces,
      audit,
      flags,
      interfaceExists: (id) => monitor.interfaceExists(id),
    });
    registerFeatureFlagRoutes(context, { flags, workspaces, audit });
  },
};
