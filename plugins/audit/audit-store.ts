/**
 * Storage of the audit trail: one append-only table of chained entries and one anchor row left by pruning, with
 * the evidence outside the database (the link key and the checkpoint file, see audit-key.ts and
 * audit-checkpoint.ts). Appends are serialised in the process, and the entry id is the primary key, so two processes
 * sharing a PostgreSQL store cannot both append the same link: the loser re-reads the chain's end and tries again.
 */
import type { Kysely, Migration, SelectQueryBuilder } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';
import { SerialQueue } from '../../kernel/lib/async/serial-queue.ts';
import type { AuditDetails, AuditRecordInput, AuditTrail } from './api.ts';
import { ChainChecker, GENESIS_HASH, entryHash, type BrokenLink, type ChainedFields } from './audit-chain.ts';
import { readCheckpoint, removeStaleTemporaries, writeCheckpoint, type AuditCheckpoint } from './audit-checkpoint.ts';
import type { AuditKey } from './audit-key.ts';
import { auditErrors } from './audit-errors.ts';
import { anchorRow, readTail, tailProblem, type AuditEntryRow, type AuditTables, type AuditWatch } from './audit-tail.ts';

export { AUDIT_TAMPERED, type AuditWatch } from './audit-tail.ts';

/** An entry as the API shows it. */
export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  actorKind: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  outcome: string;
  requestId: string | null;
  sourceAddress: string | null;
  details: AuditDetails | null;
  previousHash: string;
  hash: string;
}

/** Filters of a query or an export. */
export interface AuditFilter {
  action?: string;
  resourceType?: string;
  from?: Date;
  to?: Date;
}

/** The outcome of a verification. */
export interface AuditVerification {
  intact: boolean;
  /** Entries checked. */
  checked: number;
  /** Where the remaining chain starts after pruning, or null when nothing was pruned. */
  anchor: { lastPrunedId: number; lastPrunedHash: string; prunedAt: string; prunedTotal: number } | null;
  /** The first broken link, or null when the chain is intact. */
  firstBroken: BrokenLink | null;
  /** Every broken link in id order (at most the first 100; `brokenTotal` counts them all). */
  brokenLinks: BrokenLink[];
  brokenTotal: number;
  /** The checkpoint the chain was checked against, or null when there is none yet. */
  checkpoint: AuditCheckpoint | null;
}

/** Where the evidence outside the database lives. */
export interface AuditEvidence {
  /** Loads (or creates) the link key; called once, on first use. */
  key(): AuditKey;
  /** Path of the checkpoint file. */
  checkpointPath: string;
}

/** Migrations of the audit plugin. */
export const auditMigrations: Record<string, Migration> = {
  '001_audit_entries': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_entries')
        .ifNotExists()
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('at', 'varchar(40)', (c) => c.notNull())
        .addColumn('actor', 'varchar(300)', (c) => c.notNull())
        .addColumn('actor_kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('action', 'varchar(100)', (c) => c.notNull())
        .addColumn('resource_type', 'varchar(100)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(500)')
        .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
        .addColumn('request_id', 'varchar(100)')
        .addColumn('source_address', 'varchar(100)')
        .addColumn('details', 'text')
        .addColumn('prev_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_entries_at').ifNotExists().on('audit_entries').column('at').execute();
      await db.schema
        .createIndex('audit_entries_action')
        .ifNotExists()
        .on('audit_entries')
        .columns(['action', 'id'])
        .execute();
      await db.schema
        .createTable('audit_anchor')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_pruned_id', 'bigint', (c) => c.notNull())
        .addColumn('last_pruned_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('pruned_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('pruned_total', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};

const BATCH = 500;
/**
 * How long a new head may wait before the checkpoint file records it. Entries appended in the last moments before a
 * crash may be missing from the checkpoint; they cannot be told from deleted ones (see the README).
 */
const CHECKPOINT_DELAY_MS = 100;
const APPEND_ATTEMPTS = 5;
/** After a checkpoint write failed (a full disk), the next try comes this much later. */
const CHECKPOINT_RETRY_MS = 5_000;
/** Longest stored text of a free field, so one record stays small whatever a caller passes. */
const FIELD_LIMIT = 500;

function clip(text: string | undefined | null): string | null {
  if (text === undefined || text === null) return null;
  return text.length > FIELD_LIMIT ? `${text.slice(0, FIELD_LIMIT - 1)}…` : text;
}

/**
 * Details as stored: each text value cut to the field limit, the JSON itself never cut (a cut JSON text could not
 * be read back).
 */
function storedDetails(details: AuditDetails | undefined): string | null {
  if (!details || Object.keys(details).length === 0) return null;
  const kept: AuditDetails = {};
  for (const [name, value] of Object.entries(details)) kept[name] = typeof value === 'string' ? clip(value) : value;
  return JSON.stringify(kept);
}

/** Details read back; a row written before values were cut one by one may hold cut JSON, answered as its text. */
function readDetails(text: string | null): AuditDetails | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as AuditDetails;
  } catch {
    return { unreadable: text };
  }
}

function toEntry(row: AuditEntryRow): AuditEntry {
  return {
    id: Number(row.id),
    at: row.at,
    actor: row.actor,
    actorKind: row.actor_kind,
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    outcome: row.outcome,
    requestId: row.request_id,
    sourceAddress: row.source_address,
    details: readDetails(row.details),
    previousHash: row.prev_hash,
    hash: row.hash,
  };
}

/** The query narrowed by the filter. */
function filtered<O>(query: SelectQueryBuilder<AuditTables, 'audit_entries', O>, filter: AuditFilter): SelectQueryBuilder<AuditTables, 'audit_entries', O> {
  let narrowed = query;
  if (filter.action) narrowed = narrowed.where('action', '=', filter.action);
  if (filter.resourceType) narrowed = narrowed.where('resource_type', '=', filter.resourceType);
  if (filter.from) narrowed = narrowed.where('at', '>=', filter.from.toISOString());
  if (filter.to) narrowed = narrowed.where('at', '<=', filter.to.toISOString());
  return narrowed;
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`;
  return /23505|SQLITE_CONSTRAINT|UNIQUE|duplicate key/i.test(text);
}

/** The audit trail over the shared database. */
export class AuditStore implements AuditTrail {
  private readonly queue = new SerialQueue();
  private keying: { key: Buffer; checkpoint: AuditCheckpoint } | undefined;
  private checkpointDirty = false;
  private checkpointTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<AuditTables>,
    private readonly clock: Clock,
    private readonly evidence: AuditEvidence,
    private readonly watch?: AuditWatch,
  ) {}

  /** Appends an entry; appends of this process are applied one at a time, in call order. */
  record(input: AuditRecordInput): Promise<void> {
    return this.queue.run(() => this.append(input));
  }

  /**
   * The key and the checkpoint, loaded on first use. Without a checkpoint one is written for the chain as it is; when
   * the key was created just now, the entries already there keep their plain links and keyed ones start after them.
   */
  private async evidenceOf(): Promise<{ key: Buffer; checkpoint: AuditCheckpoint }> {
    if (this.keying) return this.keying;
    const { key, created } = this.evidence.key();
    removeStaleTemporaries(this.evidence.checkpointPath);
    let checkpoint = readCheckpoint(this.evidence.checkpointPath);
    if (!checkpoint) {
      const tail = await readTail(this.db);
      const anchor = await anchorRow(this.db);
      checkpoint = {
        headId: tail.id,
        headHash: tail.hash,
        at: this.clock.now().toISOString(),
        anchorId: anchor ? Number(anchor.last_pruned_id) : null,
        anchorHash: anchor?.last_pruned_hash ?? null,
        keyedFromId: created ? tail.id + 1 : 1,
      };
      writeCheckpoint(this.evidence.checkpointPath, checkpoint);
    }
    this.keying = { key, checkpoint };
    return this.keying;
  }

  /**
   * Records a change of the checkpoint. A new head is written behind, at most {@link CHECKPOINT_DELAY_MS} later, so a
   * burst of appends costs one file write rather than one each; a new anchor (`now`) is written at once.
   */
  private saveCheckpoint(change: Partial<AuditCheckpoint>, now = false): void {
    if (!this.keying) return;
    this.keying.checkpoint = { ...this.keying.checkpoint, ...change, at: this.clock.now().toISOString() };
    this.checkpointDirty = true;
    if (now) {
      this.flushCheckpoint();
      return;
    }
    this.scheduleFlush(CHECKPOINT_DELAY_MS);
  }

  /** Arms the deferred checkpoint write; stop() writes whatever is pending, so the timer never holds the process. */
  private scheduleFlush(delayMs: number): void {
    if (this.checkpointTimer) return;
    const flush = () => {
      this.checkpointTimer = undefined;
      try {
        this.flushCheckpoint();
      } catch (error) {
        // still pending: tried again later, so the checkpoint catches up by itself once the disk has room
        this.scheduleFlush(CHECKPOINT_RETRY_MS);
        throw error;
      }
    };
    if (this.watch) this.checkpointTimer = this.watch.after('checkpoint-write', delayMs, flush);
    else {
      this.checkpointTimer = setTimeout(() => {
        try {
          flush();
        } catch {
          // retried by the flush itself
        }
      }, delayMs);
      this.checkpointTimer.unref();
    }
  }

  /** Resolves once every append queued so far is done. */
  whenIdle(): Promise<void> {
    return this.queue.run(async () => undefined);
  }

  /** Writes the pending checkpoint now (at stop, before a verify or an export reads it). */
  flushCheckpoint(): void {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    if (!this.checkpointDirty || !this.keying) return;
    writeCheckpoint(this.evidence.checkpointPath, this.keying.checkpoint);
    this.checkpointDirty = false;
  }

  /**
   * The newest checkpoint of this data folder: the one on disk (another run may have moved it) or the one this process
   * holds and has not written yet, whichever records the later head.
   */
  private newestCheckpoint(held: AuditCheckpoint): AuditCheckpoint {
    let onDisk: AuditCheckpoint | undefined;
    try {
      onDisk = readCheckpoint(this.evidence.checkpointPath);
    } catch {
      onDisk = undefined;
    }
    return onDisk && onDisk.headId > held.headId ? onDisk : held;
  }

  /**
   * Checks the tail against the checkpoint and tells the watch: the condition opens (and is logged) while they
   * disagree and closes once they agree again (the entries restored). Answers the problem, if any. Runs between
   * appends.
   */
  checkTail(): Promise<string | undefined> {
    return this.queue.run(() => this.judgeTail());
  }

  private async judgeTail(): Promise<string | undefined> {
    const { checkpoint: held } = await this.evidenceOf();
    const problem = await tailProblem(this.db, this.newestCheckpoint(held));
    this.watch?.tampered(problem);
    return problem;
  }

  private async append(input: AuditRecordInput): Promise<void> {
    const { key, checkpoint } = await this.evidenceOf();
    let tail = await readTail(this.db);
    // Never chain onto a tail behind the checkpoint: that would move the checkpoint past the deletion and hide it.
    // The usual case costs no second read: the newest entry is the very head the checkpoint recorded.
    const newest = this.newestCheckpoint(checkpoint);
    if (tail.id === newest.headId && tail.hash === newest.headHash) this.watch?.tampered(undefined);
    else {
      const problem = await this.judgeTail();
      if (problem) throw auditErrors.create('AUDIT_TRAIL_TAMPERED', { problem });
    }
    const details = storedDetails(input.details);
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) tail = await readTail(this.db);
      const fields: ChainedFields = {
        id: tail.id + 1,
        at: this.clock.now().toISOString(),
        actor: clip(input.actor) ?? 'anonymous',
        actor_kind: input.actorKind,
        action: input.action,
        resource_type: input.resourceType,
        resource_id: clip(input.resourceId),
        outcome: input.outcome,
        request_id: clip(input.requestId),
        source_address: clip(input.sourceAddress),
        details,
      };
      const hash = entryHash(tail.hash, fields, fields.id >= checkpoint.keyedFromId ? key : undefined);
      try {
        await this.db.insertInto('audit_entries').values({ ...fields, prev_hash: tail.hash, hash }).execute();
        this.saveCheckpoint({ headId: fields.id, headHash: hash });
        return;
      } catch (error) {
        // Another process appended first (a shared PostgreSQL store): read the new end of the chain and try again.
        if (attempt >= APPEND_ATTEMPTS || !isUniqueViolation(error)) throw error;
      }
    }
  }

  /**
   * Entries matching the filter, newest first, with the total count: at most `limit` after skipping `offset`, only
   * those older than `beforeId` when given (a keyset page); `more` says whether another entry follows.
   */
  async query(filter: AuditFilter, limit: number, offset: number, beforeId?: number): Promise<{ total: number; entries: AuditEntry[]; more: boolean }> {
    const counted = await filtered(this.db.selectFrom('audit_entries').select((eb) => eb.fn.countAll<string | number>().as('n')), filter).executeTakeFirst();
    let rows = filtered(this.db.selectFrom('audit_entries').selectAll(), filter);
    if (beforeId !== undefined) rows = rows.where('id', '<', beforeId);
    const read = await rows.orderBy('id', 'desc').limit(limit + 1).offset(offset).execute();
    return { total: Number(counted?.n ?? 0), entries: read.slice(0, limit).map(toEntry), more: read.length > limit };
  }

  /** Every matching entry, oldest first, read in batches (an export never holds the whole trail in memory). */
  async *stream(filter: AuditFilter): AsyncGenerator<AuditEntry> {
    let afterId = -1;
    for (;;) {
      const batch = filtered(this.db.selectFrom('audit_entries').selectAll().where('id', '>', afterId), filter);
      const rows = await batch.orderBy('id').limit(BATCH).execute();
      for (const row of rows) yield toEntry(row);
      if (rows.length < BATCH) return;
      afterId = Number(rows[rows.length - 1].id);
    }
  }

  /**
   * Walks the whole chain from the anchor (or the genesis) and reports every broken link: links that do not match
   * under the key, and a chain that disagrees with the checkpoint (newest entries missing, the start cut behind
   * another anchor).
   */
  async verify(): Promise<AuditVerification> {
    const { key } = await this.evidenceOf();
    this.flushCheckpoint();
    // Read again: another run of this data folder (the CLI, a restart) may have moved it.
    const checkpoint = readCheckpoint(this.evidence.checkpointPath) ?? null;
    const anchor = await anchorRow(this.db);
    const storedAnchorId = anchor ? Number(anchor.last_pruned_id) : null;
    // The checkpoint's anchor is the one pruning left; a different row in the database was put there by someone else.
    const startId = checkpoint ? checkpoint.anchorId : storedAnchorId;
    const startHash = checkpoint ? checkpoint.anchorHash : (anchor?.last_pruned_hash ?? null);
    const checker = new ChainChecker(
      { expectedFirstId: (startId ?? 0) + 1, previousHash: startHash ?? GENESIS_HASH },
      { key, keyedFromId: checkpoint?.keyedFromId ?? 1 },
    );
    if (checkpoint && (checkpoint.anchorId !== storedAnchorId || checkpoint.anchorHash !== (anchor?.last_pruned_hash ?? null))) {
      checker.report({
        id: storedAnchorId ?? 0,
        reason: `The pruning anchor in the database (${storedAnchorId === null ? 'none' : `entry ${storedAnchorId}`}) is not the one the checkpoint recorded (${checkpoint.anchorId === null ? 'none' : `entry ${checkpoint.anchorId}`}): the start of the trail was cut or its anchor rewritten.`,
      });
    }
    let afterId = -1;
    let lastId = startId ?? 0;
    let headSeen: string | undefined;
    for (;;) {
      const rows = await this.db
        .selectFrom('audit_entries')
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const id = Number(row.id);
        checker.check({ ...row, id });
        if (checkpoint && id === checkpoint.headId) headSeen = row.hash;
        lastId = id;
      }
      if (rows.length < BATCH) break;
      afterId = Number(rows[rows.length - 1].id);
    }
    if (checkpoint && checkpoint.headId > (checkpoint.anchorId ?? 0)) {
      if (headSeen === undefined) {
        checker.report({
          id: checkpoint.headId,
          reason: `Entry ${checkpoint.headId}, the newest the checkpoint of ${checkpoint.at} recorded, is missing: the trail ends at entry ${lastId}, so its newest entries were removed.`,
        });
      } else if (headSeen !== checkpoint.headHash) {
        checker.report({
          id: checkpoint.headId,
          reason: `Entry ${checkpoint.headId} is not the entry the checkpoint of ${checkpoint.at} recorded: the chain was rewritten up to it.`,
        });
      }
    }
    return {
      intact: checker.broken === undefined,
      checked: checker.checked,
      anchor: anchor
        ? {
            lastPrunedId: Number(anchor.last_pruned_id),
            lastPrunedHash: anchor.last_pruned_hash,
            prunedAt: anchor.pruned_at,
            prunedTotal: Number(anchor.pruned_total),
          }
        : null,
      firstBroken: checker.broken ?? null,
      brokenLinks: checker.brokenLinks,
      brokenTotal: checker.brokenTotal,
      checkpoint,
    };
  }

  /** The checkpoint as it is on disk now (for exports), or null before the first use. */
  currentCheckpoint(): AuditCheckpoint | null {
    this.flushCheckpoint();
    return readCheckpoint(this.evidence.checkpointPath) ?? null;
  }

  /**
   * Removes entries older than the cutoff. The last removed entry becomes the anchor (its id and hash), so the
   * first remaining entry still proves its link; answers how many were removed.
   */
  prune(cutoff: Date): Promise<{ removed: number; anchorId: number | null }> {
    return this.queue.run(async () => {
      await this.evidenceOf();
      const last = await this.db
        .selectFrom('audit_entries')
        .select(['id', 'hash'])
        .where('at', '<', cutoff.toISOString())
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last) return { removed: 0, anchorId: null };
      const anchorId = Number(last.id);
      return this.db.transaction().execute(async (trx) => {
        const previous = await trx.selectFrom('audit_anchor').selectAll().where('id', '=', 1).executeTakeFirst();
        const deleted = await trx.deleteFrom('audit_entries').where('id', '<=', anchorId).executeTakeFirst();
        const removed = Number(deleted.numDeletedRows);
        const row = {
          last_pruned_id: anchorId,
          last_pruned_hash: last.hash,
          pruned_at: this.clock.now().toISOString(),
          pruned_total: Number(previous?.pruned_total ?? 0) + removed,
        };
        if (previous) await trx.updateTable('audit_anchor').set(row).where('id', '=', 1).execute();
        else await trx.insertInto('audit_anchor').values({ id: 1, ...row }).execute();
        return { removed, anchorId };
      }).then((result) => {
        this.saveCheckpoint({ anchorId, anchorHash: last.hash }, true);
        return result;
      });
    });
  }
}
