/**
 * Once per cluster: before a scheduled job runs, the node claims the occurrence by inserting the row (job, slot)
 * into `kernel_job_runs`; the primary key lets one insert win, on PostgreSQL as on SQLite, so every other node's
 * insert of the same occurrence does nothing and that node skips it. Rows older than a week are removed now and then.
 */
import type { Kysely } from 'kysely';
import type { ClusterDatabase } from './cluster-tables.ts';

/** How long claimed occurrences are kept, in ms. */
const KEEP_CLAIMS_MS = 7 * 86_400_000;

/** Claims of job occurrences. */
export interface JobClaims {
  /** True when this node won the occurrence `slot` of `job` (and must run it). */
  claim(job: string, slot: string): Promise<boolean>;
}

/** The occurrence a tick at `atMs` belongs to: its instant to the minute, or to the second for a six-field schedule. */
export function slotOf(expression: string, atMs: number): string {
  const seconds = expression.trim().split(/\s+/).length >= 6;
  const unit = seconds ? 1_000 : 60_000;
  // a tick a few ms late still belongs to its scheduled instant
  return new Date(Math.floor((atMs + 500) / unit) * unit).toISOString();
}

/** Claims stored in the kernel's table. */
export class StoredJobClaims implements JobClaims {
  private lastPruneMs = 0;

  constructor(
    private readonly db: Kysely<ClusterDatabase>,
    private readonly nodeName: string,
    private readonly nowMs: () => Promise<number>,
  ) {}

  async claim(job: string, slot: string): Promise<boolean> {
    const now = await this.nowMs();
    const result = await this.db
      .insertInto('kernel_job_runs')
      .values({ job, slot, node: this.nodeName, claimed_at_ms: now })
      .onConflict((oc) => oc.columns(['job', 'slot']).doNothing())
      .executeTakeFirst();
    if (now - this.lastPruneMs > 3_600_000) {
      this.lastPruneMs = now;
      await this.db.deleteFrom('kernel_job_runs').where('claimed_at_ms', '<', now - KEEP_CLAIMS_MS).execute();
    }
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
}
