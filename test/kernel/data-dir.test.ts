// One data folder for server and CLI: by default the platform's per-user folder, whatever the working directory;
// WORKBENCH_DATA_DIR and the config key still choose another.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceCliArgs } from '../helpers/cli-process.ts';
import { loadConfig } from '../../kernel/config-loader.ts';
import { DATA_FOLDER_NAME } from '../../kernel/data-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'wb-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function cli(cwd: string, env: Record<string, string>, ...args: string[]) {
  const { WORKBENCH_DATA_DIR: _ignored, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [...sourceCliArgs, ...args], {
    cwd,
    env: { ...inherited, WORKBENCH_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('data folder', () => {
  it('defaults to the per-user data folder, so keys made in one folder are listed from another', () => {
    const userData = join(root, 'xdg');
    const [first, second] = [join(root, 'one'), join(root, 'two')];
    for (const dir of [first, second]) mkdirSync(dir);
    const expected = join(userData, DATA_FOLDER_NAME);
    const created = cli(first, { XDG_DATA_HOME: userData }, 'keys', 'create', '--role', 'MonitorViewer', '--name', 'x');
    expect(created.code).toBe(0);
    expect(created.out).toContain(join(expected, 'workbench.sqlite'));
    const prefix = /wbk_[a-z0-9]{12}/.exec(created.out)?.[0];
    const listed = cli(second, { XDG_DATA_HOME: userData }, 'keys', 'list');
    expect(listed.out).toContain(`Keys in ${join(expected, 'workbench.sqlite')}`);
    expect(listed.out).toContain(prefix);
    expect(existsSync(join(first, 'data'))).toBe(false);
    expect(existsSync(join(second, 'data'))).toBe(false);
  });

  it('keeps WORKBENCH_DATA_DIR and the config key', () => {
    const chosen = join(root, 'chosen');
    expect(loadConfig({ env: { WORKBENCH_DATA_DIR: chosen } }).dataDir).toBe(chosen);
    expect(loadConfig({ env: {}, overrides: { dataDir: chosen } }).dataDir).toBe(chosen);
    const listed = cli(root, { WORKBENCH_DATA_DIR: chosen }, 'keys', 'list');
    expect(listed.out).toContain(`Keys in ${join(chosen, 'workbench.sqlite')}`);
  });
});
