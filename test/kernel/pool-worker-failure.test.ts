// A pooled request never waits for ever: when worker threads cannot start (their module does not load, as when the
// build is replaced under the running service), the request gets 503 WORKER_UNAVAILABLE naming the cause at once,
// health says degraded with the reason, and the pool boots a worker again by itself: once the module loads again the
// service is healthy before any further request, and the next request is served.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { poolWorkerEntry } from '../../kernel/workers/pool-worker-entry.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

let wb: TestWorkbench | undefined;
let folder: string | undefined;
afterEach(async () => {
  await wb?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
  wb = undefined;
  folder = undefined;
});

describe('worker threads that cannot start', () => {
  it('answers 503 naming the cause at once, reports it in health, and recovers without waiting for a request', async () => {
    folder = mkdtempSync(join(tmpdir(), 'broken-build-'));
    const workerFile = join(folder, 'pool-worker.mjs');
    // what a half-rebuilt dist/ looks like to a new worker: a module whose import is gone
    writeFileSync(workerFile, "import './chunk-replaced-by-the-build.js';\nexport default () => undefined;\n");
    const real = poolWorkerEntry();
    const off = { enabled: false };
    wb = await startTestWorkbench({
      pluginDirs: [join(fixturesDir, 'plugin-sets', 'worker-pool')],
      poolWorkerEntry: { filename: workerFile, ...(real.sourceEntry ? { sourceEntry: real.sourceEntry } : {}) },
      config: {
        // a budget far longer than the test may take: an answer proves the wait did not depend on it
        work: { threads: 1, inlineBelowBytes: 0, timeBudgetMs: 300_000, maxQueued: 2 },
        plugins: { 'synthetic-data': off, 'hl7-standard': off, 'fhir-standard': off, 'ncpdp-standard': off },
      },
    });
    const validate = () => wb!.call('bridge', { path: '/api/validate', body: { messageContent: 'fine', standard: 'busy' } });
    const [first, second] = await Promise.all([validate(), validate()]);
    for (const answer of [first, second]) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json.error.code).toBe('WORKER_UNAVAILABLE');
      expect(answer.json.error.message).toContain('chunk-replaced-by-the-build');
      expect(answer.headers['retry-after']).toBe('2');
    }
    const degraded = (await wb.call('monitor', { path: '/api/health' })).json;
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions).toEqual([expect.objectContaining({ key: 'worker-pool', reason: expect.stringContaining('chunk-replaced-by-the-build') })]);

    // The build is whole again: the pool notices by itself, with no request sent.
    const loader = pathToFileURL(real.filename).href;
    writeFileSync(workerFile, `export { default } from ${JSON.stringify(loader)};\n`);
    await waitFor(async () => (await wb!.call('monitor', { path: '/api/health' })).json.status === 'healthy' || undefined, 30_000, 'health healthy again');
    const served = await validate();
    expect(served.status, served.text).toBe(200);
    expect(served.json.data.isValid).toBe(true);
  }, 60_000);
});
