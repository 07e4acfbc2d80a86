/**
 * Entry of the identifiers plugin. Its rules are pure functions that other plugins import from `api.ts`, so there is
 * no service to put in the container: the plugin exists so the rules have one home, outside the synthetic-data
 * plugin, that every standard reaches under the plugin boundary rule.
 */
import type { PluginModule } from '../../kernel/plugin-api.ts';

/** The plugin module the kernel loads (it registers nothing: see above). */
export const plugin: PluginModule = {
  register: () => undefined,
};
