/**
 * The end of the audit chain as the database holds it, and whether it still agrees with the checkpoint: the entry the
 * checkpoint recorded as the head must be there with the recorded link before anything is appended, or an append
 * would chain to the surviving tail and hide that the newest entries were deleted.
 */
import type { Kysely } from 'kysely';
import { GENESIS_HASH, type ChainedFields } from './audit-chain.ts';
import type { AuditCheckpoint } from './audit-checkpoint.ts';

/** A stored entry row. */
export interface AuditEntryRow extends ChainedFields {
  prev_hash: string;
  hash: string;
}

/** The anchor row pruning leaves. */
export interface AuditAnchorRow {
  id: number;
  last_pruned_id: number;
  last_pruned_hash: string;
  pruned_at: string;
  pruned_total: number;
}

/** The audit plugin's tables. */
export interface AuditTables {
  audit_entries: AuditEntryRow;
  audit_anchor: AuditAnchorRow;
}

/** Where the store's background work runs and what it tells when the trail disagrees with its checkpoint. */
export interface AuditWatch {
  /** Runs the deferred checkpoint write guarded (a full disk is logged and reported, never thrown into the process). */
  after(name: string, delayMs: number, job: () => unknown): NodeJS.Timeout;
  /** Told that the trail's tail is behind its checkpoint (reason), or that it agrees again (undefined). */
  tampered(reason: string | undefined): void;
}

/** The condition of a trail whose tail disagrees with its checkpoint. */
export const AUDIT_TAMPERED = 'audit-tampered';

/** The chain's last link: the newest entry, else the anchor left by pruning, else the genesis. */
export async function readTail(db: Kysely<AuditTables>): Promise<{ id: number; hash: string }> {
  const last = await db.selectFrom('audit_entries').select(['id', 'hash']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (last) return { id: Number(last.id), hash: last.hash };
  const anchor = await anchorRow(db);
  return anchor ? { id: Number(anchor.last_pruned_id), hash: anchor.last_pruned_hash } : { id: 0, hash: GENESIS_HASH };
}

/** The anchor row pruning left, if any. */
export function anchorRow(db: Kysely<AuditTables>): Promise<AuditAnchorRow | undefined> {
  return db.selectFrom('audit_anchor').selectAll().where('id', '=', 1).executeTakeFirst();
}

/**
 * Why the database's chain cannot be appended to, or undefined when it can: the entry the checkpoint recorded as the
 * head must still be there with the recorded link (entries after it, another node's, are fine; a head pruned away
 * behind the anchor too). Otherwise the newest entries were deleted or rewritten.
 */
export async function tailProblem(db: Kysely<AuditTables>, checkpoint: AuditCheckpoint): Promise<string | undefined> {
  if (checkpoint.headId <= (checkpoint.anchorId ?? 0)) return undefined;
  const head = await db.selectFrom('audit_entries').select(['id', 'hash']).where('id', '=', checkpoint.headId).executeTakeFirst();
  if (head && head.hash === checkpoint.headHash) return undefined;
  if (!head) {
    const anchor = await anchorRow(db);
    if (anchor && Number(anchor.last_pruned_id) >= checkpoint.headId) return undefined;
    const tail = await readTail(db);
    return `Entry ${checkpoint.headId}, the newest the checkpoint of ${checkpoint.at} recorded, is missing: the trail ends at entry ${tail.id}, so its newest entries were removed.`;
  }
  return `Entry ${checkpoint.headId} is not the entry the checkpoint of ${checkpoint.at} recorded: the chain was rewritten up to it.`;
}
