// Storage over SQLite and over the real PostgreSQL server (WORKBENCH_TEST_POSTGRES_URL), with namespaced migrations.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { createStorage, type Storage } from '../../kernel/storage.ts';
import { freshPostgresSchema } from '../helpers/postgres-schema.ts';

const postgresUrl = process.env.WORKBENCH_TEST_POSTGRES_URL;
if (!postgresUrl) {
  console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: PostgreSQL storage tests are skipped.');
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const dialects: Array<[string, () => Promise<Storage>]> = [
  ['sqlite', () => createStorage({ url: null, dataDir: mkdtempSync(join(tmpdir(), 'wb-sqlite-')), sqliteFile: 'x.sqlite' })],
];
if (postgresUrl) {
  dialects.push([
    'postgres',
    async () => {
      const schema = await freshPostgresSchema(postgresUrl);
      cleanups.push(schema.drop);
      return createStorage({ url: schema.url, dataDir: '', sqliteFile: '' });
    },
  ]);
}

describe.each(dialects)('storage on %s', (name, create) => {
  it('runs namespaced migrations once each, keeping plugins apart', async () => {
    const storage = await create();
    try {
      expect(storage.dialect).toBe(name);
      let runs = 0;
      const migrations = {
        '001_items': {
          async up(db: Kysely<unknown>) {
            runs++;
            await db.schema
              .createTable('alpha_items')
              .addColumn('id', 'integer', (c) => c.primaryKey())
              .addColumn('label', 'varchar(50)')
              .execute();
          },
        },
      };
      await storage.migrate('alpha', migrations);
      await storage.migrate('alpha', migrations);
      expect(runs).toBe(1);
      // Another plugin may use the same migration name without clashing.
      await storage.migrate('beta', {
        '001_items': {
          async up(db: Kysely<unknown>) {
            await db.schema.createTable('beta_items').addColumn('id', 'integer').execute();
          },
        },
      });
      await storage.db.insertInto('alpha_items').values({ id: 1, label: 'one' }).execute();
      const rows = await storage.db.selectFrom('alpha_items').selectAll().execute();
      expect(rows).toEqual([{ id: 1, label: 'one' }]);
      expect(await storage.ping()).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('reports a failed migration naming it and the namespace', async () => {
    const storage = await create();
    try {
      await expect(
        storage.migrate('gamma', {
          '001_broken': {
            async up(db) {
              await sql`create table definitely not valid sql`.execute(db);
            },
          },
        }),
      ).rejects.toThrow(/Migration 001_broken of gamma failed/);
    } finally {
      await storage.close();
    }
  });

  it('answers ping false once closed; close is safe twice', async () => {
    const storage = await create();
    await storage.close();
    expect(await storage.ping()).toBe(false);
    await storage.close();
  });
});

it('uses WAL journaling for SQLite', async () => {
  const storage = await createStorage({ url: null, dataDir: mkdtempSync(join(tmpdir(), 'wb-wal-')), sqliteFile: 'w.sqlite' });
  try {
    const result = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
    expect(result.rows[0].journal_mode).toBe('wal');
  } finally {
    await storage.close();
  }
});

it('fails clearly when PostgreSQL cannot be reached', async () => {
  await expect(
    createStorage({ url: 'postgres://postgres@127.0.0.1:1/none', dataDir: '', sqliteFile: '' }),
  ).rejects.toThrow(/Cannot reach the PostgreSQL server/);
});

describe('data folder permissions', () => {
  it('creates the data folder 0700 and the database and its journal files 0600', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'wb-perm-')), 'nested', 'data');
    const storage = await createStorage({ url: null, dataDir, sqliteFile: 'workbench.sqlite' });
    try {
      await sql`create table probe (id integer primary key)`.execute(storage.db);
      await sql`insert into probe (id) values (1)`.execute(storage.db);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dataDir);
      expect(files).toEqual(expect.arrayContaining(['workbench.sqlite', 'workbench.sqlite-wal']));
      for (const file of files) expect(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600);
    } finally {
      await storage.close();
    }
  });
});
