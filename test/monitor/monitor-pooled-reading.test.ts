// A backlog of small files is read in a worker thread, a batch per task, while the batch before it commits: through
// HTTP and the query contract, every message is counted once with the verdict and facts an in-process read gives,
// and a batch the pool cannot take (busy) is read on the event loop instead. (A file that changes while its batch is
// in flight: ingest-read-ahead.test.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkPool } from '../../kernel/workers/work-pool.ts';
import type { PooledTask } from '../../kernel/workers/pool-protocol.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { adtMessage, createWatchedInterface, startMonitorHarness, storages, waitForTotal, type MonitorHarness } from './monitor-harness.ts';

/** One file per message; every seventh lacks its MSH-9 and so fails validation. */
function writeFiles(dir: string, count: number, prefix: string): number {
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const message = adtMessage(`${prefix}${i}`, { patientId: `P${i}` });
    if (i % 7 === 3) failed++;
    writeFileSync(join(dir, `${prefix}-${i}.hl7`), i % 7 === 3 ? message.replace('ADT^A01^ADT_A01', '') : message);
  }
  return failed;
}

/** Records the operation and file count of every pooled task. */
function recordPoolTasks(): Array<{ operation: PooledTask['operation']; files: number }> {
  const tasks: Array<{ operation: PooledTask['operation']; files: number }> = [];
  const run = WorkPool.prototype.run;
  vi.spyOn(WorkPool.prototype, 'run').mockImplementation(function (this: WorkPool, task: PooledTask) {
    tasks.push({ operation: task.operation, files: task.operation === 'readFiles' ? task.files.length : 0 });
    return run.call(this, task);
  });
  return tasks;
}

describe.each(storages())('small files read in a worker thread (%s)', (storage) => {
  let h: MonitorHarness | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await h?.stop();
    h = undefined;
  });

  it('counts a backlog read in the pool once each, with the verdicts and facts of an in-process read', async () => {
    const tasks = recordPoolTasks();
    h = await startMonitorHarness({ storage, monitor: { commitBatchFiles: 100 } });
    const dir = h.folder();
    const failed = writeFiles(dir, 450, 'POOL');
    const id = await createWatchedInterface(h, 'pooled backlog', dir);
    const counted = await waitForTotal(h, id, 450);
    expect(counted).toEqual(expect.objectContaining({ messagesTotal: 450, messagesFailed: failed }));
    const pooled = tasks.filter((t) => t.operation === 'readFiles');
    expect(pooled.length).toBeGreaterThan(0);
    expect(pooled.reduce((sum, t) => sum + t.files, 0)).toBeGreaterThanOrEqual(300);

    const monitor = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    const page = await monitor.queryMessages({ interfaceIds: [id] }, { limit: 1000 });
    expect(page.messages).toHaveLength(450);
    expect(new Set(page.messages.map((m) => m.controlId))).toEqual(new Set(Array.from({ length: 450 }, (_, i) => `POOL${i}`)));
    const wrong = page.messages.filter((m) => m.isValid === (Number(m.controlId?.slice(4)) % 7 === 3));
    expect(wrong).toEqual([]);
    const sample = page.messages.find((m) => m.controlId === 'POOL11');
    expect(sample).toMatchObject({ messageType: 'ADT', triggerEvent: 'A01', sendingFacility: 'SENDFAC', patientIds: [{ id: 'P11', assigningAuthority: 'HOSP' }] });
  });

  it('reads a batch on the event loop when the pool cannot take it, every file still counted once', async () => {
    const run = WorkPool.prototype.run;
    let refused = 0;
    vi.spyOn(WorkPool.prototype, 'run').mockImplementation(function (this: WorkPool, task: PooledTask) {
      if (task.operation !== 'readFiles') return run.call(this, task);
      refused++;
      return Promise.reject(kernelErrors.create('SERVER_BUSY', { retryAfter: 1 }));
    });
    h = await startMonitorHarness({ storage, monitor: { commitBatchFiles: 100 } });
    const dir = h.folder();
    const failed = writeFiles(dir, 250, 'BUSY');
    const id = await createWatchedInterface(h, 'pool busy', dir);
    const counted = await waitForTotal(h, id, 250);
    expect(counted).toEqual(expect.objectContaining({ messagesTotal: 250, messagesFailed: failed }));
    expect(refused).toBeGreaterThan(0);
  });
});
