/**
 * Cleanup of seeded rows: every key the seed runs recorded for a database is deleted, child tables first, one
 * transaction per seed run (newest first), never with TRUNCATE, so rows that were there before and rows others added
 * since stay. A cleanup runs in the background and is polled.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseConnection } from '../database/database-connection.ts';
import { populationErrors } from '../errors.ts';
import type { PopulationTables } from '../job-records.ts';
import { keySegments, type TableManifest } from './seed-manifest.ts';

/**
 * A cleanup as callers see it: `deleted` and `total` count the rows of the seed runs already cleaned (each run is one
 * transaction, so the counts only ever hold committed deletions); `expected` is what the manifests record.
 */
export type CleanupView = {
  cleanupId: string;
  database: string;
  state: 'running' | 'completed' | 'failed';
  deleted: Record<string, number>;
  total: number;
  expected: number;
  seedRuns: string[];
  cleanedSeedRuns: string[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

/** Cleanups kept in memory to be polled (they are not stored: a seed run's own state says whether it was cleaned). */
const KEPT_CLEANUPS = 100;

/** Text keys deleted per statement. */
const TEXT_DELETE_BATCH = 1000;

/** What cleanup needs: the run records, a logger and the clock. */
export interface SeedCleanupDeps {
  db: Kysely<PopulationTables>;
  logger: Logger;
  now: () => Date;
}

/**
 * The cleanups of the seed service. `busy` is shared with seeding: per database key, the seed run or cleanup going on
 * there, so neither starts while the other runs.
 */
export function createSeedCleanups(deps: SeedCleanupDeps, busy: Map<string, string>) {
  const { db } = deps;
  const cleanups = new Map<string, CleanupView>();

  return {
    /**
     * Starts deleting every recorded key of the database in the background, child tables first, one transaction per
     * seed run (newest first), and answers at once with the cleanup to poll. Refused before anything starts: 409
     * SEED_BUSY while a seed or cleanup runs there, 404 NOTHING_TO_CLEAN when nothing is recorded. `release` runs
     * once the cleanup has ended (it closes a connection opened for it).
     */
    async startCleanup(connection: DatabaseConnection, release: () => Promise<void> = async () => undefined): Promise<CleanupView> {
      const target = connection.target;
      const running = busy.get(target.key);
      if (running) throw populationErrors.create('SEED_BUSY', { id: running });
      const runs = await db
        .selectFrom('population_seed_runs')
        .selectAll()
        .where('database_key', '=', target.key)
        .where('state', 'in', ['completed', 'failed'])
        .orderBy('created_at', 'desc')
        .execute();
      const recorded = runs.filter((r) => (JSON.parse(r.manifest) as { tables: TableManifest[] }).tables.length > 0);
      if (recorded.length === 0) throw populationErrors.create('NOTHING_TO_CLEAN', { database: target.label });
      const cleanup: CleanupView = {
        cleanupId: `clean_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        database: target.label,
        state: 'running',
        deleted: {},
        total: 0,
        expected: recorded.reduce((n, r) => n + (JSON.parse(r.manifest) as { tables: TableManifest[] }).tables.reduce((m, t) => m + t.rows, 0), 0),
        seedRuns: recorded.map((r) => r.id),
        cleanedSeedRuns: [],
        error: null,
        createdAt: deps.now().toISOString(),
        finishedAt: null,
      };
      busy.set(target.key, cleanup.cleanupId);
      cleanups.set(cleanup.cleanupId, cleanup);
      // Only the latest cleanups are kept to be polled; older ones have long been read.
      for (const id of cleanups.keys()) {
        if (cleanups.size <= KEPT_CLEANUPS) break;
        if (cleanups.get(id)?.state !== 'running') cleanups.delete(id);
      }
      void (async () => {
        try {
          for (const run of recorded) {
            const tables = (JSON.parse(run.manifest) as { tables: TableManifest[] }).tables;
            const counted: Record<string, number> = {};
            let current = '';
            try {
              await connection.db.transaction().execute(async (trx) => {
                for (const m of [...tables].reverse()) {
                  current = m.table;
                  let count = 0;
                  for (const segment of keySegments(m)) {
                    if (m.kind === 'integer') {
                      const result = await trx.deleteFrom(m.table).where(m.keyColumn, '>=', segment.from).where(m.keyColumn, '<=', segment.to).executeTakeFirst();
                      count += Number(result.numDeletedRows);
                      continue;
                    }
                    for (let id = segment.from; id <= segment.to; id += TEXT_DELETE_BATCH) {
                      const keys: string[] = [];
                      for (let k = id; k < Math.min(segment.to + 1, id + TEXT_DELETE_BATCH); k++) keys.push(`${m.prefix}${k}`);
                      const result = await trx.deleteFrom(m.table).where(m.keyColumn, 'in', keys).executeTakeFirst();
                      count += Number(result.numDeletedRows);
                    }
                  }
                  counted[m.table] = count;
                }
              });
            } catch (error) {
              throw populationErrors.create('CLEANUP_FAILED', {
                table: current,
                reason: `${(error as Error).message.split('\n')[0].slice(0, 300)} (rows added since may reference the seeded rows)`,
              });
            }
            await db.updateTable('population_seed_runs').set({ state: 'cleaned', finished_at: deps.now().toISOString() }).where('id', '=', run.id).execute();
            // Counts show once their run's transaction committed: what the poll reports is what is gone.
            for (const [table, count] of Object.entries(counted)) cleanup.deleted[table] = (cleanup.deleted[table] ?? 0) + count;
            cleanup.total = Object.values(cleanup.deleted).reduce((a, b) => a + b, 0);
            cleanup.cleanedSeedRuns.push(run.id);
          }
          cleanup.state = 'completed';
        } catch (error) {
          cleanup.state = 'failed';
          cleanup.error = (error as Error).message;
          deps.logger.warn({ cleanupId: cleanup.cleanupId, reason: cleanup.error }, 'cleanup failed');
        } finally {
          cleanup.finishedAt = deps.now().toISOString();
          busy.delete(target.key);
          await release().catch(() => undefined);
        }
      })();
      return { ...cleanup, deleted: { ...cleanup.deleted }, cleanedSeedRuns: [...cleanup.cleanedSeedRuns] };
    },

    /** A cleanup's state and counts (404 for an id this process did not start or no longer keeps). */
    cleanup(id: string): CleanupView {
      const cleanup = cleanups.get(id);
      if (!cleanup) throw populationErrors.create('CLEANUP_NOT_FOUND', { id });
      return { ...cleanup, deleted: { ...cleanup.deleted }, cleanedSeedRuns: [...cleanup.cleanedSeedRuns] };
    },
  };
}
