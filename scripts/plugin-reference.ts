/**
 * Writes the reference part of each plugin's README from the running service itself, so it cannot drift: the
 * manifest (base, tier, requirements, commands), the routes the plugin serves (from each base's OpenAPI document,
 * where routes are tagged with their plugin), its config section (keys, types and defaults from its zod schema), its
 * error codes, the tables it owns (the embedded database after every migration ran) and the events it emits and
 * listens to (read from its sources). The text between the README's reference markers is replaced; the rest of the
 * README is the plugin author's. The same run writes the table of every kernel config key, with its default and
 * environment variable, into docs/reference/configuration.md.
 *
 * Usage: node --import tsx scripts/plugin-reference.ts [--check]
 * `--check` writes nothing and exits 1 naming every README whose reference is out of date (a test runs it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../kernel/project-root.ts';
import { CONFIG_ENVIRONMENT_VARIABLES, environmentOverrides } from '../kernel/config-loader.ts';
import { kernelConfigSchema } from '../kernel/config-schema.ts';
import { createWorkbench } from '../kernel/workbench.ts';
import { filesUnder } from './tree-files.ts';

const START = '<!-- reference:start (written by scripts/plugin-reference.ts; edit above or below) -->';
const END = '<!-- reference:end -->';

/**
 * Former cursor tables that a projection adopts and drops at its first catch-up (plugins/monitor/projections): they
 * exist only until then, so whether the reference would list them depends on timing; they are never listed.
 */
const FORMER_CURSOR_TABLES = new Set(['tracing_feed_cursor', 'triage_cursor']);

/** Table prefixes of plugins whose tables are not named after their id. */
const TABLE_PREFIXES: Record<string, string[]> = {
  'ai-triage': ['triage_'],
  'sso-oidc': ['sso_'],
  'feature-flags': ['feature_flags'],
};

interface OpenApiOperation {
  summary?: string;
  tags?: string[];
}

interface RouteRow {
  base: string;
  method: string;
  path: string;
  summary: string;
}

type JsonSchema = {
  type?: string | string[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  return schema.type ?? 'object';
}

/** One row per leaf key of a config schema (`alertRules.windowMinutes`), with its type and default. */
function configRows(schema: JsonSchema, prefix = ''): string[] {
  const rows: string[] = [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (child.properties && Object.keys(child.properties).length > 0) rows.push(...configRows(child, name));
    else {
      const fallback = child.default === undefined ? '—' : `\`${cell(JSON.stringify(child.default))}\``;
      rows.push(`| \`${name}\` | ${cell(typeOf(child))} | ${fallback} |`);
    }
  }
  return rows;
}

/** Event names a plugin's sources emit and listen to (`events.emit('x'`, `events.on('x'`, lists of names). */
function eventsOf(dir: string): { emits: string[]; listens: string[] } {
  const emits = new Set<string>();
  const listens = new Set<string>();
  for (const file of filesUnder(dir, '.ts')) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\.emit\(\s*'([a-z][\w.-]*)'/g)) emits.add(match[1] as string);
    for (const match of text.matchAll(/\.(?:on|once)\(\s*'([a-z][\w-]*\.[\w.-]+)'/g)) listens.add(match[1] as string);
    for (const match of text.matchAll(/for \(const \w+ of \[([^\]]+)\] as const\)\s*events\.on\(/g)) {
      for (const name of (match[1] as string).matchAll(/'([a-z][\w.-]*)'/g)) listens.add(name[1] as string);
    }
  }
  return { emits: [...emits].sort(), listens: [...listens].sort() };
}

/** The reference text of every plugin, by plugin id. */
async function referenceTexts(): Promise<Map<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-plugin-reference-'));
  const workbench = await createWorkbench({
    env: {},
    overrides: {
      dataDir,
      logging: { level: 'silent' },
      servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } },
    },
  });
  try {
    const urls = await workbench.start();
    const routes: RouteRow[] = [];
    for (const [base, url] of Object.entries(urls)) {
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const tag of operation.tags ?? []) routes.push({ base: `${base}:${tag}`, method: method.toUpperCase(), path, summary: operation.summary ?? '' });
        }
      }
    }
    const { sql } = await import('kysely');
    const tables = ((await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(workbench.storage.db)).rows)
      .map((row) => row.name)
      .filter((name) => !name.startsWith('migrations_') && !name.startsWith('sqlite_') && !FORMER_CURSOR_TABLES.has(name));
    const errors = workbench.errors.list();
    const texts = new Map<string, string>();
    for (const plugin of workbench.plugins) {
      const { manifest } = plugin;
      const id = manifest.id;
      const lines: string[] = ['## Reference', ''];
      const ids = (list: string[]): string => list.map((id) => `\`${id}\``).join(', ');
      const optional = manifest.optional.length > 0 ? ` · uses when on: ${ids(manifest.optional)}` : '';
      lines.push(`Base: ${manifest.base} · tier: ${manifest.tier} · requires: ${manifest.requires.length > 0 ? ids(manifest.requires) : 'nothing'}${optional}`);
      const commands = (manifest as { commands?: Array<{ name: string } | string> }).commands ?? [];
      if (commands.length > 0) {
        lines.push('', `Commands: ${commands.map((command) => `\`workbench ${typeof command === 'string' ? command : command.name}\``).join(', ')}`);
      }
      const own = routes.filter((route) => route.base.endsWith(`:${id}`));
      if (own.length > 0) {
        lines.push('', '### Routes', '', '| base | method | path | what it does |', '| --- | --- | --- | --- |');
        for (const route of own.sort((a, b) => a.base.localeCompare(b.base) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
          lines.push(`| ${route.base.split(':')[0]} | ${route.method} | \`${cell(route.path)}\` | ${cell(route.summary)} |`);
        }
      }
      const schema = plugin.module.configSchema;
      if (schema) {
        const rows = configRows(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
        if (rows.length > 0) {
          lines.push('', `### Configuration (\`plugins.${id}\`)`, '', '| key | type | default |', '| --- | --- | --- |', ...rows);
        }
      }
      const codes = errors.filter((row) => row.owner === id);
      if (codes.length > 0) {
        lines.push('', '### Error codes', '', '| code | status |', '| --- | --- |');
        for (const row of codes.sort((a, b) => a.code.localeCompare(b.code))) lines.push(`| \`${row.code}\` | ${row.status} |`);
      }
      const prefixes = TABLE_PREFIXES[id] ?? [`${id.replace(/-/g, '_')}_`];
      const ownTables = tables.filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
      if (ownTables.length > 0) lines.push('', '### Tables', '', ...ownTables.map((name) => `- \`${name}\``));
      const events = eventsOf(plugin.directory);
      if (events.emits.length > 0 || events.listens.length > 0) {
        lines.push('', '### Events', '');
        if (events.emits.length > 0) lines.push('Emits:', '', ...events.emits.map((name) => `- \`${name}\``));
        if (events.listens.length > 0) lines.push(...(events.emits.length > 0 ? [''] : []), 'Listens to:', '', ...events.listens.map((name) => `- \`${name}\``));
      }
      texts.set(id, `${lines.join('\n')}\n`);
    }
    return texts;
  } finally {
    await workbench.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Text wrapped at 118 characters, at spaces. */
function wrapped(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > 118) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** The README with its reference part replaced (or added at the end). */
function withReference(readme: string, reference: string): string {
  const block = `${START}\n${reference}${END}`;
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start >= 0 && end > start) return `${readme.slice(0, start)}${block}${readme.slice(end + END.length)}`;
  return `${readme.trimEnd()}\n\n${block}\n`;
}

/** The config key (dotted) each environment variable sets, found by setting it and reading what changed. */
function environmentKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  const flatten = (value: unknown, prefix: string): string[] =>
    value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)) : [prefix];
  for (const variable of CONFIG_ENVIRONMENT_VARIABLES) {
    for (const key of flatten(environmentOverrides({ [variable]: variable.endsWith('_PORT') ? '1' : 'x' }, []), '')) keys.set(key, variable);
  }
  return keys;
}

/** The generated table of every kernel config key, with the plugin sections' READMEs linked. */
function configurationReference(pluginIds: readonly string[]): string {
  const variables = environmentKeys();
  const rows = configRows(z.toJSONSchema(kernelConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema).map((row) => {
    const key = /^\| `([^`]+)`/.exec(row)?.[1] ?? '';
    const variable = variables.get(key);
    return `${row} ${variable ? `\`${variable}\`` : ''} |`;
  });
  return [
    '## Every key',
    '',
    'Generated from the config schemas (`node --import tsx scripts/plugin-reference.ts`); the table above explains them.',
    '',
    '| key | type | default | environment variable |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    "Plugin sections (`plugins.<id>`), each in its plugin's README:",
    '',
    ...pluginIds.map((id) => `- [${id}](../../plugins/${id}/README.md)`),
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
const stale: string[] = [];
const references = await referenceTexts();
{
  const path = join(projectRoot, 'docs', 'reference', 'configuration.md');
  const current = readFileSync(path, 'utf8');
  const next = withReference(current, configurationReference([...references.keys()].sort()));
  if (next !== current) {
    if (check) stale.push(relative(projectRoot, path));
    else writeFileSync(path, next);
  }
}
for (const [id, reference] of references) {
  const path = join(projectRoot, 'plugins', id, 'README.md');
  if (!existsSync(join(projectRoot, 'plugins', id))) continue;
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'plugins', id, 'plugin.json'), 'utf8')) as { description: string };
  const current = existsSync(path) ? readFileSync(path, 'utf8') : `# ${id}\n\n${wrapped(manifest.description)}\n`;
  const next = withReference(current, reference);
  if (next === current) continue;
  if (check) stale.push(relative(projectRoot, path));
  else writeFileSync(path, next);
}
if (check && stale.length > 0) {
  process.stderr.write(`out of date (run node --import tsx scripts/plugin-reference.ts): ${stale.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(check ? 'plugin references: current\n' : 'plugin references: written\n');
