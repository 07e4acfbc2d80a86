/**
 * The chain of the audit trail. Each entry stores the link of the entry before it and its own link over its id, its
 * previous link and every field, so changing, removing or reordering any stored entry breaks the chain at that
 * entry. A link is an HMAC-SHA256 under a key kept outside the database: someone who can only write the database
 * cannot compute a valid link, so rewriting an entry and recomputing the chain forward is detected too. (Entries
 * written before the trail had a key carry plain SHA-256 links; they prove order, not origin.) Pruning keeps the
 * chain verifiable by recording the last pruned entry as the anchor.
 */
import { createHash, createHmac } from 'node:crypto';

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

/**
 * The link (hex) of an entry given the link of the entry before it: HMAC-SHA256 under `key`, or plain SHA-256 for
 * entries written before the trail had a key.
 */
export function entryHash(previousHash: string, fields: ChainedFields, key?: Buffer): string {
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
  const digest = key ? createHmac('sha256', key) : createHash('sha256');
  return digest.update(previousHash).update('\n').update(canonical).digest('hex');
}

/** Where verification starts: after the anchor left by pruning, or at the genesis. */
export interface ChainStart {
  /** Id the first remaining entry must have (anchor id + 1), or undefined when nothing was pruned. */
  expectedFirstId: number | undefined;
  previousHash: string;
}

/** A broken link. */
export interface BrokenLink {
  id: number;
  reason: string;
}

/** How links are computed: under `key` from entry `keyedFromId` on, plain SHA-256 before it. */
export interface ChainKeying {
  key: Buffer;
  keyedFromId: number;
}

/** Broken links listed in a verification at most; the rest are counted. */
export const BROKEN_LINKS_LISTED = 100;

/**
 * Checks entries in id order, batch after batch, remembering only the last link: bounded memory for any length.
 * Call {@link ChainChecker.check} for each entry, then read {@link ChainChecker.broken} (the first broken link) and
 * {@link ChainChecker.brokenLinks} (every one, up to {@link BROKEN_LINKS_LISTED}; {@link ChainChecker.brokenTotal}
 * counts them all). After a broken link the check goes on from that entry, so one bad row never hides later ones.
 */
export class ChainChecker {
  private previousHash: string;
  private expectedId: number | undefined;
  /** Entries checked so far. */
  checked = 0;
  /** The first broken link, once one is found. */
  broken: BrokenLink | undefined;
  /** Broken links in id order (the first {@link BROKEN_LINKS_LISTED}). */
  readonly brokenLinks: BrokenLink[] = [];
  /** Every broken link found. */
  brokenTotal = 0;

  constructor(
    start: ChainStart,
    private readonly keying?: ChainKeying,
  ) {
    this.previousHash = start.previousHash;
    this.expectedId = start.expectedFirstId;
  }

  /** Reports a broken link found outside the entries (a checkpoint the stored chain does not reach). */
  report(link: BrokenLink): void {
    this.broken ??= link;
    this.brokenTotal++;
    if (this.brokenLinks.length < BROKEN_LINKS_LISTED) this.brokenLinks.push(link);
  }

  /** Checks one entry; false when its link is broken (checking goes on with the next entry). */
  check(entry: ChainedFields & { prev_hash: string; hash: string }): boolean {
    this.checked++;
    let reason: string | undefined;
    if (this.expectedId !== undefined && entry.id !== this.expectedId) {
      const missing = entry.id > this.expectedId ? `entries ${this.expectedId}..${entry.id - 1} are missing` : 'ids are out of order';
      reason = `Entry ${entry.id} does not follow entry ${this.expectedId - 1}: ${missing}.`;
    } else if (entry.prev_hash !== this.previousHash) {
      reason = `Entry ${entry.id} does not carry the hash of the entry before it.`;
    } else {
      const key = this.keying && entry.id >= this.keying.keyedFromId ? this.keying.key : undefined;
      if (entryHash(entry.prev_hash, entry, key) !== entry.hash) {
        reason = `Entry ${entry.id} was changed after it was written: its hash does not match its content.`;
      }
    }
    // Whatever was wrong, the next entry is judged against this one as stored.
    this.previousHash = entry.hash;
    this.expectedId = entry.id + 1;
    if (reason === undefined) return true;
    this.report({ id: entry.id, reason });
    return false;
  }
}
