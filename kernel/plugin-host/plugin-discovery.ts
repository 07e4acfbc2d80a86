/**
 * Finds plugin folders (`<dir>/<id>/plugin.json`) and validates each manifest; every bad manifest is reported at
 * once, naming its file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeZodIssues } from '../config-loader.ts';
import { PLUGIN_MANIFEST, PluginSetError, pluginManifestSchema, type DiscoveredPlugin } from './plugin-manifest.ts';

/** Reads every manifest under the given folders; throws {@link PluginSetError} listing all invalid ones. */
export function discoverPlugins(roots: string[]): DiscoveredPlugin[] {
  const found: DiscoveredPlugin[] = [];
  const problems: string[] = [];
  for (const root of roots) {
    if (!existsSync(root)) {
      problems.push(`plugin folder ${root} does not exist`);
      continue;
    }
    for (const entry of readdirSync(root).sort()) {
      const directory = join(root, entry);
      const manifestPath = join(directory, PLUGIN_MANIFEST);
      if (!statSync(directory).isDirectory() || !existsSync(manifestPath)) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(manifestPath, 'utf8'));
      } catch (error) {
        problems.push(`${manifestPath}: not valid JSON (${(error as Error).message})`);
        continue;
      }
      const parsed = pluginManifestSchema.safeParse(raw);
      if (!parsed.success) {
        problems.push(...describeZodIssues(parsed.error).map((line) => `${manifestPath}: ${line}`));
        continue;
      }
      if (parsed.data.id !== entry) {
        problems.push(`${manifestPath}: id "${parsed.data.id}" must match its folder name "${entry}"`);
        continue;
      }
      found.push({ manifest: parsed.data, directory });
    }
  }
  if (problems.length > 0) throw new PluginSetError(problems);
  return found;
}
