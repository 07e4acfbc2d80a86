/**
 * Metrics of an interface over a window, with both field sets of the spec in one object. Everything comes from the
 * roll-ups (written in the same transaction as the messages, so the counts agree with the ledger to the message);
 * the last message time is one indexed look-up.
 */
import type { Kysely } from 'kysely';
import type { HourBucket, InterfaceMetrics } from '../api.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import type { RollupReader } from '../rollups/rollup-reader.ts';
import { lastMessageAt } from '../rollups/window-stats.ts';

export type { InterfaceMetrics };

const HOUR_MS = 3_600_000;

/** Start of the window: the start of the hour `sinceHours - 1` hours before the current one. */
export function windowStartMs(nowMs: number, sinceHours: number): number {
  return Math.floor(nowMs / HOUR_MS) * HOUR_MS - (sinceHours - 1) * HOUR_MS;
}

/**
 * Computes the metrics of an interface over [startMs, untilMs); the hourly breakdown holds every hour the window
 * touches, and the window's end shows as now when now lies inside it (nothing is stored for later minutes).
 */
export async function interfaceMetrics(
  db: Kysely<MonitorDatabase>,
  rollups: RollupReader,
  interfaceId: string,
  options: { startMs: number; untilMs: number; nowMs: number; watchingSinceMs: number | null },
): Promise<InterfaceMetrics> {
  const since = new Date(options.startMs);
  const endMs = options.untilMs;
  const until = new Date(endMs);
  const totals = await rollups.totals({ since, until }, [interfaceId]);
  const hours = await rollups.series({ interfaceIds: [interfaceId], since, until, step: 'hour', metric: 'messagesTotal' });
  const hourlyBreakdown: HourBucket[] = hours.map((p) => ({
    hour: p.start,
    messagesProcessed: p.messages,
    errors: p.failed,
    successes: p.messages - p.failed,
  }));
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    interfaceId,
    sinceHours: hours.length,
    windowStart: since.toISOString(),
    windowEnd: new Date(Math.min(endMs, Math.max(options.nowMs, options.startMs))).toISOString(),
    messagesTotal: totals.messages,
    messagesSuccessful: totals.successful,
    messagesFailed: totals.failed,
    successRate: totals.messages > 0 ? round(totals.successful / totals.messages) : null,
    averageLatencyMs: totals.averageLatencyMs,
    p99LatencyMs: totals.p99LatencyMs,
    staleLatency: totals.staleLatency,
    clockSkew: totals.clockSkew,
    totalMessagesProcessed: totals.messages,
    totalErrors: totals.failed,
    totalSuccesses: totals.successful,
    errorRate: totals.errorRate === null ? null : round(totals.errorRate),
    lastMessageAt: await lastMessageAt(db, interfaceId),
    startedAt: options.watchingSinceMs === null ? null : new Date(options.watchingSinceMs).toISOString(),
    uptimeSeconds: options.watchingSinceMs === null ? 0 : Math.max(0, Math.floor((options.nowMs - options.watchingSinceMs) / 1000)),
    hourlyBreakdown,
  };
}
