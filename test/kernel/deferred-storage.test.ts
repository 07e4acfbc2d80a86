// Storage of one-shot commands: nothing opens until asked; queued migrations then run in order; using `db` before
// that is a clear error.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeferredStorage } from '../../kernel/store/deferred-storage.ts';
import { createStorage } from '../../kernel/storage.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function deferredInTemp() {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-deferred-'));
  dirs.push(dataDir);
  let opened = 0;
  const storage = createDeferredStorage('sqlite', async () => {
    opened++;
    return createStorage({ url: null, dataDir, sqliteFile: 'deferred.sqlite' });
  });
  return { storage, dataDir, opens: () => opened };
}

describe('deferred storage', () => {
  it('opens nothing until asked, then runs the queued migrations in order and forwards db', async () => {
    const { storage, dataDir, opens } = deferredInTemp();
    const order: string[] = [];
    await storage.migrate('first', {
      '001': {
        async up(db) {
          order.push('first');
          await db.schema.createTable('first_notes').addColumn('id', 'integer').execute();
        },
      },
    });
    await storage.migrate('second', {
      '001': {
        async up(db) {
          order.push('second');
          await db.insertInto('first_notes').values({ id: 7 }).execute();
        },
      },
    });
    expect(opens()).toBe(0);
    expect(existsSync(join(dataDir, 'deferred.sqlite'))).toBe(false);
    expect(() => storage.db.selectFrom('first_notes')).toThrow(/database is not open/);
    expect(() => storage.sql).toThrow(/database is not open/);
    await storage.open();
    await storage.open();
    expect(opens()).toBe(1);
    expect(order).toEqual(['first', 'second']);
    const rows = await storage.db.selectFrom('first_notes').selectAll().execute();
    expect(rows).toEqual([{ id: 7 }]);
    const counted = await storage.sql<{ n: number }>`select count(*) as n from first_notes`.execute(storage.db);
    expect(counted.rows[0].n).toBe(1);
    expect(await storage.ping()).toBe(true);
    await storage.close();
    await storage.close();
  });

  it('opens at once for migrations whose tables are used next, and runs later ones directly', async () => {
    const { storage, opens } = deferredInTemp();
    await storage.migrate('kernel', {
      '001': { up: async (db) => void (await db.schema.createTable('kernel_things').addColumn('id', 'integer').execute()) },
    });
    expect(opens()).toBe(0);
    await storage.migrateNow('plugin', {
      '001': { up: async (db) => void (await db.insertInto('kernel_things').values({ id: 1 }).execute()) },
    });
    expect(opens()).toBe(1);
    await storage.migrateNow('late', {
      '001': { up: async (db) => void (await db.insertInto('kernel_things').values({ id: 2 }).execute()) },
    });
    expect(await storage.db.selectFrom('kernel_things').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
    await storage.close();
  });

  it('closes without ever opening', async () => {
    const { storage, dataDir, opens } = deferredInTemp();
    await storage.close();
    expect(opens()).toBe(0);
    expect(existsSync(join(dataDir, 'deferred.sqlite'))).toBe(false);
  });
});
