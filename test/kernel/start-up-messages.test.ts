// What start-up and credentials say when something is off: a port in use names the base, the port and the variable
// that moves it; a key from another data folder and a mistyped token get a 401 that says which; a data folder
// readable by others is tightened to 0700 and the start line names the folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { sourceCliArgs } from '../helpers/cli-process.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';

const root = mkdtempSync(join(tmpdir(), 'wb-start-up-'));
let wb: TestWorkbench;
let blocker: Server;
let blockedPort: number;

beforeAll(async () => {
  wb = await startTestWorkbench({ skipBundledPlugins: true, pluginDirs: [join(fixturesDir, 'plugins')] });
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  blockedPort = (blocker.address() as { port: number }).port;
});
afterAll(async () => {
  await wb.stop();
  await new Promise((resolve) => blocker.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const admin = (token: string) => ({ path: '/api/sample/admin', headers: { authorization: `Bearer ${token}` } });

/** Starts `workbench start` and resolves with its output once it exits or has printed its addresses. */
function startCli(env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...sourceCliArgs, 'start'], {
      env: { ...process.env, WORKBENCH_LOG_LEVEL: 'warn', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl+C')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('a port already in use', () => {
  it('names the base, the address and the variable that moves it, with no stack trace', async () => {
    const failed = await startTestWorkbench({
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugins')],
      config: { servers: { monitor: { port: blockedPort } } },
    }).catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    const message = (failed as Error).message;
    expect(message).toContain(`The monitor base cannot listen on 127.0.0.1:${blockedPort}: the port is already in use`);
    expect(message).toContain('WORKBENCH_MONITOR_PORT');
  });

  it('is one line on the CLI, exit 1', async () => {
    const result = await startCli({
      WORKBENCH_DATA_DIR: join(root, 'port-data'),
      WORKBENCH_BRIDGE_PORT: String(blockedPort),
      WORKBENCH_MONITOR_PORT: '0',
      WORKBENCH_POPULATION_PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.err).toContain(`bridge base cannot listen on 127.0.0.1:${blockedPort}`);
    expect(result.err).toContain('set WORKBENCH_BRIDGE_PORT');
    expect(result.err).not.toMatch(/\n\s+at /);
    expect(result.err).not.toContain('EADDRINUSE');
  }, 60_000);
});

describe('refused credentials say why', () => {
  it('a key whose prefix this store does not know: made in another data folder?', async () => {
    const res = await wb.call('monitor', admin(`wbk_aaaaaaaaaaaa_${'A'.repeat(43)}`));
    expect(res.status).toBe(401);
    expect(res.json.error.message).toContain('Created in another data folder?');
  });

  it('a known prefix with the wrong secret, a revoked key and a cut key each get their own reason', async () => {
    const keys = resolveService(wb.workbench.container, TOKENS.ApiKeys);
    const created = await keys.create('MonitorAdmin', 'ops');
    const wrong = await wb.call('monitor', admin(`${created.prefix}_${'B'.repeat(43)}`));
    expect(wrong.json.error.message).toContain('the secret does not match');
    const cut = await wb.call('monitor', admin(created.key.slice(0, 30)));
    expect(cut.json.error.message).toContain('The API key is malformed');
    await keys.revoke(created.prefix);
    const revoked = await wb.call('monitor', admin(created.key));
    expect(revoked.json.error.message).toBe('The API key has been revoked.');
  });

  it('a token that is neither an API key nor a JWT says so', async () => {
    const res = await wb.call('monitor', admin('nope'));
    expect(res.status).toBe(401);
    expect(res.json.error.message).toContain('not an API key (wbk_...) or a JWT');
    expect(res.json.error.message).not.toContain('No token verifier');
  });
});

describe('the data folder', () => {
  it.skipIf(process.platform === 'win32')('tightens an existing folder readable by others to 0700 and names it on the start line', async () => {
    const dataDir = join(root, 'open-data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const result = await startCli({
      WORKBENCH_DATA_DIR: dataDir,
      WORKBENCH_BRIDGE_PORT: '0',
      WORKBENCH_MONITOR_PORT: '0',
      WORKBENCH_POPULATION_PORT: '0',
    });
    expect(result.out).toContain(`data       ${dataDir}  database ${join(dataDir, 'workbench.sqlite')}`);
    // The service logs (JSON lines) to stdout; a one-shot command would log to stderr.
    expect(result.out + result.err).toContain('its mode is now 0700');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }, 60_000);
});
