/**
 * Entry of the identifiers plugin. Its rules are pure functions that other plugins import from `api.ts`, so there is
 * no service to put in the container: the plugin exists so the rules have one home, outside the synthetic-data
 * plugin, that every standard reaches under the plugin boundary rule. It says `"worker": true` because plugins that
 * run in the worker threads (synthetic-data, the NCPDP standard) require it; there too it registers nothing.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';

/** The plugin module the kernel loads (it registers nothing: see above). */
export const plugin: PluginModule = {
  register: () => undefined,
  registerWorker: () => undefined,
};
