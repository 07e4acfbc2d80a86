/**
 * Reads and writes the triage aggregate (triage-tables.ts). A batch is merged in the monitor's transaction that moves
 * the aggregate's position (triage-projection.ts), so a crash never counts a message twice or loses one. Failure buckets are read, merged in memory and
 * written whole (their example control ids do not add in SQL); signature buckets add up in the upsert itself.
 */
import type { Kysely } from 'kysely';
import type { AggregateBatch } from './aggregate-batch.ts';
import { PatternCounter, type ClusterPart } from '../interfaces/failure-patterns.ts';
import type { WindowSpan } from '../../../kernel/lib/time/time-steps.ts';
import type { FailureBucketRow, TriageDatabase } from '../triage-tables.ts';
import type { UpgradeEntry } from '../interfaces/upgrade-detector.ts';

/** Rows per insert statement (SQLite binds at most 32,766 values). */
const ROWS_PER_INSERT = 400;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

function partOf(row: FailureBucketRow): ClusterPart {
  return {
    key: row.cluster_key,
    code: row.code,
    field: row.field,
    messageType: row.message_type,
    sendingApplication: row.sending_application,
    standard: row.standard,
    version: row.version,
    count: Number(row.messages),
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    examples: JSON.parse(row.examples) as string[],
  };
}

/** The aggregate's tables. */
export class AggregateStore {
  constructor(
    private readonly db: Kysely<TriageDatabase>,
    private readonly sql: typeof import('kysely').sql,
  ) {}

  /** Merges a batch into the aggregate through `db` (the transaction of the fold). */
  async merge(batch: AggregateBatch, db: Kysely<any>): Promise<void> {
    const sql = this.sql;
    const trx = db as Kysely<TriageDatabase>;
    const rows: FailureBucketRow[] = [];
    for (const bucket of batch.failures.values()) {
      const stored = await trx
        .selectFrom('triage_failure_buckets')
        .selectAll()
        .where('interface_id', '=', bucket.interfaceId)
        .where('step', '=', bucket.step)
        .where('start', '=', bucket.start)
        .execute();
      const merged = new PatternCounter();
      for (const row of stored) merged.merge(partOf(row));
      for (const part of bucket.counter.parts()) merged.merge(part);
      for (const part of merged.parts()) {
        rows.push({
          interface_id: bucket.interfaceId,
          step: bucket.step,
          start: bucket.start,
          cluster_key: part.key,
          code: part.code,
          field: part.field,
          message_type: part.messageType,
          sending_application: part.sendingApplication,
          standard: part.standard,
          version: part.version,
          messages: part.count,
          first_seen: part.firstSeen,
          last_seen: part.lastSeen,
          examples: JSON.stringify(part.examples),
        });
      }
    }
    for (const chunk of chunks(rows, ROWS_PER_INSERT)) {
      await trx
        .insertInto('triage_failure_buckets')
        .values(chunk)
        .onConflict((conflict) =>
          conflict.columns(['interface_id', 'step', 'start', 'cluster_key']).doUpdateSet((eb) => ({
            version: eb.ref('excluded.version'),
            messages: eb.ref('excluded.messages'),
            first_seen: eb.ref('excluded.first_seen'),
            last_seen: eb.ref('excluded.last_seen'),
            examples: eb.ref('excluded.examples'),
          })),
        )
        .execute();
    }
    const signatures = [...batch.signatures.values()].map((entry) => ({ interface_id: entry.interfaceId, signature: entry.signature, features: JSON.stringify(entry.features) }));
    for (const chunk of chunks(signatures, ROWS_PER_INSERT)) {
      await trx.insertInto('triage_signatures').values(chunk).onConflict((conflict) => conflict.columns(['interface_id', 'signature']).doNothing()).execute();
    }
    const buckets = [...batch.signatureBuckets.values()].map((bucket) => ({
      interface_id: bucket.interfaceId,
      signature: bucket.signature,
      at_minute: bucket.atMinute,
      received_minute: bucket.receivedMinute,
      messages: bucket.messages,
      first_at: bucket.firstAt,
      last_at: bucket.lastAt,
    }));
    for (const chunk of chunks(buckets, ROWS_PER_INSERT)) {
      await trx
        .insertInto('triage_signature_buckets')
        .values(chunk)
        .onConflict((conflict) =>
          conflict.columns(['interface_id', 'signature', 'at_minute', 'received_minute']).doUpdateSet({
            messages: sql<number>`triage_signature_buckets.messages + excluded.messages`,
            first_at: sql<number>`case when excluded.first_at < triage_signature_buckets.first_at then excluded.first_at else triage_signature_buckets.first_at end`,
            last_at: sql<number>`case when excluded.last_at > triage_signature_buckets.last_at then excluded.last_at else triage_signature_buckets.last_at end`,
          }),
        )
        .execute();
    }
  }

  /** The failure clusters of an interface over the buckets of some spans, merged. */
  async failureClusters(interfaceId: string, spans: readonly WindowSpan[]): Promise<PatternCounter> {
    const counter = new PatternCounter();
    if (spans.length === 0) return counter;
    const rows = await this.db
      .selectFrom('triage_failure_buckets')
      .selectAll()
      .where('interface_id', '=', interfaceId)
      .where((eb) => eb.or(spans.map((span) => eb.and([eb('step', '=', span.step), eb('start', '>=', span.from), eb('start', '<', span.to)]))))
      .orderBy('start')
      .execute();
    for (const row of rows) counter.merge(partOf(row));
    return counter;
  }

  /**
   * The upgrade detector's runs of an interface: one per signature and minute received in [since, until) (minute
   * starts), in sender-time order; `inWindow` from the received minute.
   */
  async upgradeEntries(interfaceId: string, since: string, until: string, windowStart: string): Promise<UpgradeEntry[]> {
    const buckets = await this.db
      .selectFrom('triage_signature_buckets')
      .select(['signature', 'received_minute', 'messages', 'first_at'])
      .where('interface_id', '=', interfaceId)
      .where('received_minute', '>=', since)
      .where('received_minute', '<', until)
      .execute();
    if (buckets.length === 0) return [];
    const wanted = [...new Set(buckets.map((bucket) => bucket.signature))];
    const features = new Map<string, string[]>();
    for (const chunk of chunks(wanted, ROWS_PER_INSERT)) {
      const rows = await this.db.selectFrom('triage_signatures').select(['signature', 'features']).where('interface_id', '=', interfaceId).where('signature', 'in', chunk).execute();
      for (const row of rows) features.set(row.signature, JSON.parse(row.features) as string[]);
    }
    const entries = buckets.map((bucket) => ({
      at: Number(bucket.first_at),
      count: Number(bucket.messages),
      inWindow: bucket.received_minute >= windowStart,
      features: features.get(bucket.signature) ?? [],
      signature: bucket.signature,
    }));
    entries.sort((a, b) => a.at - b.at || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0));
    return entries;
  }

  /** Drops buckets that started before `cutoff` (ISO 8601 UTC) and the signatures no bucket uses any more; answers the rows removed. */
  async prune(cutoff: string): Promise<number> {
    const sql = this.sql;
    return this.db.transaction().execute(async (trx) => {
      const failures = await trx.deleteFrom('triage_failure_buckets').where('start', '<', cutoff).executeTakeFirst();
      const buckets = await trx.deleteFrom('triage_signature_buckets').where('received_minute', '<', cutoff).executeTakeFirst();
      const signatures = await trx
        .deleteFrom('triage_signatures')
        .where(
          sql<boolean>`not exists (select 1 from triage_signature_buckets b where b.interface_id = triage_signatures.interface_id and b.signature = triage_signatures.signature)`,
        )
        .executeTakeFirst();
      return Number(failures.numDeletedRows) + Number(buckets.numDeletedRows) + Number(signatures.numDeletedRows);
    });
  }

  /** Drops everything kept of an interface (it was deleted). */
  async forget(interfaceId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('triage_failure_buckets').where('interface_id', '=', interfaceId).execute();
      await trx.deleteFrom('triage_signature_buckets').where('interface_id', '=', interfaceId).execute();
      await trx.deleteFrom('triage_signatures').where('interface_id', '=', interfaceId).execute();
    });
  }
}
