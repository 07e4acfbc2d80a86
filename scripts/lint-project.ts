/**
 * Project rules the compiler cannot check, run by `npm run lint` after the strict compiler pass
 * (`tsconfig.lint.json`: unused locals and parameters, implicit returns, unreachable code):
 * - a plugin imports another plugin only through its public `api.ts` (tokens and types), never its internals;
 * - the kernel imports no plugin at all (it knows no healthcare);
 * - kernel and plugin code writes through the logger or the CLI's io, never `console.log`;
 * - every exported function, class, interface, type and const of kernel and plugins has a doc comment.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const problems: string[] = [];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const IMPORT = /(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const EXPORT = /^export\s+(?:async\s+)?(?:function|class|interface|type|const|let|enum|abstract\s+class)\s+(\w+)/;

for (const top of ['kernel', 'plugins']) {
  for (const file of sourceFiles(join(root, top))) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    const ownPlugin = top === 'plugins' ? rel.split(sep)[1] : undefined;
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier?.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), specifier)).split(sep);
      if (target[0] !== 'plugins') continue;
      if (top === 'kernel') problems.push(`${rel}: the kernel must not import a plugin (${specifier})`);
      else if (target[1] !== ownPlugin && target[2] !== 'api.ts') {
        problems.push(`${rel}: imports another plugin's internals (${specifier}); use its api.ts token or its events`);
      }
    }
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (/\bconsole\.log\(/.test(line)) problems.push(`${rel}:${index + 1}: console.log in service code`);
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

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} problem(s)\n`);
  process.exit(1);
}
process.stdout.write('project rules: ok\n');
