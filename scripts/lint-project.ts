/**
 * Project rules the other linters do not check, run by `npm run lint` after the strict compiler pass
 * (`tsconfig.lint.json`), ESLint, dependency-cruiser (the import boundaries and cycles, `.dependency-cruiser.cjs`)
 * and knip (dead files, exports and dependencies):
 * - every plugin's manifest tells the truth: `requires` and `optional` together name exactly the plugins whose
 *   public `api.ts` its code imports;
 * - kernel and plugin code writes through the logger or the CLI's io, never `console.log`;
 * - only the monitor opens its tables: no kernel or other plugin file names a `monitor_*` table (in a query, a
 *   table name or anywhere else in its text); they read stored messages and roll-ups through the monitor's api.ts;
 * - every exported function, class, interface, type and const of kernel and plugins has a doc comment;
 * - timers and cron jobs of kernel and plugins run under the background guard (kernel/background/background-guard.ts): no bare
 *   `setInterval`, `cron.schedule` or `setTimeout` outside it, except a `setTimeout` that only settles a promise or
 *   aborts a controller (a wait, a time limit) and the sites of TIMERS_ALLOWED, each with its reason;
 * - the README stays a front door (under 250 lines) and no documentation line outside tables and code runs over 160
 *   characters;
 * - no TypeScript file over 500 lines and no folder with more than 25 files at its root, across kernel (with
 *   kernel/lib), plugins, scripts, bench, fuzz and test (scripts/tree-limits.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { documentationFiles, filesUnder } from './tree-files.ts';
import { treeLimitProblems } from './tree-limits.ts';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const problems: string[] = [];

/** The other plugins each plugin's code imports (through their api.ts: dependency-cruiser holds them to it). */
const imports = new Map<string, Set<string>>();
const importedPlugins = (plugin: string): Set<string> => {
  let set = imports.get(plugin);
  if (!set) imports.set(plugin, (set = new Set()));
  return set;
};

/** A table of the monitor (`monitor_messages`, `monitor_minutes`, ...): only plugins/monitor may name one. */
const MONITOR_TABLE = /\bmonitor_[a-z][a-z_]*/;

/** A timer or cron job started outside the guard. */
const BARE_TIMER = /\b(?:setInterval|setTimeout)\(|\bcron(?:\(\))?\.schedule\(/;
/** A `setTimeout` that only ends a wait or a time limit: resolves or rejects a promise, or aborts a controller. */
const SETTLING_TIMER = /\bsetTimeout\(\s*(?:resolve|reject)\b|\bsetTimeout\(\s*\(\)\s*=>\s*(?:resolve|reject|[\w.]+\.abort)\(/;

/**
 * Timers allowed outside the guard, by file and the text of the call's line, each with why it needs no guard. Every
 * other timer runs through `context.background` (plugins) or the kernel's BackgroundGuard.
 */
const TIMERS_ALLOWED: ReadonlyArray<{ file: string; line: RegExp; why: string }> = [
  { file: 'kernel/background/background-guard.ts', line: /./, why: 'the guard itself' },
  { file: 'kernel/background/scheduler.ts', line: /cron\(\)\.schedule\(/, why: 'each tick runs inside guard.run' },
  { file: 'kernel/cli.ts', line: /const force = setTimeout/, why: 'ends a shutdown that hangs: it must exit, not report' },
  {
    file: 'kernel/v8-flags.ts',
    line: /const timer = setInterval/,
    why: 'before the service boots: sends the process SIGTERM once its starter is gone, nothing that can fail',
  },
  {
    file: 'kernel/lifecycle.ts',
    line: /const timer = setTimeout/,
    why: 'a plugin start tried again: its promise handles success and failure, and logs the failure',
  },
  {
    file: 'kernel/workers/work-pool.ts',
    line: /this\.retryTimer = setTimeout/,
    why: 'boots a probe worker; its promise handles both outcomes, and the failure is the pool condition already open',
  },
  {
    file: 'kernel/store/sqlite-checkpointer.ts',
    line: /setInterval\(\(\) => this\.request\(\)/,
    why: 'only posts a message to its thread; the thread reports its failures through onError',
  },
  {
    file: 'plugins/audit/audit-store.ts',
    line: /this\.checkpointTimer = setTimeout/,
    why: 'the fallback of a store built without a guard (one-shot commands): the flush catches its own failure',
  },
  { file: 'plugins/analytics/report-delivery.ts', line: /timer: setTimeout/, why: 'a back-off wait: it only resolves its promise' },
];

const IMPORT = /(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const EXPORT = /^export\s+(?:async\s+)?(?:function|class|interface|type|const|let|enum|abstract\s+class)\s+(\w+)/;

for (const top of ['kernel', 'plugins']) {
  for (const file of filesUnder(join(root, top), '.ts')) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    const ownPlugin = top === 'plugins' ? rel.split(sep)[1] : undefined;
    if (ownPlugin) {
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2];
        if (!specifier?.startsWith('.')) continue;
        const target = relative(root, resolve(dirname(file), specifier)).split(sep);
        if (target[0] === 'plugins' && target[1] !== ownPlugin) importedPlugins(ownPlugin).add(target[1]);
      }
    }
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (/\bconsole\.log\(/.test(line)) problems.push(`${rel}:${index + 1}: console.log in service code`);
      const relPosix = rel.split(sep).join('/');
      if (BARE_TIMER.test(line) && !SETTLING_TIMER.test(line) && !TIMERS_ALLOWED.some((a) => a.file === relPosix && a.line.test(line))) {
        problems.push(
          `${rel}:${index + 1}: a bare timer or cron job; run it under the background guard (context.background, or ` +
            'BackgroundGuard in the kernel), or add it to TIMERS_ALLOWED with the reason it needs none',
        );
      }
      // `new (f(...)).Member(...)`: the compiler drops the parentheses, and the built code calls `new f(...)` instead.
      if (/\bnew\s*\(\s*[\w$.]+\s*\(/.test(line)) {
        problems.push(`${rel}:${index + 1}: \`new (call(...))\` loses its parentheses when compiled; take the class into a name first`);
      }
      const table = ownPlugin === 'monitor' ? null : MONITOR_TABLE.exec(line);
      if (table) {
        problems.push(`${rel}:${index + 1}: names the monitor's table ${table[0]}; read stored messages and roll-ups through the monitor's api.ts (MONITOR_SERVICE)`);
      }
      const exported = EXPORT.exec(line);
      if (!exported) return;
      let previous = index - 1;
      while (previous >= 0 && (lines[previous].trim() === '' || lines[previous].trim().startsWith('@'))) previous--;
      const before = lines[previous]?.trim() ?? '';
      const documented = before.endsWith('*/') || before.startsWith('//');
      if (!documented) problems.push(`${rel}:${index + 1}: exported ${exported[1]} has no doc comment`);
    });
  }
}

for (const plugin of readdirSync(join(root, 'plugins'))) {
  const manifestFile = join(root, 'plugins', plugin, 'plugin.json');
  if (!existsSync(manifestFile)) continue;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { requires?: string[]; optional?: string[] };
  const declared = new Set([...(manifest.requires ?? []), ...(manifest.optional ?? [])]);
  const imported = imports.get(plugin) ?? new Set<string>();
  const undeclared = [...imported].filter((id) => !declared.has(id)).sort();
  const unused = [...declared].filter((id) => !imported.has(id)).sort();
  if (undeclared.length > 0) {
    problems.push(`plugins/${plugin}/plugin.json: imports ${undeclared.join(', ')} but neither requires it nor lists it as optional`);
  }
  if (unused.length > 0) {
    problems.push(`plugins/${plugin}/plugin.json: declares ${unused.join(', ')} in requires/optional but imports nothing of it`);
  }
}

const README_MAX_LINES = 250;
const DOC_LINE_MAX = 160;
const readmeLines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
if (readmeLines >= README_MAX_LINES) problems.push(`README.md: ${readmeLines} lines; keep it a front door under ${README_MAX_LINES} and move detail to docs/`);
for (const file of documentationFiles(root)) {
  let inCode = false;
  readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && !line.startsWith('|') && line.length > DOC_LINE_MAX) {
      problems.push(`${relative(root, file)}:${index + 1}: a line of ${line.length} characters (at most ${DOC_LINE_MAX} outside tables and code)`);
    }
  });
}

problems.push(...treeLimitProblems(root));

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} problem(s)\n`);
  process.exit(1);
}
process.stdout.write('project rules: ok\n');
