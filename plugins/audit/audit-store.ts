/**
 * Storage of the audit trail: one append-only table of hash-chained entries and one anchor row left by pruning.
 * Appends are serialised in the process, and the entry id is the primary key, so two processes sharing a
 * PostgreSQL store cannot both append the same link: the loser re-reads the chain's end and tries again.
 */
import type { Kysely, Migration, SelectQueryBuilder } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';
import { SerialQueue } from '../../kernel/serial-queue.ts';
import type { AuditRecordInput, AuditTrail } from './api.ts';
import { ChainChecker, GENESIS_HASH, entryHash, type BrokenLink, type ChainedFields } from './audit-chain.ts';

/** A stored entry row. */
export interface AuditEntryRow extends ChainedFields {
  prev_hash: string;
  hash: string;
}

interface AuditAnchorRow {
  id: number;
  last_pruned_id: number;
  last_pruned_hash: string;
  pruned_at: string;
  pruned_total: number;
}

interface AuditTables {
  audit_entries: AuditEntryRow;
  audit_anchor: AuditAnchorRow;
}

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
  details: Record<string, unknown> | null;
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
const APPEND_ATTEMPTS = 5;
/** Longest stored text of a free field, so one record stays small whatever a caller passes. */
const FIELD_LIMIT = 500;

function clip(text: string | undefined | null): string | null {
  if (text === undefined || text === null) return null;
  return text.length > FIELD_LIMIT ? `${text.slice(0, FIELD_LIMIT - 1)}…` : text;
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
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
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
  /** The last link this process wrote or read; appends are serialised, so it stays right unless another process appends. */
  private tail: { id: number; hash: string } | undefined;

  constructor(
    private readonly db: Kysely<AuditTables>,
    private readonly clock: Clock,
  ) {}

  /** Appends an entry; appends of this process are applied one at a time, in call order. */
  record(input: AuditRecordInput): Promise<void> {
    return this.queue.run(() => this.append(input));
  }

  private async append(input: AuditRecordInput): Promise<void> {
    const details = input.details && Object.keys(input.details).length > 0 ? clip(JSON.stringify(input.details)) : null;
    for (let attempt = 1; ; attempt++) {
      const tail = this.tail ?? (await this.readTail());
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
      const hash = entryHash(tail.hash, fields);
      try {
        await this.db.insertInto('audit_entries').values({ ...fields, prev_hash: tail.hash, hash }).execute();
        this.tail = { id: fields.id, hash };
        return;
      } catch (error) {
        // Another process appended first (a shared PostgreSQL store): read the new end of the chain and try again.
        this.tail = undefined;
        if (attempt >= APPEND_ATTEMPTS || !isUniqueViolation(error)) throw error;
      }
    }
  }

  /** The chain's last link: the newest entry, else the anchor left by pruning, else the genesis. */
  private async readTail(): Promise<{ id: number; hash: string }> {
    const last = await this.db.selectFrom('audit_entries').select(['id', 'hash']).orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (last) return { id: Number(last.id), hash: last.hash };
    const anchor = await this.anchorRow();
    return anchor ? { id: Number(anchor.last_pruned_id), hash: anchor.last_pruned_hash } : { id: 0, hash: GENESIS_HASH };
  }

  private anchorRow(): Promise<AuditAnchorRow | undefined> {
    return this.db.selectFrom('audit_anchor').selectAll().where('id', '=', 1).executeTakeFirst();
  }

  /** Entries matching the filter, newest first, with the total count. */
  async query(filter: AuditFilter, limit: number, offset: number): Promise<{ total: number; entries: AuditEntry[] }> {
    const counted = await filtered(this.db.selectFrom('audit_entries').select((eb) => eb.fn.countAll<string | number>().as('n')), filter).executeTakeFirst();
    const rows = await filtered(this.db.selectFrom('audit_entries').selectAll(), filter).orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(counted?.n ?? 0), entries: rows.map(toEntry) };
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

  /** Walks the whole chain from the anchor (or the genesis) and reports the first broken link. */
  async verify(): Promise<AuditVerification> {
    const anchor = await this.anchorRow();
    const checker = new ChainChecker({
      expectedFirstId: anchor ? Number(anchor.last_pruned_id) + 1 : 1,
      previousHash: anchor?.last_pruned_hash ?? GENESIS_HASH,
    });
    let afterId = -1;
    for (;;) {
      const rows = await this.db
        .selectFrom('audit_entries')
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of rows) if (!checker.check({ ...row, id: Number(row.id) })) break;
      if (checker.broken || rows.length < BATCH) break;
      afterId = Number(rows[rows.length - 1].id);
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
    };
  }

  /**
   * Removes entries older than the cutoff. The last removed entry becomes the anchor (its id and hash), so the
   * first remaining entry still proves its link; answers how many were removed.
   */
  prune(cutoff: Date): Promise<{ removed: number; anchorId: number | null }> {
    return this.queue.run(async () => {
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
      });
    });
  }
}
