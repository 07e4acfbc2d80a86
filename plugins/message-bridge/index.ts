/**
 * The message bridge plugin: the bridge base's message routes and the matching CLI commands, over whichever
 * standard adapters are registered (the standard plugins register theirs in the same registry).
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { type BridgeConfig, bridgeConfigSchema } from './bridge-config.ts';
import { registerBridgeRoutes } from './bridge-routes.ts';
import { createBridgeCommands } from './bridge-commands.ts';
import { bridgeErrors } from './errors.ts';
import { registerLookupRoute } from './lookup-routes.ts';
import { createLookupCommand } from './lookup-command.ts';

/** Registers routes, commands and the error catalogue. */
export const plugin: PluginModule<BridgeConfig> = {
  configSchema: bridgeConfigSchema,
  register(context) {
    context.registerErrors(bridgeErrors.catalogue);
    registerBridgeRoutes(context.routes, { standards: context.standards, runner: context.standardsRunner, config: context.config });
    // The field lookup on the bridge, and on the monitor base for its message view (same origin, no CORS).
    registerLookupRoute(context.routes, context.standards);
    registerLookupRoute(context.routesOn('monitor'), context.standards);
    for (const command of createBridgeCommands(context.standards, context.config)) context.registerCommand(command);
    context.registerCommand(createLookupCommand(context.standards));
  },
};
