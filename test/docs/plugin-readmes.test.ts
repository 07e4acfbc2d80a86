/**
 * Every plugin has a README, and the reference part of each (routes, config keys and defaults, error codes, tables,
 * events, written by scripts/plugin-reference.ts from the running service) is current: a route or config key added
 * without running the script fails here, naming the README. The same holds for the generated table of every kernel
 * config key in docs/reference/configuration.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../kernel/project-root.ts';

describe('plugin READMEs', () => {
  it('every plugin folder has a README', () => {
    const plugins = readdirSync(join(projectRoot, 'plugins')).filter((name) => statSync(join(projectRoot, 'plugins', name)).isDirectory());
    expect(plugins.length).toBeGreaterThan(10);
    expect(plugins.filter((name) => !existsSync(join(projectRoot, 'plugins', name, 'README.md')))).toEqual([]);
  });

  it('the reference part of each README, and the table of config keys, is what the service registers', () => {
    const tsx = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const run = spawnSync(process.execPath, ['--import', tsx, join(projectRoot, 'scripts', 'plugin-reference.ts'), '--check'], {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);
});
