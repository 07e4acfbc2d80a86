/**
 * The roll-up reads of the query contract ({@link MonitorStore}: series, topN, quantile, totals) over the minute
 * roll-ups and their latency histograms. Buckets are summed in SQL (a minute, hour or day is a prefix of the stored
 * ISO minute, so grouping is UTC-aligned on both stores) and every bucket of the range is returned, empty ones
 * included. Ratios and averages are computed from summed parts, never averaged. Reads go through the
 * (interface, minute) keys, so their cost follows the window's minutes, not the stored messages.
 */
import type { Kysely } from 'kysely';
import {
  ROLLUP_METRICS,
  type RollupMetric,
  type RollupParts,
  type SeriesPoint,
  type SeriesQuery,
  type SeriesStep,
  type TimeWindow,
  type TopNQuery,
  type TopNRow,
  type WindowTotals,
} from './api.ts';
import { monitorErrors } from './errors.ts';
import { histogramQuantile } from './latency-histogram.ts';
import type { MonitorDatabase } from './monitor-tables.ts';

/** Most buckets one series returns (a year of hours is 8,784). */
export const SERIES_BUCKETS_MAX = 10_000;

/** Length of the stored ISO minute's prefix that names a bucket of each step. */
const PREFIX: Record<SeriesStep, number> = { minute: 16, hour: 13, day: 10 };

const STEP_MS: Record<SeriesStep, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Metrics whose values add up over a dimension's values (so a share means something). */
const ADDITIVE: ReadonlySet<RollupMetric> = new Set(['messagesTotal', 'messagesFailed', 'messagesSuccessful']);

function invalid(reason: string): Error {
  return monitorErrors.create('ROLLUP_QUERY_INVALID', { reason });
}

function instantMs(value: string | Date | undefined, field: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw invalid(`${field} is required`);
    return fallback;
  }
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid(`${field} "${String(value)}" is not a date and time`);
  return ms;
}

function checkMetric(metric: RollupMetric): RollupMetric {
  if (!ROLLUP_METRICS.includes(metric)) throw invalid(`metric must be one of ${ROLLUP_METRICS.join(', ')}`);
  return metric;
}

function emptyParts(): RollupParts {
  return { messages: 0, failed: 0, latencySumMs: 0, latencyCount: 0, staleLatency: 0, clockSkew: 0 };
}

/** The metric's value from summed parts (p99 from the summed histogram, given). */
function metricValue(metric: RollupMetric, parts: RollupParts, p99: number | null): number | null {
  switch (metric) {
    case 'messagesTotal':
      return parts.messages;
    case 'messagesFailed':
      return parts.failed;
    case 'messagesSuccessful':
      return parts.messages - parts.failed;
    case 'errorRate':
      return parts.messages === 0 ? null : parts.failed / parts.messages;
    case 'averageLatencyMs':
      return parts.latencyCount === 0 ? null : parts.latencySumMs / parts.latencyCount;
    case 'p99LatencyMs':
      return p99;
  }
}

/** Start of the bucket holding an instant (UTC). */
function bucketStart(ms: number, step: SeriesStep): number {
  return ms - (((ms % STEP_MS[step]) + STEP_MS[step]) % STEP_MS[step]);
}

/** Reads roll-ups for the query contract. */
export class RollupReader {
  constructor(
    private readonly db: Kysely<MonitorDatabase>,
    private readonly nowMs: () => number,
  ) {}

  private minutes(interfaceIds: readonly string[] | undefined, since: string, until: string) {
    let q = this.db.selectFrom('monitor_minutes').where('minute', '>=', since).where('minute', '<', until);
    if (interfaceIds !== undefined && interfaceIds.length > 0) q = q.where('interface_id', 'in', interfaceIds);
    return q;
  }

  private histogram(interfaceIds: readonly string[] | undefined, since: string, until: string) {
    let q = this.db.selectFrom('monitor_minute_latency').where('minute', '>=', since).where('minute', '<', until);
    if (interfaceIds !== undefined && interfaceIds.length > 0) q = q.where('interface_id', 'in', interfaceIds);
    return q;
  }

  /** {@link MonitorStore.series}. */
  async series(query: SeriesQuery): Promise<SeriesPoint[]> {
    const step = query.step;
    if (!(step in PREFIX)) throw invalid('step must be minute, hour or day');
    const metric = checkMetric(query.metric);
    const first = bucketStart(instantMs(query.since, 'since'), step);
    const untilMs = instantMs(query.until, 'until');
    if (untilMs <= first) throw invalid('until must be after since');
    const count = Math.ceil((untilMs - first) / STEP_MS[step]);
    if (count > SERIES_BUCKETS_MAX) throw invalid(`the range holds ${count} ${step} buckets; at most ${SERIES_BUCKETS_MAX} are returned`);
    const since = new Date(first).toISOString();
    const until = new Date(untilMs).toISOString();
    const length = PREFIX[step];
    const rows = await this.minutes(query.interfaceIds, since, until)
      .select((eb) => [
        eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(length)]).as('bucket'),
        eb.fn.sum<number>('messages').as('messages'),
        eb.fn.sum<number>('failed').as('failed'),
        eb.fn.sum<number>('latency_sum').as('latency_sum'),
        eb.fn.sum<number>('latency_count').as('latency_count'),
      ])
      .groupBy((eb) => eb.fn('substr', ['minute', eb.lit(1), eb.lit(length)]))
      .execute();
    const byBucket = new Map(rows.map((r) => [r.bucket, r]));
    const histograms = new Map<string, Map<number, number>>();
    if (metric === 'p99LatencyMs') {
      const buckets = await this.histogram(query.interfaceIds, since, until)
        .select((eb) => [
          eb.fn<string>('substr', ['minute', eb.lit(1), eb.lit(length)]).as('start'),
          'bucket',
          eb.fn.sum<number>('count').as('count'),
        ])
        .groupBy((eb) => [eb.fn('substr', ['minute', eb.lit(1), eb.lit(length)]), 'bucket'])
        .execute();
      for (const b of buckets) {
        const map = histograms.get(b.start) ?? new Map<number, number>();
        map.set(Number(b.bucket), Number(b.count));
        histograms.set(b.start, map);
      }
    }
    const points: SeriesPoint[] = [];
    for (let i = 0; i < count; i++) {
      const start = new Date(first + i * STEP_MS[step]).toISOString();
      const key = start.slice(0, length);
      const row = byBucket.get(key);
      const parts = emptyParts();
      if (row) {
        parts.messages = Number(row.messages ?? 0);
        parts.failed = Number(row.failed ?? 0);
        parts.latencySumMs = Number(row.latency_sum ?? 0);
        parts.latencyCount = Number(row.latency_count ?? 0);
      }
      const histogram = histograms.get(key);
      const p99 = histogram ? histogramQuantile(histogram, 0.99) : null;
      points.push({ start, ...parts, value: metricValue(metric, parts, p99) });
    }
    return points;
  }

  /** {@link MonitorStore.totals}. */
  async totals(window: TimeWindow, interfaceIds?: string[]): Promise<WindowTotals> {
    const since = new Date(instantMs(window.since, 'since')).toISOString();
    const until = new Date(instantMs(window.until, 'until', this.nowMs() + 60_000)).toISOString();
    const row = await this.minutes(interfaceIds, since, until)
      .select((eb) => [
        eb.fn.sum<number>('messages').as('messages'),
        eb.fn.sum<number>('failed').as('failed'),
        eb.fn.sum<number>('latency_sum').as('latency_sum'),
        eb.fn.sum<number>('latency_count').as('latency_count'),
      ])
      .executeTakeFirstOrThrow();
    const parts: RollupParts = {
      ...emptyParts(),
      messages: Number(row.messages ?? 0),
      failed: Number(row.failed ?? 0),
      latencySumMs: Number(row.latency_sum ?? 0),
      latencyCount: Number(row.latency_count ?? 0),
    };
    return {
      ...parts,
      successful: parts.messages - parts.failed,
      errorRate: metricValue('errorRate', parts, null),
      averageLatencyMs: metricValue('averageLatencyMs', parts, null),
      p99LatencyMs: await this.windowQuantile(interfaceIds, 0.99, since, until),
    };
  }

  private async windowQuantile(interfaceIds: readonly string[] | undefined, q: number, since: string, until: string): Promise<number | null> {
    const rows = await this.histogram(interfaceIds, since, until)
      .select((eb) => ['bucket', eb.fn.sum<number>('count').as('count')])
      .groupBy('bucket')
      .execute();
    return histogramQuantile(new Map(rows.map((r) => [Number(r.bucket), Number(r.count)])), q);
  }

  /** {@link MonitorStore.quantile}. */
  async quantile(interfaceId: string | null, q: number, window: TimeWindow): Promise<number | null> {
    if (typeof q !== 'number' || !(q >= 0 && q <= 1)) throw invalid('q must be a number from 0 to 1');
    const since = new Date(instantMs(window.since, 'since')).toISOString();
    const until = new Date(instantMs(window.until, 'until', this.nowMs() + 60_000)).toISOString();
    return this.windowQuantile(interfaceId === null ? undefined : [interfaceId], q, since, until);
  }

  /** {@link MonitorStore.topN}: by interface (the other dimensions need per-dimension roll-ups). */
  async topN(query: TopNQuery): Promise<TopNRow[]> {
    const metric = checkMetric(query.metric);
    const n = query.n ?? 10;
    if (!Number.isInteger(n) || n < 1 || n > 100) throw invalid('n must be a whole number from 1 to 100');
    if (query.by !== 'interface') throw invalid(`topN by ${String(query.by)} needs dimension roll-ups, which this store does not keep; use by: interface`);
    const since = new Date(instantMs(query.since, 'since')).toISOString();
    const until = new Date(instantMs(query.until, 'until', this.nowMs() + 60_000)).toISOString();
    const rows = await this.minutes(query.interfaceIds, since, until)
      .select((eb) => [
        'interface_id',
        eb.fn.sum<number>('messages').as('messages'),
        eb.fn.sum<number>('failed').as('failed'),
        eb.fn.sum<number>('latency_sum').as('latency_sum'),
        eb.fn.sum<number>('latency_count').as('latency_count'),
      ])
      .groupBy('interface_id')
      .execute();
    const p99s = new Map<string, Map<number, number>>();
    if (metric === 'p99LatencyMs') {
      const buckets = await this.histogram(query.interfaceIds, since, until)
        .select((eb) => ['interface_id', 'bucket', eb.fn.sum<number>('count').as('count')])
        .groupBy(['interface_id', 'bucket'])
        .execute();
      for (const b of buckets) {
        const map = p99s.get(b.interface_id) ?? new Map<number, number>();
        map.set(Number(b.bucket), Number(b.count));
        p99s.set(b.interface_id, map);
      }
    }
    const names = new Map(
      (await this.db.selectFrom('monitor_interfaces').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
    );
    const ranked = rows.map((r) => {
      const parts: RollupParts = {
        ...emptyParts(),
        messages: Number(r.messages ?? 0),
        failed: Number(r.failed ?? 0),
        latencySumMs: Number(r.latency_sum ?? 0),
        latencyCount: Number(r.latency_count ?? 0),
      };
      const histogram = p99s.get(r.interface_id);
      return { key: r.interface_id, label: names.get(r.interface_id) ?? r.interface_id, ...parts, value: metricValue(metric, parts, histogram ? histogramQuantile(histogram, 0.99) : null) };
    });
    const total = ADDITIVE.has(metric) ? ranked.reduce((sum, r) => sum + (r.value ?? 0), 0) : 0;
    return ranked
      .filter((r) => r.value !== null)
      .sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.key.localeCompare(b.key))
      .slice(0, n)
      .map((r) => ({ ...r, share: ADDITIVE.has(metric) ? (total === 0 ? 0 : (r.value ?? 0) / total) : null }));
  }
}
