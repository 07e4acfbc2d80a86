// The workbench CLI: keys create|list|revoke, plugin subcommands, help and bad input.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../kernel/cli.ts';
import { fixturesDir } from '../helpers/test-workbench.ts';
import { writeServiceConfig } from '../helpers/service-process.ts';

/** A config file pointing at a fresh data dir and the fixture plugins only. */
function fixtureConfig(): string {
  return writeServiceConfig({ logging: { level: 'silent' }, pluginDirs: [join(fixturesDir, 'plugins')] }).configPath;
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('workbench help', () => {
  it('lists every command, usage and summary in aligned columns', async () => {
    const help = await run(['help', '--config', fixtureConfig()]);
    expect(help.code).toBe(0);
    const rows = help.out.split('\n').filter((line) => line.startsWith('  ') && !line.startsWith('   '));
    const names = rows.map((line) => line.trim().split(/\s{2,}/)[0]);
    for (const expected of ['start', 'help', 'errors', 'keys create', 'keys list', 'keys revoke', 'sample-count']) {
      expect(names.some((name) => name.startsWith(expected)), expected).toBe(true);
    }
    // Every summary sharing a line with its usage starts in the same column.
    const columns = new Set(
      rows.filter((line) => /\S\s{2,}\S/.test(line.trim())).map((line) => line.search(/(?<=\S)\s{2,}\S/) + line.slice(line.search(/(?<=\S)\s{2,}\S/)).search(/\S/)),
    );
    expect(columns.size).toBe(1);
  });
});

describe('workbench keys', () => {
  it('creates a key shown once, lists it without the secret, revokes it', async () => {
    const config = fixtureConfig();
    const created = await run(['keys', 'create', '--role', 'MonitorAdmin', '--name', 'ci', '--config', config]);
    expect(created.code).toBe(0);
    const key = created.out.match(/wbk_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/)?.[0];
    expect(key).toBeDefined();
    const prefix = key?.split('_').slice(0, 2).join('_') ?? '';
    const listed = await run(['keys', 'list', '--config', config]);
    expect(listed.out).toContain(prefix);
    expect(listed.out).toContain('MonitorAdmin');
    expect(listed.out).not.toContain(key);
    const revoked = await run(['keys', 'revoke', prefix, '--config', config]);
    expect(revoked.code).toBe(0);
    const again = await run(['keys', 'revoke', prefix, '--config', config]);
    expect(again.code).toBe(1);
    const json = JSON.parse((await run(['keys', 'list', '--json', '--config', config])).out);
    expect(json[0].revokedAt).not.toBeNull();
  });

  it('refuses keys create without --role', async () => {
    const result = await run(['keys', 'create', '--config', fixtureConfig()]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--role/);
  });
});

describe('workbench commands', () => {
  it('runs a plugin subcommand', async () => {
    const result = await run(['sample-count', '--config', fixtureConfig()]);
    expect(result).toMatchObject({ code: 0, out: 'notes: 0' });
  });

  it('prints help listing kernel and plugin commands, and refuses unknown commands', async () => {
    const config = fixtureConfig();
    const help = await run(['help', '--config', config]);
    expect(help.out).toMatch(/start/);
    expect(help.out).toMatch(/keys create/);
    expect(help.out).toMatch(/sample-count/);
    const unknown = await run(['frobnicate', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown command "frobnicate"/);
  });

  it('reports a bad config file with exit code 78', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-cli-bad-'));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ tier: 'platinum' }));
    const result = await run(['keys', 'list', '--config', join(dir, 'c.json')]);
    expect(result.code).toBe(78);
    expect(result.err).toMatch(/tier/);
  });
});
