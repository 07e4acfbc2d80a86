// The compiled build: `scripts/build.mjs` compiles kernel and plugins once; the compiled CLI loads every plugin from
// its TypeScript-named manifest entry without a TypeScript loader, validates, generates and serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../kernel/project-root.ts';
import { send } from '../helpers/http-client.ts';

// The output folder sits inside the project so the compiled code resolves node_modules as an install would.
const outDir = mkdtempSync(join(projectRoot, '.build-test-'));
const work = mkdtempSync(join(tmpdir(), 'wb-build-'));
const cliEntry = join(outDir, 'kernel', 'cli-main.js');
const env = { ...process.env, WORKBENCH_DATA_DIR: join(work, 'data'), WORKBENCH_LOG_LEVEL: 'warn' };

function compiledCli(...args: string[]) {
  // No --import tsx: a plugin entry left as .ts would fail to load here.
  const result = spawnSync(process.execPath, [cliEntry, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--out-dir', outDir], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}, 180_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

describe('compiled build', () => {
  it('emits JavaScript and copies the non-TypeScript files plugins read beside their code', () => {
    expect(existsSync(cliEntry)).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'index.js'))).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'definitions', '2.8.json'))).toBe(true);
    expect(existsSync(join(outDir, 'plugins', 'hl7-standard', 'index.ts'))).toBe(false);
    const info = JSON.parse(readFileSync(join(outDir, 'build-info.json'), 'utf8')) as { sourceRoot: string };
    expect(join(outDir, info.sourceRoot)).toBe(projectRoot);
  });

  it('loads every plugin from its manifest entry (index.ts) as compiled JavaScript', () => {
    const help = compiledCli('help');
    expect(help.err).toBe('');
    expect(help.code).toBe(0);
    for (const command of ['validate', 'diff', 'generate', 'keys create', 'errors']) expect(help.out).toContain(command);
    // `errors` boots every plugin: each one's catalogue is listed
    const errors = compiledCli('errors');
    expect(errors.err).toBe('');
    expect(errors.code).toBe(0);
    const owners = new Set([...errors.out.matchAll(/^\| `[A-Z0-9_]+` \| \d+ \| ([a-z0-9-]+) \|/gm)].map((match) => match[1]));
    for (const owner of ['kernel', 'hl7-standard', 'fhir-standard', 'ncpdp-standard', 'message-bridge', 'monitor', 'population', 'admin']) {
      expect(owners, owner).toContain(owner);
    }
  });

  it('generates and validates a message', () => {
    const generated = compiledCli('generate', '--seed', '3');
    expect(generated.code).toBe(0);
    const file = join(work, 'adt.hl7');
    writeFileSync(file, generated.out);
    const validated = compiledCli('validate', file);
    expect(validated.out).toContain('valid');
    expect(validated.code).toBe(0);
  });

  it('serves the bases and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [cliEntry, 'start'], {
      env: { ...env, WORKBENCH_BRIDGE_PORT: '0', WORKBENCH_MONITOR_PORT: '0', WORKBENCH_POPULATION_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
        child.on('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${output}`)));
        child.stdout.on('data', () => {
          if (/Press Ctrl\+C/.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(output).toContain(`data       ${join(work, 'data')}  database ${join(work, 'data', 'workbench.sqlite')}`);
      const monitor = /monitor\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      expect(monitor).toBeDefined();
      const health = await send(monitor!, { path: '/api/health' });
      expect(health.status).toBe(200);
      expect(health.json.status).toBe('healthy');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
