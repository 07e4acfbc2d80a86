/**
 * A fresh store with the monitor's tables for the engine tests that read and write them directly (no Workbench): a
 * temp SQLite file, or a fresh PostgreSQL schema of WORKBENCH_TEST_POSTGRES_URL, removed again after the work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage, type Storage } from '../../kernel/storage.ts';
import { monitorMigrations } from '../../plugins/monitor/monitor-tables.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';

/** Runs `work` on a fresh store of the given kind with the monitor's tables migrated, then removes the store. */
export async function withMonitorStorage(name: 'sqlite' | 'postgres', work: (storage: Storage) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-monitor-store-'));
  const schema = name === 'postgres' && testPostgresUrl ? await freshPostgresSchema(testPostgresUrl) : undefined;
  const storage = await createStorage({ url: schema?.url ?? null, dataDir: dir, sqliteFile: 'monitor.sqlite' });
  try {
    await storage.migrate('monitor', monitorMigrations(storage.dialect));
    await work(storage);
  } finally {
    await storage.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
