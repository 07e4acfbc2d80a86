/**
 * Every write of the roll-ups, in one module: what a commit adds (inside the ledger's transaction, so the roll-ups
 * agree with the ledger to the message), the minute rows the periodic check writes (folder reachable, interface
 * enabled) and the retention job.
 *
 * A commit adds, per interface, to the minute, hour and day of each file's received time: totals, failed, usable
 * latency (sum, count, histogram) and the latencies counted apart (stale: the sender's time is older than the
 * horizon; clock skew: it lies in the future beyond the allowed skew), and the same parts per dimension value
 * (message type^event, error code, sending facility). Hours and days are written in the same transaction as the
 * minutes rather than compacted later: a commit touches a handful of buckets, so three upserts instead of one cost
 * little, and an hour or day is right the moment its messages are stored (a compaction job would lag and could
 * fail apart from the ledger).
 */
import type { Kysely } from 'kysely';
import type { CommitStatements } from './commit-statements.ts';
import { latencyBucket } from '../rollups/latency-histogram.ts';
import type { ReadFile } from './read-file.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** How a message's latency counts: usable, unknown, older than the horizon, or in the future beyond the skew. */
export type LatencyClass = 'ok' | 'none' | 'stale' | 'skew';

/** The bounds of usable latency. */
export interface LatencyLimits {
  /** Latencies above this (ms) are stale. */
  horizonMs: number;
  /** A sender's time more than this (ms) ahead is clock skew; a smaller lead counts as 0 ms. */
  skewMs: number;
}

/** The defaults of the config (24 h horizon, 5 min skew). */
export const DEFAULT_LATENCY_LIMITS: LatencyLimits = { horizonMs: 86_400_000, skewMs: 300_000 };

/** The class of a latency and the value that counts (0 for a lead within the skew; null unless `ok`). */
export function classifyLatency(latencyMs: number | null, limits: LatencyLimits): { latencyClass: LatencyClass; usableMs: number | null } {
  if (latencyMs === null || !Number.isFinite(latencyMs)) return { latencyClass: 'none', usableMs: null };
  if (latencyMs > limits.horizonMs) return { latencyClass: 'stale', usableMs: null };
  if (latencyMs < -limits.skewMs) return { latencyClass: 'skew', usableMs: null };
  return { latencyClass: 'ok', usableMs: Math.max(0, latencyMs) };
}

/**
 * Classifies a read message's latency in place, before it is stored, announced and rolled up: a stale or skewed
 * latency becomes null with its class kept, a lead within the skew becomes 0 ms.
 */
export function applyLatencyLimits(message: { latencyMs: number | null; latencyClass: LatencyClass }, limits: LatencyLimits): void {
  const { latencyClass, usableMs } = classifyLatency(message.latencyMs, limits);
  message.latencyClass = latencyClass;
  message.latencyMs = usableMs;
}

/** Start of the hour of an ISO instant. */
export function hourOf(iso: string): string {
  return `${iso.slice(0, 13)}:00:00.000Z`;
}

/** Start of the UTC day of an ISO instant. */
export function dayOf(iso: string): string {
  return `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** Start of the minute of an ISO instant. */
function minuteStart(iso: string): string {
  return `${iso.slice(0, 16)}:00.000Z`;
}

/** The additive parts of one bucket as they are summed in memory before the upserts. */
interface Parts {
  messages: number;
  failed: number;
  sum: number;
  count: number;
  stale: number;
  skew: number;
}

function emptyParts(): Parts {
  return { messages: 0, failed: 0, sum: 0, count: 0, stale: 0, skew: 0 };
}

function partsOf<K>(map: Map<string, { key: K; parts: Parts }>, id: string, key: K): Parts {
  let entry = map.get(id);
  if (!entry) {
    entry = { key, parts: emptyParts() };
    map.set(id, entry);
  }
  return entry.parts;
}

const ADD_PARTS =
  'messages = {t}.messages + excluded.messages, failed = {t}.failed + excluded.failed, ' +
  'latency_sum = {t}.latency_sum + excluded.latency_sum, latency_count = {t}.latency_count + excluded.latency_count, ' +
  'stale_latency = {t}.stale_latency + excluded.stale_latency, clock_skew = {t}.clock_skew + excluded.clock_skew';

/** Adds the parts of a finer bucket into a coarser one. */
function accumulate(into: Parts, parts: Parts): void {
  into.messages += parts.messages;
  into.failed += parts.failed;
  into.sum += parts.sum;
  into.count += parts.count;
  into.stale += parts.stale;
  into.skew += parts.skew;
}

function addParts(table: string): string {
  return ADD_PARTS.replaceAll('{t}', table);
}

function partValues(p: Parts): number[] {
  return [p.messages, p.failed, p.sum, p.count, p.stale, p.skew];
}

/** The dimension values of a message: message type^event, each distinct error code, sending facility. */
function dimensionValues(message: ReadFile['messages'][number]): Array<[string, string]> {
  const values: Array<[string, string]> = [];
  if (message.messageType) {
    const type = message.triggerEvent ? `${message.messageType}^${message.triggerEvent}` : message.messageType;
    values.push(['messageType', type.slice(0, 200)]);
  }
  if (message.sendingFacility) values.push(['facility', message.sendingFacility.replaceAll('\u0000', '\uFFFD').slice(0, 200)]);
  const codes = new Set<string>();
  for (const error of message.errors) codes.add(error.code);
  for (const code of codes) values.push(['errorCode', code.slice(0, 200)]);
  return values;
}

/**
 * Adds a batch's messages (their latencies classified by {@link applyLatencyLimits}) to every roll-up, inside the
 * commit's transaction: minutes (with their histograms), hours and days (with theirs) and each dimension value at the
 * three steps.
 */
export async function addToRollups(statements: CommitStatements, files: ReadFile[]): Promise<void> {
  type BucketKey = { interfaceId: string; minute: string };
  const minutes = new Map<string, { key: BucketKey; parts: Parts }>();
  const histogram = new Map<string, { key: BucketKey & { bucket: number }; parts: Parts }>();
  type DimensionKey = { interfaceId: string; minute: string; dimension: string; value: string };
  const dimensions = new Map<string, { key: DimensionKey; parts: Parts }>();
  for (const file of files) {
    if (file.messages.length === 0) continue;
    const minute = minuteStart(new Date(file.receivedAt).toISOString());
    const id = `${file.interfaceId}|${minute}`;
    const parts = partsOf(minutes, id, { interfaceId: file.interfaceId, minute });
    for (const message of file.messages) {
      const failed = message.isValid ? 0 : 1;
      // classified by applyLatencyLimits before the commit: usable latencies only are summed
      const latencyClass = message.latencyClass;
      const usableMs = latencyClass === 'ok' ? message.latencyMs : null;
      const add = (p: Parts) => {
        p.messages++;
        p.failed += failed;
        if (usableMs !== null) {
          p.sum += usableMs;
          p.count++;
        } else if (latencyClass === 'stale') p.stale++;
        else if (latencyClass === 'skew') p.skew++;
      };
      add(parts);
      if (usableMs !== null) {
        const bucket = latencyBucket(usableMs);
        partsOf(histogram, `${id}|${bucket}`, { interfaceId: file.interfaceId, minute, bucket }).count++;
      }
      for (const [dimension, value] of dimensionValues(message)) {
        add(partsOf(dimensions, `${id}|${dimension}|${value}`, { interfaceId: file.interfaceId, minute, dimension, value }));
      }
    }
  }
  if (minutes.size === 0) return;

  const minuteRows = [...minutes.values()];
  await statements.insert(
    'monitor_minutes',
    ['interface_id', 'minute', 'messages', 'failed', 'latency_sum', 'latency_count', 'stale_latency', 'clock_skew', 'reachable', 'enabled'],
    minuteRows.map(({ key, parts }) => [key.interfaceId, key.minute, ...partValues(parts), 1, 1]),
    `on conflict (interface_id, minute) do update set ${addParts('monitor_minutes')}`,
  );
  await statements.insert(
    'monitor_minute_latency',
    ['interface_id', 'minute', 'bucket', 'count'],
    [...histogram.values()].map(({ key, parts }) => [key.interfaceId, key.minute, key.bucket, parts.count]),
    'on conflict (interface_id, minute, bucket) do update set "count" = monitor_minute_latency."count" + excluded."count"',
  );

  for (const [step, startOf] of [['hour', hourOf], ['day', dayOf]] as const) {
    // several minutes of a batch may fall in one hour: rows of one insert must not conflict with each other
    const coarse = new Map<string, { key: BucketKey; parts: Parts }>();
    for (const { key, parts } of minuteRows) {
      const start = startOf(key.minute);
      accumulate(partsOf(coarse, `${key.interfaceId}|${start}`, { interfaceId: key.interfaceId, minute: start }), parts);
    }
    await statements.insert(
      'monitor_rollups',
      ['step', 'interface_id', 'start', 'messages', 'failed', 'latency_sum', 'latency_count', 'stale_latency', 'clock_skew'],
      [...coarse.values()].map(({ key, parts }) => [step, key.interfaceId, key.minute, ...partValues(parts)]),
      `on conflict (step, interface_id, start) do update set ${addParts('monitor_rollups')}`,
    );
    const coarseHistogram = new Map<string, number>();
    for (const { key, parts } of histogram.values()) {
      const id = `${key.interfaceId}\u0000${startOf(key.minute)}\u0000${key.bucket}`;
      coarseHistogram.set(id, (coarseHistogram.get(id) ?? 0) + parts.count);
    }
    await statements.insert(
      'monitor_rollup_latency',
      ['step', 'interface_id', 'start', 'bucket', 'count'],
      [...coarseHistogram].map(([id, count]) => {
        const [interfaceId, start, bucket] = id.split('\u0000');
        return [step, interfaceId, start, Number(bucket), count];
      }),
      'on conflict (step, interface_id, start, bucket) do update set "count" = monitor_rollup_latency."count" + excluded."count"',
    );
  }

  for (const step of ['minute', 'hour', 'day'] as const) {
    const rows = new Map<string, { key: DimensionKey; parts: Parts }>();
    for (const { key, parts } of dimensions.values()) {
      const start = step === 'minute' ? key.minute : step === 'hour' ? hourOf(key.minute) : dayOf(key.minute);
      accumulate(partsOf(rows, `${key.interfaceId}\u0000${start}\u0000${key.dimension}\u0000${key.value}`, { ...key, minute: start }), parts);
    }
    await statements.insert(
      'monitor_rollup_dimensions',
      ['step', 'dimension', 'start', 'interface_id', 'value', 'messages', 'failed', 'latency_sum', 'latency_count', 'stale_latency', 'clock_skew'],
      [...rows.values()].map(({ key, parts }) => [step, key.dimension, key.minute, key.interfaceId, key.value, ...partValues(parts)]),
      `on conflict (step, dimension, start, interface_id, value) do update set ${addParts('monitor_rollup_dimensions')}`,
    );
  }
}

/**
 * Records what a check saw of an interface in a minute: whether its folder was reachable and it was enabled. Once
 * any check of the minute saw it unreachable or disabled, the minute stays so.
 */
export async function recordMinuteState(
  db: Kysely<MonitorDatabase>,
  row: { interfaceId: string; minute: string; reachable: boolean; enabled: boolean },
): Promise<void> {
  const reachable = row.reachable ? 1 : 0;
  const enabled = row.enabled ? 1 : 0;
  await db
    .insertInto('monitor_minutes')
    .values({ interface_id: row.interfaceId, minute: row.minute, messages: 0, failed: 0, latency_sum: 0, latency_count: 0, stale_latency: 0, clock_skew: 0, reachable, enabled })
    .onConflict((oc) =>
      oc.columns(['interface_id', 'minute']).doUpdateSet((eb) => ({
        reachable: eb(eb.fn.coalesce('monitor_minutes.reachable', eb.lit(1)), '*', eb.ref('excluded.reachable')),
        enabled: eb(eb.fn.coalesce('monitor_minutes.enabled', eb.lit(1)), '*', eb.ref('excluded.enabled')),
      })),
    )
    .execute();
}

/** Days each step is kept. */
export interface RollupRetention {
  minuteDays: number;
  hourDays: number;
  dayDays: number;
}

/**
 * Removes roll-ups past their retention; answers how many rows went. The minute rows themselves (totals and the
 * folder-reachable and enabled state of each minute) are kept as long as hours: an SLA report judges every minute of
 * up to a year, and a minute without a row would read as not observed. Their latency histograms and dimension rows,
 * the bulk of the minute data, go after `minuteDays`.
 */
export async function pruneRollups(db: Kysely<MonitorDatabase>, nowMs: number, retention: RollupRetention): Promise<number> {
  const before = (days: number) => new Date(nowMs - days * 86_400_000).toISOString();
  let removed = 0;
  const count = (result: { numDeletedRows: bigint }) => {
    removed += Number(result.numDeletedRows);
  };
  const minuteCut = before(retention.minuteDays);
  count(await db.deleteFrom('monitor_minutes').where('minute', '<', before(Math.max(retention.minuteDays, retention.hourDays))).executeTakeFirst());
  count(await db.deleteFrom('monitor_minute_latency').where('minute', '<', minuteCut).executeTakeFirst());
  for (const [step, days] of [['minute', retention.minuteDays], ['hour', retention.hourDays], ['day', retention.dayDays]] as const) {
    const cut = before(days);
    if (step !== 'minute') {
      count(await db.deleteFrom('monitor_rollups').where('step', '=', step).where('start', '<', cut).executeTakeFirst());
      count(await db.deleteFrom('monitor_rollup_latency').where('step', '=', step).where('start', '<', cut).executeTakeFirst());
    }
    for (const dimension of ['messageType', 'errorCode', 'facility']) {
      count(
        await db.deleteFrom('monitor_rollup_dimensions').where('step', '=', step).where('dimension', '=', dimension).where('start', '<', cut).executeTakeFirst(),
      );
    }
  }
  return removed;
}
