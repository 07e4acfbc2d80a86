// An embedded SQLite store serves one service process: a second `workbench start` on the same data folder is refused
// at start with a message naming the lock file, and the lock goes with the process however it ends (kill -9).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killed, startServiceProcess, writeServiceConfig } from '../../scripts/monitor-crash-scenario.ts';

describe('SQLite store: one service process', () => {
  it('refuses a second service on the same store, naming the lock, and serves again once the first is killed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-sqlite-lock-'));
    const { configPath, dataDir } = writeServiceConfig(root, {});
    const first = startServiceProcess(configPath);
    try {
      await first.monitorUrl;
      const second = startServiceProcess(configPath);
      const refusal = await second.monitorUrl.then(
        () => 'started',
        (error: Error) => error.message,
      );
      await killed(second.child);
      expect(refusal).toContain('Another workbench service is running on the SQLite store');
      expect(refusal).toContain(join(dataDir, 'workbench.sqlite.lock'));
      // the lock is the process's: gone with it, even after kill -9
      await killed(first.child);
      const third = startServiceProcess(configPath);
      try {
        expect(await third.monitorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        await killed(third.child);
      }
    } finally {
      await killed(first.child);
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
