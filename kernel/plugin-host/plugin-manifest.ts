/**
 * The plugin manifest (`plugins/<id>/plugin.json`) and the checks made on the whole set before anything loads:
 * schema, duplicate ids, missing dependencies, cycles and plugins switched off by config. Every problem is
 * collected and reported at once, naming the plugin.
 */
import { z } from 'zod';
import { TIERS } from '../entitlement.ts';

/** Base addresses a plugin may serve routes on, or `none`. */
export const BASES = ['bridge', 'monitor', 'population'] as const;
/** Name of a base address. */
export type BaseName = (typeof BASES)[number];

/** File name of a plugin's manifest. */
export const PLUGIN_MANIFEST = 'plugin.json';

/**
 * A CLI subcommand a plugin contributes, described in its manifest so `workbench help` lists it without loading
 * the plugin; the plugin's `register` supplies what it does ({@link PluginCommand}).
 */
export const manifestCommandSchema = z
  .object({
    /** Command words, e.g. `validate` or `audit verify`. */
    name: z.string().regex(/^[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)?$/, 'must be one or two lower-case words, e.g. "audit verify"'),
    usage: z.string().min(1),
    summary: z.string().min(1),
    /** False when the command never touches the database: it then runs without opening it. */
    usesStorage: z.boolean().default(true),
    /**
     * Plugins the command loads beside its own when they are enabled (`audit`, so a command that reads message text
     * records each view in the audit trail).
     */
    loads: z.array(z.string()).default([]),
  })
  .strict();

/** Schema of `plugin.json`. */
export const pluginManifestSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'must be kebab-case, e.g. hl7-standard'),
    version: z.string().regex(/^\d+\.\d+\.\d+(-[\w.]+)?$/, 'must be a semantic version, e.g. 1.2.0'),
    description: z.string().min(1),
    base: z.enum([...BASES, 'none']),
    tier: z.enum(TIERS),
    requires: z.array(z.string()).default([]),
    /**
     * Plugins this one works with when they are on and does without when they are off (it looks their service up in
     * the container when it needs it, or only names their types): one being off or absent disables nothing. With
     * `requires`, exactly the plugins whose `api.ts` this one imports (`npm run lint` checks it).
     */
    optional: z.array(z.string()).default([]),
    entry: z.string().regex(/\.(ts|js|mjs)$/, 'must name a .ts, .js or .mjs module'),
    /**
     * True when the plugin also runs in each thread of the kernel's worker pool, where its `registerWorker(context)`
     * registers what heavy work needs (standard adapters). Everything it requires must run there too.
     */
    worker: z.boolean().default(false),
    /**
     * The CLI subcommands the plugin registers. A one-shot command loads only the plugin that declares it, what that
     * plugin requires and the engine plugins (`worker: true`), so it starts fast.
     */
    commands: z.array(manifestCommandSchema).default([]),
    /**
     * The feature flag that switches the plugin's routes off (404 FEATURE_DISABLED while it is false); default the
     * plugin's id. `null` keeps them always on (the admin and flag routes themselves, health, sign-in).
     */
    featureFlag: z
      .string()
      .regex(/^[a-zA-Z][\w.-]*$/, 'flag names are letters, digits, . _ -')
      .nullable()
      .optional(),
  })
  .strict();

/** A validated manifest. */
export type PluginManifest = z.infer<typeof pluginManifestSchema>;

/** A manifest found on disk. */
export interface DiscoveredPlugin {
  manifest: PluginManifest;
  directory: string;
}

/** A plugin that will not load, with the reason (shown at boot and in diagnostics). */
export interface DisabledPlugin {
  id: string;
  reason: string;
}

/** Thrown when the plugin set cannot boot; lists every problem. */
export class PluginSetError extends Error {
  constructor(readonly problems: string[]) {
    super(`Plugins cannot be loaded:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'PluginSetError';
  }
}

/**
 * Orders plugins so each comes after what it requires. Plugins disabled by config (and, transitively, those that
 * require them) are left out with a reason. Duplicates, unknown requirements and cycles are fatal, all reported
 * together.
 */
export function resolvePluginOrder(
  plugins: DiscoveredPlugin[],
  isEnabled: (id: string) => boolean,
): { ordered: DiscoveredPlugin[]; disabled: DisabledPlugin[] } {
  const problems: string[] = [];
  const byId = new Map<string, DiscoveredPlugin>();
  for (const plugin of plugins) {
    const other = byId.get(plugin.manifest.id);
    if (other) {
      problems.push(
        `duplicate plugin id "${plugin.manifest.id}" in ${other.directory} and ${plugin.directory}`,
      );
      continue;
    }
    byId.set(plugin.manifest.id, plugin);
  }
  for (const plugin of byId.values()) {
    const missing = plugin.manifest.requires.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      problems.push(`plugin "${plugin.manifest.id}" requires missing plugin(s): ${missing.join(', ')}`);
    }
    if (plugin.manifest.worker) {
      const mainOnly = plugin.manifest.requires.filter((id) => byId.has(id) && !byId.get(id)?.manifest.worker);
      if (mainOnly.length > 0) {
        const verb = mainOnly.length === 1 ? 'does' : 'do';
        problems.push(
          `plugin "${plugin.manifest.id}" runs in worker threads but requires ${mainOnly.join(', ')}, which ${verb} not (set "worker": true in its plugin.json)`,
        );
      }
    }
  }
  // Depth-first topological sort; a grey node met again is a cycle, reported with its path.
  const state = new Map<string, 'visiting' | 'done'>();
  const ordered: DiscoveredPlugin[] = [];
  const reportedCycles = new Set<string>();
  const visit = (id: string, path: string[]): void => {
    const plugin = byId.get(id);
    if (!plugin) return;
    const seen = state.get(id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id];
      const key = [...cycle].sort().join(',');
      if (!reportedCycles.has(key)) {
        reportedCycles.add(key);
        problems.push(`dependency cycle: ${cycle.join(' -> ')}`);
      }
      return;
    }
    state.set(id, 'visiting');
    for (const dependency of plugin.manifest.requires) visit(dependency, [...path, id]);
    state.set(id, 'done');
    ordered.push(plugin);
  };
  for (const id of [...byId.keys()].sort()) visit(id, []);
  if (problems.length > 0) throw new PluginSetError(problems);

  const disabled: DisabledPlugin[] = [];
  const off = new Set<string>();
  const active: DiscoveredPlugin[] = [];
  for (const plugin of ordered) {
    const { id, requires } = plugin.manifest;
    if (!isEnabled(id)) {
      off.add(id);
      disabled.push({ id, reason: 'disabled in config' });
      continue;
    }
    const offDependencies = requires.filter((dependency) => off.has(dependency));
    if (offDependencies.length > 0) {
      off.add(id);
      disabled.push({ id, reason: `requires ${offDependencies.join(', ')}, which is off` });
      continue;
    }
    active.push(plugin);
  }
  return { ordered: active, disabled };
}
