/**
 * Reads of minute roll-ups and store counts, for the monitor's own routes and for other plugins through
 * {@link MonitorService} (stored messages are read through message-query.ts). Every read is served by an index on
 * the time window.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DailyMessageCount, MinuteRollup, StoredMessageCounts, TimeWindow } from '../api.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** The start of the minute of an instant, in the stored ISO form. */
export function minuteOf(value: string | Date | number): string {
  const ms = typeof value === 'number' ? value : new Date(value).getTime();
  return new Date(ms - (((ms % 60_000) + 60_000) % 60_000)).toISOString();
}

/** An instant as the stored ISO form. */
export function isoOf(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

/** Reads roll-ups and counts. */
export class MessageStore {
  constructor(private readonly db: Kysely<MonitorDatabase>) {}

  /** Minute roll-ups of an interface in a window, oldest first. */
  async minutes(interfaceId: string, window: TimeWindow): Promise<MinuteRollup[]> {
    const since = isoOf(window.since);
    const until = window.until === undefined ? undefined : isoOf(window.until);
    let q = this.db.selectFrom('monitor_minutes').selectAll().where('interface_id', '=', interfaceId).where('minute', '>=', since);
    if (until !== undefined) q = q.where('minute', '<', until);
    const rows = await q.orderBy('minute').execute();
    return rows.map((row) => ({
      interfaceId: row.interface_id,
      minute: row.minute,
      messages: Number(row.messages),
      failed: Number(row.failed),
      latencySumMs: Number(row.latency_sum),
      latencyCount: Number(row.latency_count),
      // a row written by an ingest before any check of that minute: files were read, so the folder was there
      reachable: row.reachable === null ? true : Boolean(row.reachable),
      enabled: row.enabled === null ? true : Boolean(row.enabled),
    }));
  }

  /** Messages per UTC day in a window, from the minute roll-ups. */
  async daily(window: TimeWindow, interfaceId?: string): Promise<DailyMessageCount[]> {
    let q = this.db
      .selectFrom('monitor_minutes')
      .select((eb) => [
        eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(10)]).as('day'),
        eb.fn.sum<number>('messages').as('messages'),
        eb.fn.sum<number>('failed').as('failed'),
      ])
      .where('minute', '>=', isoOf(window.since));
    if (window.until !== undefined) q = q.where('minute', '<', isoOf(window.until));
    if (interfaceId) q = q.where('interface_id', '=', interfaceId);
    const day = (eb: ExpressionBuilder<MonitorDatabase, 'monitor_minutes'>) => eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(10)]);
    const rows = await q.groupBy(day).orderBy(day).execute();
    return rows
      .map((r) => ({ day: r.day, messages: Number(r.messages ?? 0), failed: Number(r.failed ?? 0) }))
      .filter((r) => r.messages > 0);
  }

  /** Counts of stored messages, failed messages, ledger rows (every file version read) and interfaces. */
  async counts(interfaceId?: string): Promise<StoredMessageCounts> {
    let files = this.db
      .selectFrom('monitor_files')
      .select((eb) => [
        eb.fn.countAll<number>().as('files'),
        eb.fn.sum<number>('message_count').as('messages'),
        eb.fn.sum<number>('failed_count').as('failed'),
      ]);
    if (interfaceId) files = files.where('interface_id', '=', interfaceId);
    const fileCounts = await files.executeTakeFirstOrThrow();
    let interfaces = this.db.selectFrom('monitor_interfaces').select((eb) => eb.fn.countAll<number>().as('n'));
    if (interfaceId) interfaces = interfaces.where('id', '=', interfaceId);
    const interfaceCount = await interfaces.executeTakeFirstOrThrow();
    return {
      messages: Number(fileCounts.messages ?? 0),
      failed: Number(fileCounts.failed ?? 0),
      files: Number(fileCounts.files),
      interfaces: Number(interfaceCount.n),
    };
  }
}
