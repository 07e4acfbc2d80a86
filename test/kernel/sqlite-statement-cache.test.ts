// The store's SQLite statements are prepared once per SQL text: a kept statement is handed out again, a busy one
// (a stream being read) never twice, the least recently used make room, and a schema change under a kept statement
// is seen. Health asks SQLite beside Kysely's connection, so a held connection never delays it.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { cachingStatements } from '../../kernel/store/sqlite-statement-cache.ts';
import { createStorage, type Storage } from '../../kernel/storage.ts';

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const database of open.splice(0)) database.close();
});

function memory() {
  const raw = new SQLiteDatabase(':memory:');
  const cached = cachingStatements(raw, 3);
  open.push(cached);
  raw.exec('create table t (id integer primary key, name text)');
  raw.exec("insert into t (name) values ('a'), ('b'), ('c')");
  return { raw, cached };
}

describe('SQLite statement cache', () => {
  it('hands out the kept statement of a SQL text again', () => {
    const { cached } = memory();
    const first = cached.prepare('select name from t where id = ?');
    expect(cached.prepare('select name from t where id = ?')).toBe(first);
    expect(first.get(2)).toEqual({ name: 'b' });
  });

  it('never hands out a statement that is busy reading a stream', () => {
    const { cached } = memory();
    const reading = cached.prepare('select name from t order by id');
    const rows = reading.iterate();
    expect((rows.next().value as { name: string }).name).toBe('a');
    const other = cached.prepare('select name from t order by id');
    expect(other).not.toBe(reading);
    expect(other.all()).toHaveLength(3);
    rows.return?.();
    expect(cached.prepare('select name from t order by id')).toBe(reading);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const { cached } = memory();
    const a = cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(a);
    const b = cached.prepare('select 2');
    cached.prepare('select 4');
    // 'select 3' was the least recently used
    expect(cached.prepare('select 2')).toBe(b);
    expect(cached.prepare('select 1')).toBe(a);
  });

  it('sees a column added after the statement was kept', () => {
    const { raw, cached } = memory();
    expect(Object.keys(cached.prepare('select * from t where id = 1').get() as object)).toEqual(['id', 'name']);
    raw.exec("alter table t add column ward text default 'W1'");
    expect(cached.prepare('select * from t where id = 1').get()).toEqual({ id: 1, name: 'a', ward: 'W1' });
  });
});

describe('health beside the store connection', () => {
  let storage: Storage | undefined;
  afterEach(async () => {
    await storage?.close();
  });

  it('answers the ping while a transaction holds the only SQLite connection', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-ping-'));
    try {
      storage = await createStorage({ url: null, dataDir, sqliteFile: 'ping.sqlite' });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const transaction = storage.db.transaction().execute(async () => {
        entered();
        await held;
      });
      await inside;
      // A ping queued behind the transaction would wait for it and give up after the timeout (false).
      expect(await storage.ping(2_000)).toBe(true);
      release();
      await transaction;
    } finally {
      await storage?.close();
      storage = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
