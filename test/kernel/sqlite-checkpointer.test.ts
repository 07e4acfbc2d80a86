import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../../kernel/store/sqlite-checkpointer.ts';
import { createStorage } from '../../kernel/storage.ts';

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-checkpoint-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SqliteCheckpointer', () => {
  it('copies the write-ahead log back into the database file from its own thread', async () => {
    const file = join(folder(), 'store.sqlite');
    const database = new SQLiteDatabase(file);
    database.pragma('journal_mode = WAL');
    database.pragma('wal_autocheckpoint = 0');
    database.exec('create table t (id integer primary key, body text)');
    const insert = database.prepare('insert into t (body) values (?)');
    database.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(500));
    })();
    const sizeBefore = statSync(file).size;
    const errors: string[] = [];
    const checkpointer = new SqliteCheckpointer(file, 60_000, (message) => errors.push(message));
    try {
      checkpointer.request();
      await expect.poll(() => checkpointer.last, { timeout: 10_000, interval: 20 }).toBeDefined();
      expect(errors).toEqual([]);
      expect(checkpointer.last?.log).toBeGreaterThan(0);
      expect(checkpointer.last?.checkpointed).toBe(checkpointer.last?.log);
      // the rows now sit in the database file itself
      expect(statSync(file).size).toBeGreaterThan(sizeBefore + 500_000);
    } finally {
      await checkpointer.stop();
      database.close();
    }
    const reopened = new SQLiteDatabase(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 2_000 });
    reopened.close();
  });

  it('keeps the store whole when the server store checkpoints in its thread, and folds the log in on close', async () => {
    const dataDir = folder();
    const storage = await createStorage({ url: null, dataDir, sqliteFile: 'workbench.sqlite', checkpointInThread: true });
    await sql`create table notes (id integer primary key, body text)`.execute(storage.db);
    for (let i = 0; i < 50; i++) await sql`insert into notes (body) values (${`note ${i}`})`.execute(storage.db);
    expect(storage.sqlite?.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await storage.close();
    expect(existsSync(join(dataDir, 'workbench.sqlite-wal'))).toBe(false);
    const again = await createStorage({ url: null, dataDir, sqliteFile: 'workbench.sqlite' });
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(again.db);
    expect(rows.rows[0].n).toBe(50);
    await again.close();
  });
});
