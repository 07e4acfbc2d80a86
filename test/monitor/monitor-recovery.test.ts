// Files the watcher was never told about, and batches the database refused, are still counted: the folder is listed
// against the ledger now and then, and a refused batch is tried again.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

async function createInterface(h: MonitorHarness, name: string, dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await h.post('/api/monitor/interfaces', { name, directoryPath: dir, ...extra });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.data.id;
}

async function total(h: MonitorHarness, id: string): Promise<number> {
  const response = await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`);
  expect(response.status).toBe(200);
  return response.json.data.messagesTotal;
}

describe('recovery of files no event brought', () => {
  it('finds files by listing the folder when the watcher reports nothing', async () => {
    // polling every ten minutes: the watcher itself will not see these files during the test
    const h = await startMonitorHarness({ monitor: { pollingIntervalMs: 600_000, rescanIntervalMs: 300 } });
    try {
      const dir = h.folder();
      const id = await createInterface(h, 'slow share', dir, { usePolling: true });
      for (let i = 0; i < 5; i++) writeFileSync(join(dir, `lost${i}.hl7`), adtMessage(`LOST${i}`));
      await waitFor(async () => (await total(h, id)) === 5, 20_000, 'the 5 files found by listing');
      // listing again (quiesce lists every folder once more) never counts a file twice
      await quiesceMonitor(h.wb.workbench);
      const service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
      expect(await service.storedMessageCounts(id)).toEqual({ messages: 5, failed: 0, files: 5, interfaces: 1 });
    } finally {
      await h.stop();
    }
  });

  it('tries a batch again when the database refused it, and counts it once', async () => {
    const dataDir = join(tmpdir(), `workbench-refused-${process.pid}-${Date.now()}`);
    const h = await startMonitorHarness({ config: { dataDir } });
    const other = new SQLiteDatabase(join(dataDir, 'workbench.sqlite'));
    try {
      const dir = h.folder();
      const id = await createInterface(h, 'locked', dir);
      // another program holds the write lock past the service's busy timeout: the first commit fails
      other.exec('BEGIN EXCLUSIVE');
      for (let i = 0; i < 3; i++) writeFileSync(join(dir, `held${i}.hl7`), adtMessage(`HELD${i}`));
      await new Promise((resolve) => setTimeout(resolve, 6500));
      other.exec('ROLLBACK');
      await waitFor(async () => (await total(h, id)) === 3, 30_000, 'the 3 files after the lock was released');
      const service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
      expect(await service.storedMessageCounts(id)).toEqual({ messages: 3, failed: 0, files: 3, interfaces: 1 });
    } finally {
      other.close();
      await h.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
