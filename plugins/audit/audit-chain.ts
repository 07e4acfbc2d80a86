/**
 * The hash chain of the audit trail. Each entry stores the hash of the entry before it and its own hash over its
 * id, its previous hash and every field, so changing, removing or reordering any stored entry breaks the chain at
 * that entry. Pruning keeps the chain verifiable by recording the last pruned entry as the anchor.
 */
import { createHash } from 'node:crypto';

/** The previous hash of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an entry that its hash covers, as stored. */
export interface ChainedFields {
  id: number;
  at: string;
  actor: string;
  actor_kind: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  outcome: string;
  request_id: string | null;
  source_address: string | null;
  /** JSON text of the details, exactly as stored. */
  details: string | null;
}

/** SHA-256 (hex) of an entry given the hash of the entry before it. */
export function entryHash(previousHash: string, fields: ChainedFields): string {
  const canonical = JSON.stringify([
    fields.id,
    fields.at,
    fields.actor,
    fields.actor_kind,
    fields.action,
    fields.resource_type,
    fields.resource_id,
    fields.outcome,
    fields.request_id,
    fields.source_address,
    fields.details,
  ]);
  return createHash('sha256').update(previousHash).update('\n').update(canonical).digest('hex');
}

/** Where verification starts: after the anchor left by pruning, or at the genesis. */
export interface ChainStart {
  /** Id the first remaining entry must have (anchor id + 1), or undefined when nothing was pruned. */
  expectedFirstId: number | undefined;
  previousHash: string;
}

/** The first broken link found. */
export interface BrokenLink {
  id: number;
  reason: string;
}

/**
 * Checks entries in id order, batch after batch, remembering only the last link: bounded memory for any length.
 * Call {@link ChainChecker.check} for each entry, then read {@link ChainChecker.broken}.
 */
export class ChainChecker {
  private previousHash: string;
  private expectedId: number | undefined;
  /** Entries checked so far. */
  checked = 0;
  /** The first broken link, once one is found (checking stops there). */
  broken: BrokenLink | undefined;

  constructor(start: ChainStart) {
    this.previousHash = start.previousHash;
    this.expectedId = start.expectedFirstId;
  }

  /** Checks one entry; false once the chain is broken. */
  check(entry: ChainedFields & { prev_hash: string; hash: string }): boolean {
    if (this.broken) return false;
    this.checked++;
    if (this.expectedId !== undefined && entry.id !== this.expectedId) {
      const missing = entry.id > this.expectedId ? `entries ${this.expectedId}..${entry.id - 1} are missing` : 'ids are out of order';
      this.broken = { id: entry.id, reason: `Entry ${entry.id} does not follow entry ${this.expectedId - 1}: ${missing}.` };
    } else if (entry.prev_hash !== this.previousHash) {
      this.broken = { id: entry.id, reason: `Entry ${entry.id} does not carry the hash of the entry before it.` };
    } else if (entryHash(entry.prev_hash, entry) !== entry.hash) {
      this.broken = { id: entry.id, reason: `Entry ${entry.id} was changed after it was written: its hash does not match its content.` };
    }
    if (this.broken) return false;
    this.previousHash = entry.hash;
    this.expectedId = entry.id + 1;
    return true;
  }
}
