/**
 * The configuration and the plugin set it selects, read before any plugin module loads: the config file (with every
 * bad key of kernel and plugin sections reported at once), the manifests of every plugin folder, and which plugins are
 * on, in load order. Booting uses it, and so does `workbench help`, which needs no plugin loaded.
 */
import { resolve } from 'node:path';
import { ConfigError, loadConfig, projectRoot, type ConfigSources, type LoadedConfig } from '../config-loader.ts';
import { bundledPluginsDir, withPluginSectionProblems } from './plugin-config-problems.ts';
import { discoverPlugins } from './plugin-discovery.ts';
import { resolvePluginOrder, type DiscoveredPlugin, type DisabledPlugin } from './plugin-manifest.ts';

/** Where plugins are looked for, besides the config's `pluginDirs`. */
export interface PluginSetSources extends ConfigSources {
  /** Extra plugin folders (tests add fixture plugins this way). */
  pluginDirs?: string[];
  /** Leave out the shipped plugins/ folder (kernel tests). */
  skipBundledPlugins?: boolean;
}

/** The loaded config and the plugins it turns on. */
export interface PluginSet {
  config: LoadedConfig;
  /** Enabled plugins, each after what it requires. */
  ordered: DiscoveredPlugin[];
  disabled: DisabledPlugin[];
  /** Config sections `plugins.<id>` that name no installed plugin. */
  unknownSections: string[];
}

/** Reads the config and the manifests; throws ConfigError or PluginSetError listing every problem. */
export async function readPluginSet(sources: PluginSetSources): Promise<PluginSet> {
  let config: LoadedConfig;
  try {
    config = loadConfig(sources);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw await withPluginSectionProblems(error, {
      bundled: sources.skipBundledPlugins ? undefined : bundledPluginsDir(projectRoot),
      extra: sources.pluginDirs ?? [],
    });
  }
  const pluginRoots = [
    ...(sources.skipBundledPlugins ? [] : [bundledPluginsDir(projectRoot)]),
    ...config.kernel.pluginDirs.map((dir) => resolve(dir)),
    ...(sources.pluginDirs ?? []),
  ];
  const discovered = discoverPlugins(pluginRoots);
  const sections = config.kernel.plugins;
  const knownIds = new Set(discovered.map((p) => p.manifest.id));
  const unknownSections = Object.keys(sections).filter((id) => !knownIds.has(id));
  const { ordered, disabled } = resolvePluginOrder(discovered, (id) => sections[id]?.enabled !== false);
  return { config, ordered, disabled, unknownSections };
}
