/**
 * Metrics of an interface over the last `sinceHours` clock hours (the current hour included), with both field sets
 * of the spec in one object. Everything comes from the minute roll-ups, which are written in the same transaction
 * as the messages, so the counts agree with the ledger to the message.
 */
import type { Kysely } from 'kysely';
import type { MonitorDatabase } from './monitor-tables.ts';
import { hourlyTotals, lastMessageAt, windowTotals } from './window-stats.ts';

/** One hour of the breakdown. */
export interface HourBucket {
  /** Start of the hour, ISO 8601 UTC. */
  hour: string;
  messagesProcessed: number;
  errors: number;
  successes: number;
}

/** The metrics answer: set A and set B of the spec, plus the window. */
export interface InterfaceMetrics {
  interfaceId: string;
  sinceHours: number;
  windowStart: string;
  windowEnd: string;
  messagesTotal: number;
  messagesSuccessful: number;
  messagesFailed: number;
  /** Successful share of messages (0..1); null without messages. */
  successRate: number | null;
  averageLatencyMs: number | null;
  /** From the latency histogram: never below the exact p99, at most 5 % above it. */
  p99LatencyMs: number | null;
  totalMessagesProcessed: number;
  totalErrors: number;
  totalSuccesses: number;
  /** Failed share of messages (0..1); null without messages. */
  errorRate: number | null;
  lastMessageAt: string | null;
  /** When watching of the interface last (re)started; null while not watched. */
  startedAt: string | null;
  uptimeSeconds: number;
  hourlyBreakdown: HourBucket[];
}

const HOUR_MS = 3_600_000;

/** Start of the window: the start of the hour `sinceHours - 1` hours before the current one. */
export function windowStartMs(nowMs: number, sinceHours: number): number {
  return Math.floor(nowMs / HOUR_MS) * HOUR_MS - (sinceHours - 1) * HOUR_MS;
}

/** Computes the metrics of an interface. */
export async function interfaceMetrics(
  db: Kysely<MonitorDatabase>,
  interfaceId: string,
  options: { sinceHours: number; nowMs: number; watchingSinceMs: number | null },
): Promise<InterfaceMetrics> {
  const startMs = windowStartMs(options.nowMs, options.sinceHours);
  const since = new Date(startMs).toISOString();
  const totals = await windowTotals(db, interfaceId, since);
  const hours = await hourlyTotals(db, interfaceId, since);
  const hourlyBreakdown: HourBucket[] = [];
  for (let i = 0; i < options.sinceHours; i++) {
    const hour = new Date(startMs + i * HOUR_MS).toISOString();
    const found = hours.get(hour.slice(0, 13));
    const processed = found?.messages ?? 0;
    const errors = found?.failed ?? 0;
    hourlyBreakdown.push({ hour, messagesProcessed: processed, errors, successes: processed - errors });
  }
  const successes = totals.messages - totals.failed;
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    interfaceId,
    sinceHours: options.sinceHours,
    windowStart: since,
    windowEnd: new Date(options.nowMs).toISOString(),
    messagesTotal: totals.messages,
    messagesSuccessful: successes,
    messagesFailed: totals.failed,
    successRate: totals.messages > 0 ? round(successes / totals.messages) : null,
    averageLatencyMs: totals.latencyCount > 0 ? Math.round(totals.latencySumMs / totals.latencyCount) : null,
    p99LatencyMs: totals.p99LatencyMs,
    totalMessagesProcessed: totals.messages,
    totalErrors: totals.failed,
    totalSuccesses: successes,
    errorRate: totals.messages > 0 ? round(totals.failed / totals.messages) : null,
    lastMessageAt: await lastMessageAt(db, interfaceId),
    startedAt: options.watchingSinceMs === null ? null : new Date(options.watchingSinceMs).toISOString(),
    uptimeSeconds: options.watchingSinceMs === null ? 0 : Math.max(0, Math.floor((options.nowMs - options.watchingSinceMs) / 1000)),
    hourlyBreakdown,
  };
}
