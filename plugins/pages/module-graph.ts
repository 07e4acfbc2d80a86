/**
 * The modules a page's script needs at once: its static imports, and theirs, followed through the folders served
 * under `/pages/`. A dynamic `import()` (a library loaded when a view first wants it) is not followed. The shell names
 * each for preloading, so the browser asks for every module in one round instead of one round per level of imports.
 */
import type { AssetFolder } from './page-assets.ts';

/** `import ... from './x.js'` and `export ... from './x.js'` at the start of a line, and bare `import './x.js'`. */
const STATIC_IMPORT = /^(?:import|export)\b(?:[^'";]*?\bfrom\s*)?\s*['"]([^'"]+)['"]/gm;

/** The same-origin paths of the served files `/pages/<folder>/<file>`. */
function servedFile(folders: Readonly<Record<string, AssetFolder>>, path: string) {
  const match = /^\/pages\/([^/]+)\/([^/]+)$/.exec(path);
  return match ? folders[match[1] as string]?.get(match[2] as string) : undefined;
}

/**
 * Every module `entry` (a path such as `/pages/monitor/app.js`) imports statically, directly or through others, that
 * is one of `folders`' files, in the order first met, the entry itself excluded.
 */
export function staticModuleGraph(folders: Readonly<Record<string, AssetFolder>>, entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  const found: string[] = [];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const file = servedFile(folders, path);
    if (!file) continue;
    for (const [, target] of file.body.toString('utf8').matchAll(STATIC_IMPORT)) {
      const resolved = new URL(target as string, `http://pages${path}`).pathname;
      if (seen.has(resolved) || !servedFile(folders, resolved)) continue;
      seen.add(resolved);
      found.push(resolved);
      queue.push(resolved);
    }
  }
  return found;
}
