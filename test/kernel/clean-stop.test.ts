// `npm start` delivers SIGTERM and SIGINT to the service: signalling the PID that `npm start` returns stops the
// service within its 5 s shutdown budget even while a worker is validating a 10 MB message (the CLI exits 1 when the
// budget is exceeded, 0 after a clean stop), and the ports are free afterwards: no orphan keeps them.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { projectRoot } from '../../kernel/config-loader.ts';
import { send } from '../helpers/http-client.ts';
import { maximumValidateBody } from '../helpers/large-messages.ts';
import { portIsFree, printedAddresses, writeServiceConfig } from '../helpers/service-process.ts';

describe('clean stop through npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops the service on %s to the npm process while a validation runs, leaving no orphan', async (signal) => {
    const { folder, configPath } = writeServiceConfig({ work: { threads: 1, timeBudgetMs: 120_000 } });
    const npm = spawn('npm', ['start', '--silent', '--', '--config', configPath], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WORKBENCH_CONFIG: '' },
      // Its own process group, so a failed run can still remove everything it started.
      detached: true,
    });
    try {
      let output = '';
      npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('Press Ctrl+C to stop.');
      const urls = printedAddresses(output);
      expect(Object.keys(urls).sort()).toEqual(['bridge', 'monitor', 'population']);

      // A 10 MB validation is handed to a worker; the signal arrives while it runs.
      const validation = send(urls.bridge, {
        path: '/api/validate',
        rawBody: maximumValidateBody('hl7'),
        headers: { 'content-type': 'application/json' },
      }).catch((error: Error) => error);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(npm.pid).toBeGreaterThan(0);
      const signalled = performance.now();
      process.kill(npm.pid as number, signal);

      const code = await Promise.race([
        exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 30_000)),
      ]);
      expect(code, output).toBe(0);
      console.info(`[figure] ${signal} to npm start: stopped in ${Math.round(performance.now() - signalled)} ms during a 10 MB validation`);
      await validation;
      for (const url of Object.values(urls)) expect(await portIsFree(Number(new URL(url).port)), url).toBe(true);
    } finally {
      try {
        process.kill(-(npm.pid as number), 'SIGKILL');
      } catch {
        // the group is already gone
      }
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
