// CLI commands are declared in plugin manifests: `help` lists them without loading any plugin, a plugin's command
// boots only that plugin (with the engine plugins), and a command the manifest and the code disagree on is a boot
// error naming it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../kernel/cli.ts';
import { writeServiceConfig } from '../helpers/service-process.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Writes a plugin folder: its manifest (with `commands`) and an entry module with the given body. */
function writePlugin(root: string, id: string, commands: Array<{ name: string; usage: string; summary: string }>, entry: string): void {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  const manifest = { id, version: '1.0.0', description: `test plugin ${id}`, base: 'none', tier: 'free', requires: [], entry: 'index.ts', commands };
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'index.ts'), entry);
}

/** A config with the bundled plugins plus the plugin folder `root`. */
function configWith(root: string): string {
  return writeServiceConfig({ logging: { level: 'silent' }, pluginDirs: [root] }).configPath;
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const saying = (word: string) =>
  `export const plugin = { register(context) { context.registerCommand({ name: '${word}', async run(_args, io) { io.out('${word} ran'); return 0; } }); } };\n`;

describe('commands declared in plugin manifests', () => {
  it('lists a command without loading its plugin, and runs a command without loading the other plugins', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-cli-manifest-'));
    roots.push(root);
    // this plugin's module cannot even be imported: help and the other plugin's command must not need it
    writePlugin(root, 'broken-tool', [{ name: 'broken', usage: 'broken', summary: 'a command whose plugin cannot load' }], "throw new Error('loaded although no command of it ran');\n");
    writePlugin(root, 'hello-tool', [{ name: 'hello', usage: 'hello', summary: 'says hello' }], saying('hello'));
    const config = configWith(root);
    const help = await run(['help', '--config', config]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/broken\s+a command whose plugin cannot load/);
    expect(help.out).toMatch(/hello\s+says hello/);
    const usage = await run(['broken', '--help', '--config', config]);
    expect(usage.out).toContain('a command whose plugin cannot load');
    const hello = await run(['hello', '--config', config]);
    expect(hello, hello.err).toMatchObject({ code: 0, out: 'hello ran' });
    const broken = await run(['broken', '--config', config]);
    expect(broken.code).toBe(78);
    expect(broken.err).toContain('loaded although no command of it ran');
  });

  it('refuses at boot a command the manifest does not declare, and a declared command never registered', async () => {
    const undeclared = mkdtempSync(join(tmpdir(), 'wb-cli-undeclared-'));
    roots.push(undeclared);
    writePlugin(undeclared, 'sly-tool', [{ name: 'sly', usage: 'sly', summary: 'declared' }], `${saying('sly')}`.replace("name: 'sly'", "name: 'other'"));
    const first = await run(['sly', '--config', configWith(undeclared)]);
    expect(first.code).toBe(1);
    expect(first.err).toContain('CLI command "other" is not declared in the "commands" of its plugin.json');

    const missing = mkdtempSync(join(tmpdir(), 'wb-cli-missing-'));
    roots.push(missing);
    writePlugin(missing, 'lazy-tool', [{ name: 'lazy', usage: 'lazy', summary: 'declared only' }], 'export const plugin = { register() {} };\n');
    const second = await run(['lazy', '--config', configWith(missing)]);
    expect(second.code).toBe(1);
    expect(second.err).toContain('declares the command(s) lazy, which it did not register');
  });
});
