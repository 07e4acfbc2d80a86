/**
 * Imports plugin entry modules and validates each plugin's config section against the schema it declares.
 * Problems of every plugin are collected into one message.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeZodIssues } from '../config-loader.ts';
import { runnableModulePath } from '../project-root.ts';
import { PluginSetError, type DiscoveredPlugin } from './plugin-manifest.ts';
import type { PluginModule } from '../plugin-api.ts';

/** A plugin whose module is loaded and whose config section is valid. */
export interface LoadedPlugin extends DiscoveredPlugin {
  module: PluginModule;
  config: unknown;
}

function isPluginModule(value: unknown): value is PluginModule {
  return typeof value === 'object' && value !== null && typeof (value as PluginModule).register === 'function';
}

/** Imports each plugin's entry and parses its config section; throws listing every problem. */
export async function loadPluginModules(
  plugins: DiscoveredPlugin[],
  sections: Record<string, Record<string, unknown>>,
): Promise<LoadedPlugin[]> {
  const problems: string[] = [];
  const loaded: LoadedPlugin[] = [];
  for (const plugin of plugins) {
    const { id, entry } = plugin.manifest;
    let module: unknown;
    try {
      const modulePath = runnableModulePath(join(plugin.directory, entry));
      const imported = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
      module = imported.plugin ?? imported.default;
    } catch (error) {
      problems.push(`plugin "${id}": entry ${entry} could not be loaded: ${(error as Error).message}`);
      continue;
    }
    if (!isPluginModule(module)) {
      problems.push(`plugin "${id}": entry ${entry} must export \`plugin\` with a register(context) function`);
      continue;
    }
    if (plugin.manifest.worker && typeof module.registerWorker !== 'function') {
      problems.push(`plugin "${id}": the manifest says "worker": true, so ${entry} must export a registerWorker(context)`);
      continue;
    }
    const { enabled: _enabled, ...section } = sections[id] ?? {};
    let config: unknown = section;
    if (module.configSchema) {
      const parsed = module.configSchema.safeParse(section);
      if (!parsed.success) {
        problems.push(...describeZodIssues(parsed.error, `plugins.${id}`));
        continue;
      }
      config = parsed.data;
    }
    loaded.push({ ...plugin, module, config });
  }
  if (problems.length > 0) throw new PluginSetError(problems);
  return loaded;
}
