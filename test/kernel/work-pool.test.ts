// The worker pool through HTTP: large inputs run in worker threads and answer as they would in-process; work over
// its time budget or its worker's heap limit gets 422 and the worker is replaced; a full queue gets 503 with
// Retry-After; stopping the service terminates running work at once.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { largeMessage, LARGE_MESSAGE_STANDARDS } from '../helpers/large-messages.ts';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { WorkPool } from '../../kernel/workers/work-pool.ts';
import type { PluginManifest } from '../../kernel/plugin-host/plugin-manifest.ts';

const busyPlugins = [join(fixturesDir, 'plugin-sets', 'worker-pool')];

/**
 * A test instance with only the busy standard (the shipped standards are off, so a worker boots in a small heap),
 * where every validate goes to a one-thread pool with a short budget.
 */
function startBusyWorkbench(work: Record<string, unknown> = {}): Promise<TestWorkbench> {
  const off = { enabled: false };
  return startTestWorkbench({
    pluginDirs: busyPlugins,
    config: {
      work: { threads: 1, inlineBelowBytes: 0, timeBudgetMs: 1_500, maxQueued: 1, ...work },
      plugins: { 'synthetic-data': off, 'hl7-standard': off, 'fhir-standard': off, 'ncpdp-standard': off },
    },
  });
}

function validate(wb: TestWorkbench, messageContent: string, extra: Record<string, unknown> = {}) {
  return wb.call('bridge', { path: '/api/validate', body: { messageContent, standard: 'busy', ...extra } });
}

describe('worker pool', () => {
  it('validates and diffs large messages of every standard in a worker with the same result as in-process', async () => {
    const wb = await startTestWorkbench({ config: { work: { inlineBelowBytes: 64 * 1024, threads: 1 } } });
    try {
      const registry = resolveService(wb.workbench.container, TOKENS.Standards);
      for (const standard of LARGE_MESSAGE_STANDARDS) {
        const adapter = registry.get(standard);
        const message = largeMessage(standard, 200_000);
        const res = await wb.call('bridge', { path: '/api/validate', body: { messageContent: message } });
        expect(res.status).toBe(200);
        const inProcess = adapter?.validate(message, { mode: 'strict' });
        expect(res.json.data).toEqual(JSON.parse(JSON.stringify({ ...inProcess, standard })));
        const other = largeMessage(standard, 210_000);
        const diff = await wb.call('bridge', { path: '/api/diff', body: { leftMessage: message, rightMessage: other } });
        expect(diff.status).toBe(200);
        const diffInProcess = adapter?.diff(message, other, { ignoredFields: [] });
        expect(diff.json.data).toEqual(JSON.parse(JSON.stringify({ ...diffInProcess, standard })));
      }
      // A catalogue error raised in the worker keeps its status and code.
      const unknownProfile = await wb.call('bridge', {
        path: '/api/validate',
        body: { messageContent: largeMessage('hl7', 100_000), profile: 'no-such-profile' },
      });
      expect(unknownProfile.status).toBe(400);
      expect(unknownProfile.json.error.code).toBe('PROFILE_NOT_FOUND');
    } finally {
      await wb.stop();
    }
  });

  it('runs diffs with ignoredFields patterns in a worker: a pathological pattern cannot stall the service', async () => {
    const wb = await startTestWorkbench({ config: { work: { threads: 1, timeBudgetMs: 2_000 } } });
    try {
      const header = (inner: string) =>
        `<?xml version="1.0" encoding="UTF-8"?><Message xmlns="http://www.ncpdp.org/schema/SCRIPT"><Header>${inner}</Header><Body><Status/></Body></Message>`;
      let nested: Record<string, unknown> = { url: 'http://example.org/leaf', valueString: 'x' };
      for (let depth = 0; depth < 40; depth++) nested = { url: `http://example.org/level-${depth}`, extension: [nested] };
      const patient = (family: string) => JSON.stringify({ resourceType: 'Patient', id: 'p1', name: [{ family }], extension: [nested] });
      const cases = [
        {
          leftMessage: header('<a>1</a>'.repeat(3_000)),
          rightMessage: header('<a>2</a>'.repeat(3_000)),
          standard: 'ncpdp',
          ignoredFields: ['Header.*a*a*a*a!'],
        },
        { leftMessage: patient('Left'), rightMessage: patient('Right'), standard: 'fhir', ignoredFields: ['**.**.**.**.**.nomatch'] },
      ];
      for (const body of cases) {
        const diff = wb.call('bridge', { path: '/api/diff', body });
        // The event loop is free while the worker matches: health answers before the diff does or right after it.
        expect((await wb.call('monitor', { path: '/api/health' })).status).toBe(200);
        const answer = await diff;
        // Patterns are matched step by step (kernel/lib/paths/path-pattern.ts), so even these answer well within the budget.
        expect(answer.status, `${body.standard}: ${answer.text.slice(0, 200)}`).toBe(200);
        expect(answer.json.data.totalDifferences, body.standard).toBe(body.standard === 'ncpdp' ? 3_000 : 1);
      }
    } finally {
      await wb.stop();
    }
  });

  it('runs large work off the main thread and small work on it', async () => {
    const wb = await startBusyWorkbench({ inlineBelowBytes: 1_000 });
    try {
      const small = await validate(wb, 'x'.repeat(10));
      expect(small.json.data.summary.controlId).toBe(`thread ${threadId}`);
      const large = await validate(wb, 'x'.repeat(5_000));
      expect(large.status).toBe(200);
      expect(large.json.data.summary).toEqual({ controlId: expect.stringMatching(/^thread \d+$/), messageCount: 5_000 });
      expect(large.json.data.summary.controlId).not.toBe(`thread ${threadId}`);
    } finally {
      await wb.stop();
    }
  });

  it('answers an adapter\'s catalogue error from a worker with its own status and code', async () => {
    const wb = await startBusyWorkbench();
    try {
      const res = await validate(wb, 'unknown-profile', { profile: 'nope' });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        success: false,
        data: null,
        error: { code: 'BUSY_PROFILE_UNKNOWN', message: 'No busy profile named "nope".' },
      });
    } finally {
      await wb.stop();
    }
  });

  it('stops work over its time budget with 422, replaces the worker and keeps serving', async () => {
    const wb = await startBusyWorkbench();
    try {
      const res = await validate(wb, 'spin');
      expect(res.status).toBe(422);
      expect(res.json.error).toEqual({
        code: 'PROCESSING_TIME_EXCEEDED',
        message: 'The work took longer than its time budget of 1500 ms and was stopped; send a smaller input.',
      });
      const after = await validate(wb, 'fine');
      expect(after.status).toBe(200);
      expect(after.json.data.isValid).toBe(true);
    } finally {
      await wb.stop();
    }
  });

  it('stops work over its worker\'s heap limit with 422 and keeps serving', async () => {
    const wb = await startBusyWorkbench({ workerHeapMb: 128, timeBudgetMs: 60_000 });
    try {
      const res = await validate(wb, 'grow');
      expect(res.status).toBe(422);
      expect(res.json.error.code).toBe('PROCESSING_MEMORY_EXCEEDED');
      expect(res.json.error.message).toContain('(128 MB)');
      const after = await validate(wb, 'fine');
      expect(after.status).toBe(200);
    } finally {
      await wb.stop();
    }
  });

  it('refuses heavy requests beyond the running and the queued ones with 503 and Retry-After', async () => {
    const wb = await startBusyWorkbench({ timeBudgetMs: 3_000, inlineBelowBytes: 100 });
    try {
      const spins = [1, 2, 3].map((n) => validate(wb, `spin ${n} ${'.'.repeat(200)}`));
      // One runs, one waits, the third is refused at once: it is the first answer.
      const refused = await Promise.race(spins);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json.error.code).toBe('SERVER_BUSY');
      // Small bodies are not gated: one is answered while the large ones still run and wait.
      const small = await validate(wb, 'fine');
      expect(small.status).toBe(200);
      expect(small.json.data.summary.controlId).toBe(`thread ${threadId}`);
      expect((await Promise.all(spins)).map((res) => res.status).sort()).toEqual([422, 422, 503]);
    } finally {
      await wb.stop();
    }
  });

  it('generates many messages in a worker', async () => {
    const wb = await startBusyWorkbench();
    try {
      const res = await wb.call('bridge', { path: '/api/generate', body: { standard: 'busy', count: 50 } });
      expect(res.status).toBe(200);
      expect(res.json.data).toHaveLength(50);
      expect(res.json.data[0]).not.toBe(`busy 0 from thread ${threadId}`);
    } finally {
      await wb.stop();
    }
  });

  it('stops while a worker is busy: the spinning work is terminated and the caller answered or disconnected', async () => {
    const wb = await startBusyWorkbench({ timeBudgetMs: 600_000 });
    const pending = validate(wb, 'spin').catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The spin never ends by itself: stop() completing and the caller getting an answer prove it was terminated.
    await wb.stop();
    const outcome = await pending;
    expect(['disconnected', 503]).toContain(outcome instanceof Error ? 'disconnected' : outcome.status);
  });

  describe('idle workers', () => {
    const directory = join(busyPlugins[0], 'busy-standard');
    const manifest = JSON.parse(readFileSync(join(directory, 'plugin.json'), 'utf8')) as PluginManifest;
    function pool(keepWarm: boolean): WorkPool {
      return new WorkPool({
        threads: 1,
        timeBudgetMs: 5_000,
        maxQueued: 1,
        workerHeapMb: 128,
        keepWarm,
        idleTimeoutMs: 1_000,
        boot: { plugins: [{ manifest, directory }], sections: {}, profiles: [], logLevel: 'silent' },
        logger: pino({ level: 'silent' }),
      });
    }
    const task = { operation: 'validate' as const, standard: 'busy', content: 'x', options: { mode: 'strict' as const } };

    it('boots a worker on first use and ends it after idleTimeoutMs without work; the next task boots one again', async () => {
      const work = pool(false);
      try {
        expect(work.threadsAlive).toBe(0);
        expect(await work.run<{ isValid: boolean }>(task)).toMatchObject({ isValid: true });
        expect(work.threadsAlive).toBe(1);
        await expect.poll(() => work.threadsAlive, { timeout: 15_000, interval: 100 }).toBe(0);
        expect(await work.run<{ isValid: boolean }>(task)).toMatchObject({ isValid: true });
        expect(work.threadsAlive).toBe(1);
      } finally {
        await work.close();
      }
    });

    it('keeps the workers of a warm pool however long they idle', async () => {
      const work = pool(true);
      const cold = pool(false);
      try {
        work.warm();
        expect(work.threadsAlive).toBe(1);
        expect(await work.run<{ isValid: boolean }>(task)).toMatchObject({ isValid: true });
        // a pool not kept warm, idle since after the warm one, ends its worker after idleTimeoutMs: by then the warm
        // pool has idled longer than that and still holds its worker
        expect(await cold.run<{ isValid: boolean }>(task)).toMatchObject({ isValid: true });
        await expect.poll(() => cold.threadsAlive, { timeout: 15_000, interval: 100 }).toBe(0);
        expect(work.threadsAlive).toBe(1);
      } finally {
        await work.close();
        await cold.close();
      }
    });
  });
});
