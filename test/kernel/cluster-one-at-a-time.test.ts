// Work one node at a time across a team: two nodes (two connection pools) on one PostgreSQL store never run work of
// the same name together, run work of different names side by side, run it anyway past the wait for a turn held too
// long, and let go when work fails; on SQLite (one process) the work runs at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Cluster } from '../../kernel/cluster/cluster.ts';
import { createStorage, type Storage } from '../../kernel/storage.ts';
import { openFreshStorage } from '../helpers/fresh-storage.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: one-at-a-time work across nodes on PostgreSQL is not tested.');

const logger = pino({ level: 'silent' });

function clusterOn(storage: Storage, name: string, turnWaitMs?: number): Cluster {
  return new Cluster(storage, { name, leaseMs: 10_000, version: 'test', turnWaitMs }, logger);
}

/** Work that records how many runs of it are under way at once, lasting `ms`. */
function recorder() {
  let active = 0;
  let most = 0;
  const runs: string[] = [];
  return {
    work: (who: string, ms: number) => async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, ms));
      runs.push(who);
      active--;
      return who;
    },
    most: () => most,
    runs,
  };
}

describe('one at a time on SQLite', () => {
  it('runs the work at once and answers its value', async () => {
    const fresh = await openFreshStorage('sqlite', 'wb-one-at-a-time-');
    try {
      const cluster = clusterOn(fresh.storage, 'solo');
      const seen = recorder();
      expect(await Promise.all([cluster.oneAtATime('feed', seen.work('a', 50)), cluster.oneAtATime('feed', seen.work('b', 50))])).toEqual(['a', 'b']);
      // one process: nothing to coordinate, so the two overlapped
      expect(seen.most()).toBe(2);
    } finally {
      await fresh.remove();
    }
  });
});

describe.skipIf(!testPostgresUrl)('one at a time across nodes on PostgreSQL', () => {
  let schema: { url: string; drop(): Promise<void> };
  let dir: string;
  const storages: Storage[] = [];
  let a: Cluster;
  let b: Cluster;

  beforeAll(async () => {
    schema = await freshPostgresSchema(testPostgresUrl!);
    dir = mkdtempSync(join(tmpdir(), 'wb-one-at-a-time-'));
    for (const name of ['a', 'b']) storages.push(await createStorage({ url: schema.url, dataDir: join(dir, name), sqliteFile: 'unused.db' }));
    a = clusterOn(storages[0], 'node-a');
    b = clusterOn(storages[1], 'node-b');
  });
  afterAll(async () => {
    for (const storage of storages) await storage.close();
    await schema?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never runs work of one name on two nodes together, and each node runs its own', async () => {
    const seen = recorder();
    const answers = await Promise.all([
      a.oneAtATime('feed', seen.work('a1', 150)),
      b.oneAtATime('feed', seen.work('b1', 150)),
      a.oneAtATime('feed', seen.work('a2', 150)),
      b.oneAtATime('feed', seen.work('b2', 150)),
    ]);
    expect(answers).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(seen.most()).toBe(1);
    expect([...seen.runs].sort()).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it('runs work of different names side by side', async () => {
    const seen = recorder();
    await Promise.all([a.oneAtATime('feed', seen.work('a', 300)), b.oneAtATime('aggregate', seen.work('b', 300))]);
    expect(seen.most()).toBe(2);
  });

  it('runs the work anyway once a node has held its turn longer than the wait', async () => {
    const patient = clusterOn(storages[1], 'node-b-short-wait', 200);
    const seen = recorder();
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = a.oneAtATime('feed', async () => {
      holding();
      return seen.work('holder', 1_500)();
    });
    // the first node holds its turn before the second asks for one
    await held;
    const answers = await Promise.all([holder, patient.oneAtATime('feed', seen.work('beside', 50))]);
    expect(answers).toEqual(['holder', 'beside']);
    // the second did not wait for the first to end
    expect(seen.runs).toEqual(['beside', 'holder']);
    expect(seen.most()).toBe(2);
    // and the lock was let go: the next turn is taken at once
    expect(await b.oneAtATime('feed', async () => 'next')).toBe('next');
  });

  it('lets go when the work fails: the error reaches the caller and the other node runs next', async () => {
    const failing = a.oneAtATime('feed', async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('catch-up failed');
    });
    const next = b.oneAtATime('feed', async () => 'ran');
    await expect(failing).rejects.toThrow('catch-up failed');
    expect(await next).toBe('ran');
  });
});
