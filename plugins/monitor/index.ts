/**
 * The monitor plugin (monitor base, professional tier): monitored interfaces, the ledger of every file read, the
 * stored and validated messages, metrics, alerts, status and reports. Other plugins read through
 * {@link MONITOR_SERVICE} (`api.ts`).
 */
import type { Kysely } from 'kysely';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { AlertEpisodes } from './alert-episodes.ts';
import { registerAlertRoutes } from './alert-routes.ts';
import { MONITOR_SERVICE } from './api.ts';
import { monitorErrors } from './errors.ts';
import { registerInterfaceRoutes } from './interface-routes.ts';
import { InterfaceStore } from './interface-store.ts';
import { MessageStore } from './message-store.ts';
import { monitorConfigSchema, type MonitorConfig } from './monitor-config.ts';
import { MonitorServiceImpl } from './monitor-service.ts';
import { monitorMigrations, type MonitorDatabase } from './monitor-tables.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule<MonitorConfig> = {
  configSchema: monitorConfigSchema,
  async register(context) {
    context.registerErrors(monitorErrors.catalogue);
    await context.storage.migrate(monitorMigrations(context.storage.dialect));
    const db = context.storage.db as Kysely<MonitorDatabase>;
    const interfaces = new InterfaceStore(db);
    const messages = new MessageStore(db);
    const alerts = new AlertEpisodes(db, context.events, context.clock);
    context.container.registerInstance(MONITOR_SERVICE, new MonitorServiceImpl(interfaces, messages, alerts));

    const routes = context.routes;
    if (!routes) return;
    registerInterfaceRoutes(routes, {
      interfaces,
      clock: context.clock,
      loadedProfiles: () => context.standards.list().flatMap((adapter) => adapter.profiles().map((p) => p.name)),
      changed: async (monitored) => {
        context.events.emit('monitor.interface.changed', { interfaceId: monitored.id, monitored });
      },
      removing: async (id) => {
        context.events.emit('monitor.interface.deleted', { interfaceId: id });
      },
    });
    registerAlertRoutes(routes, alerts, context.clock);
  },
};
