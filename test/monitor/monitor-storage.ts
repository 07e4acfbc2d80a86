/**
 * A fresh store with the monitor's tables for the engine tests that read and write them directly (no Workbench): a
 * temp SQLite file, or a fresh PostgreSQL schema of WORKBENCH_TEST_POSTGRES_URL, removed again after the work.
 */
import type { Storage } from '../../kernel/storage.ts';
import { monitorMigrations } from '../../plugins/monitor/monitor-tables.ts';
import { openFreshStorage } from '../helpers/fresh-storage.ts';

/** Runs `work` on a fresh store of the given kind with the monitor's tables migrated, then removes the store. */
export async function withMonitorStorage(name: 'sqlite' | 'postgres', work: (storage: Storage) => Promise<void>): Promise<void> {
  const fresh = await openFreshStorage(name, 'wb-monitor-store-');
  try {
    await fresh.storage.migrate('monitor', monitorMigrations(fresh.storage.dialect));
    await work(fresh.storage);
  } finally {
    await fresh.remove();
  }
}
