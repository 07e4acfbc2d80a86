/**
 * Totals of an interface over a time window from the minute roll-ups and their latency histograms. Both reads go
 * through the (interface, minute) primary keys, so their cost follows the window's minutes, not the tables.
 */
import type { Kysely } from 'kysely';
import { histogramQuantile } from './latency-histogram.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** What arrived in a window. */
export interface WindowTotals {
  messages: number;
  failed: number;
  latencySumMs: number;
  latencyCount: number;
  /** p99 latency from the histogram (at most 5 % above exact), null without latencies. */
  p99LatencyMs: number | null;
}

/** Totals of an interface for minutes in [since, until). */
export async function windowTotals(db: Kysely<MonitorDatabase>, interfaceId: string, since: string, until?: string): Promise<WindowTotals> {
  let totals = db
    .selectFrom('monitor_minutes')
    .select((eb) => [
      eb.fn.sum<number>('messages').as('messages'),
      eb.fn.sum<number>('failed').as('failed'),
      eb.fn.sum<number>('latency_sum').as('latency_sum'),
      eb.fn.sum<number>('latency_count').as('latency_count'),
    ])
    .where('interface_id', '=', interfaceId)
    .where('minute', '>=', since);
  if (until) totals = totals.where('minute', '<', until);
  const row = await totals.executeTakeFirstOrThrow();
  return {
    messages: Number(row.messages ?? 0),
    failed: Number(row.failed ?? 0),
    latencySumMs: Number(row.latency_sum ?? 0),
    latencyCount: Number(row.latency_count ?? 0),
    p99LatencyMs: await windowQuantile(db, interfaceId, 0.99, since, until),
  };
}

/** A latency quantile of an interface over minutes in [since, until), from the histograms. */
export async function windowQuantile(
  db: Kysely<MonitorDatabase>,
  interfaceId: string,
  q: number,
  since: string,
  until?: string,
): Promise<number | null> {
  let query = db
    .selectFrom('monitor_minute_latency')
    .select((eb) => ['bucket', eb.fn.sum<number>('count').as('count')])
    .where('interface_id', '=', interfaceId)
    .where('minute', '>=', since);
  if (until) query = query.where('minute', '<', until);
  const rows = await query.groupBy('bucket').execute();
  return histogramQuantile(new Map(rows.map((r) => [Number(r.bucket), Number(r.count)])), q);
}

/** When the newest message of an interface was received, or null. */
export async function lastMessageAt(db: Kysely<MonitorDatabase>, interfaceId: string): Promise<string | null> {
  const row = await db
    .selectFrom('monitor_messages')
    .select('received_at')
    .where('interface_id', '=', interfaceId)
    .orderBy('received_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.received_at ?? null;
}
