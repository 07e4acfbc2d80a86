// Memory bounds of the running service (a real `workbench start` process, its RSS read from /proc): 8 parallel
// maximum-size (10 MB) validations of each standard, then the crash reproduction of 6 parallel bodies of 350,000
// bare MSH lines, are answered 200, 422 or 503 in the envelope, the service stays up, and its resident memory never
// passes the documented ceiling (kernel/workers/memory-ceiling.ts, README "Heavy work and memory").
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { serviceCliArgs } from '../helpers/cli-process.ts';
import { printedAddresses, writeServiceConfig } from '../helpers/service-process.ts';
import { kernelConfigSchema } from '../../kernel/config-schema.ts';
import { memoryCeilingMb } from '../../kernel/workers/memory-ceiling.ts';
import { send, type TestResponse } from '../helpers/http-client.ts';
import { DEFAULT_BODY_LIMIT, LARGE_MESSAGE_STANDARDS, maximumValidateBody } from '../helpers/large-messages.ts';

const THREADS = 2;
const procAvailable = existsSync('/proc/self/status');
if (!procAvailable) console.warn('[notice] /proc is absent: the memory-bound test of the running service is skipped.');

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * A refused large request is answered 503 before its body is read, and the service then closes the connection; a
 * client still writing its 10 MB body may see that close (EPIPE, ECONNRESET) before it reads the answer. Such a
 * request counts as refused: it is marked with status 0.
 */
const CLOSED_BEFORE_ANSWER: TestResponse = { status: 0, headers: {}, text: 'connection closed while sending', json: undefined };

function closedWhileSending(error: NodeJS.ErrnoException): TestResponse {
  if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return CLOSED_BEFORE_ANSWER;
  throw error;
}

function isRefused(res: TestResponse): boolean {
  return res.status === 503 || res === CLOSED_BEFORE_ANSWER;
}

function expectBoundedAnswer(res: TestResponse, label: string): void {
  if (res === CLOSED_BEFORE_ANSWER) return;
  expect([200, 422, 503], `${label}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
  // an answer, or a refusal naming the bound it met
  expect(res.status === 200 ? 'answered' : res.json.error.code).toMatch(/^(answered|PROCESSING_TIME_EXCEEDED|PROCESSING_MEMORY_EXCEEDED|SERVER_BUSY)$/);
  expect(res.json.success).toBe(res.status === 200);
}

describe.skipIf(!procAvailable)('memory bounds of the running service', () => {
  it('keeps RSS under the documented ceiling through parallel maximum-size requests of every standard', { timeout: 600_000 }, async () => {
    // A shorter budget than the default 10 s keeps the test's run time down; the ceiling does not depend on it.
    const { folder, configPath } = writeServiceConfig({ work: { threads: THREADS, timeBudgetMs: 5_000 } });
    const defaults = kernelConfigSchema.parse({}).work;
    const ceiling = memoryCeilingMb({ threads: THREADS, workerHeapMb: defaults.workerHeapMb, bodyLimitBytes: DEFAULT_BODY_LIMIT });
    const service = spawn(process.execPath, [...serviceCliArgs, 'start', '--config', configPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WORKBENCH_CONFIG: '' },
    });
    let peak = 0;
    const sampler = setInterval(() => {
      if (service.exitCode === null) peak = Math.max(peak, residentMb(service.pid as number));
    }, 100);
    try {
      let output = '';
      service.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      service.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain('Press Ctrl+C to stop.');
      const { bridge, monitor } = printedAddresses(output);
      const post = (body: Buffer) =>
        send(bridge, { path: '/api/validate', rawBody: body, headers: { 'content-type': 'application/json' } }).catch(
          closedWhileSending,
        );

      // 8 parallel maximum-size requests of each standard, all at once: 2 run, 4 wait, the rest are refused.
      const burst = LARGE_MESSAGE_STANDARDS.flatMap((standard) => {
        const body = maximumValidateBody(standard);
        return Array.from({ length: 8 }, (_, i) => post(body).then((res) => [`${standard} #${i}`, res] as const));
      });
      const burstAnswers = await Promise.all(burst);
      for (const [label, res] of burstAnswers) expectBoundedAnswer(res, label);
      expect(burstAnswers.filter(([, res]) => isRefused(res)).length).toBeGreaterThanOrEqual(24 - THREADS - 4);
      expect((await send(monitor, { path: '/api/health' })).status).toBe(200);

      // The reproduction of the crash: bare MSH lines, each one a message full of findings.
      const bareHeaders = Buffer.from(JSON.stringify({ messageContent: 'MSH|^~\\&|\n'.repeat(350_000) }));
      const answers = await Promise.all(Array.from({ length: 6 }, () => post(bareHeaders)));
      answers.forEach((res, i) => expectBoundedAnswer(res, `bare MSH #${i}`));
      expect((await send(monitor, { path: '/api/health' })).status).toBe(200);
      expect(service.exitCode).toBeNull();

      console.info(`[figure] peak RSS of the service ${Math.round(peak)} MB; documented ceiling ${ceiling} MB`);
      expect(peak, `peak RSS ${Math.round(peak)} MB, ceiling ${ceiling} MB`).toBeGreaterThan(0);
      expect(peak, `peak RSS ${Math.round(peak)} MB, ceiling ${ceiling} MB`).toBeLessThan(ceiling);
    } finally {
      clearInterval(sampler);
      if (service.exitCode === null) {
        const exited = new Promise((resolve) => service.once('exit', resolve));
        service.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
