/**
 * When the kernel's keys are bad, the plugins' sections are still checked, so the one start-up message names every
 * bad key of the file, not just the first half of them.
 */
import { join, resolve } from 'node:path';
import { ConfigError } from '../config-loader.ts';
import { discoverPlugins } from './plugin-discovery.ts';
import { loadPluginModules } from './plugin-loader.ts';
import { PluginSetError } from './plugin-manifest.ts';

/** Returns `error` extended with the problems of the plugin sections of its raw config. */
export async function withPluginSectionProblems(
  error: ConfigError,
  pluginRoots: { bundled?: string; extra: string[] },
): Promise<ConfigError> {
  const raw = error.raw;
  const sections = raw?.plugins;
  if (!raw || typeof sections !== 'object' || sections === null || Array.isArray(sections)) return error;
  const configured = Array.isArray(raw.pluginDirs)
    ? raw.pluginDirs.filter((dir): dir is string => typeof dir === 'string').map((dir) => resolve(dir))
    : [];
  try {
    const discovered = discoverPlugins([
      ...(pluginRoots.bundled ? [pluginRoots.bundled] : []),
      ...configured,
      ...pluginRoots.extra,
    ]).filter((plugin) => plugin.manifest.id in sections);
    await loadPluginModules(discovered, sections as Record<string, Record<string, unknown>>);
    return error;
  } catch (pluginError) {
    if (!(pluginError instanceof PluginSetError)) return error;
    const extra = pluginError.problems.filter((problem) => problem.startsWith('plugins.'));
    return extra.length > 0 ? new ConfigError([...error.problems, ...extra], raw) : error;
  }
}

/** Folder of the bundled plugins under a project root. */
export function bundledPluginsDir(projectRoot: string): string {
  return join(projectRoot, 'plugins');
}
