/**
 * A fresh store for engine tests that read and write tables directly (no Workbench): a temp SQLite file, or a fresh
 * PostgreSQL schema of WORKBENCH_TEST_POSTGRES_URL. `remove()` closes it and removes what was made for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage, type Storage } from '../../kernel/storage.ts';
import { freshPostgresSchema, testPostgresUrl } from './postgres-schema.ts';

/** An opened fresh store and what removes it. */
export interface FreshStorage {
  storage: Storage;
  /** Closes the store, then drops its schema or removes its folder. */
  remove(): Promise<void>;
}

/** Opens a fresh store of the kind (PostgreSQL only when the test server is given); `prefix` names its temp folder. */
export async function openFreshStorage(kind: 'sqlite' | 'postgres', prefix: string): Promise<FreshStorage> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const schema = kind === 'postgres' && testPostgresUrl ? await freshPostgresSchema(testPostgresUrl) : undefined;
  const storage = await createStorage({ url: schema?.url ?? null, dataDir: dir, sqliteFile: 'workbench.db' });
  return {
    storage,
    async remove() {
      await storage.close();
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
