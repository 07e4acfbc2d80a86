/**
 * The read side of the roll-ups: series, top-N, quantiles and totals, from the minute, hour and day roll-ups and
 * their dimension rows (never from stored messages). A window is cut into the coarsest whole buckets it holds:
 * minutes up to the first whole hour, hours up to the first whole day, days, then hours and minutes again at its
 * end, so a year costs a few hundred day rows per interface, not half a million minutes. Every ratio and average is
 * computed from the summed parts (failed over messages, latency sum over latency count), never as an average of
 * per-bucket ratios. A window reaching back past the minute retention loses the minutes of its first partial hour.
 */
import { sql, type Kysely } from 'kysely';
import type {
  MinuteWithin,
  MonitoredInterface,
  RollupDimension,
  RollupMetric,
  RollupParts,
  SeriesPoint,
  SeriesQuery,
  SeriesStep,
  TimeWindow,
  TopNQuery,
  TopNRow,
  WindowTotals,
} from '../api.ts';
import { ROLLUP_DIMENSIONS, ROLLUP_METRICS, rollupMetricValue } from '../api.ts';
import { checkWindow, windowInvalid } from '../../../kernel/lib/time/time-window.ts';
import { bucketStart, STEP_MS, windowSpans, type WindowSpan } from '../../../kernel/lib/time/time-steps.ts';
import { monitorErrors } from '../errors.ts';
import { bucketUpperMs, histogramQuantile, latencyBucket } from './latency-histogram.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** Most points one series may have. */
export const MAX_SERIES_POINTS = 10_000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The last histogram bucket whose upper edge is at most `maxMs` (-1: none). */
function lastBucketWithin(maxMs: number): number {
  let bucket = latencyBucket(maxMs);
  while (bucket >= 0 && bucketUpperMs(bucket) > maxMs) bucket--;
  return bucket;
}

function invalid(reason: string): Error {
  return monitorErrors.create('ROLLUP_QUERY_INVALID', { reason });
}

function emptyParts(): RollupParts {
  return { messages: 0, failed: 0, latencySumMs: 0, latencyCount: 0, staleLatency: 0, clockSkew: 0 };
}

function addInto(target: RollupParts, row: RollupParts): void {
  target.messages += row.messages;
  target.failed += row.failed;
  target.latencySumMs += row.latencySumMs;
  target.latencyCount += row.latencyCount;
  target.staleLatency += row.staleLatency;
  target.clockSkew += row.clockSkew;
}

interface SummedRow {
  messages: unknown;
  failed: unknown;
  latency_sum: unknown;
  latency_count: unknown;
  stale_latency: unknown;
  clock_skew: unknown;
}

function partsOf(row: SummedRow): RollupParts {
  return {
    messages: Number(row.messages ?? 0),
    failed: Number(row.failed ?? 0),
    latencySumMs: Number(row.latency_sum ?? 0),
    latencyCount: Number(row.latency_count ?? 0),
    staleLatency: Number(row.stale_latency ?? 0),
    clockSkew: Number(row.clock_skew ?? 0),
  };
}

/** The summed parts of a roll-up table, as select expressions. */
function sums() {
  return [
    sql<number>`sum(messages)`.as('messages'),
    sql<number>`sum(failed)`.as('failed'),
    sql<number>`sum(latency_sum)`.as('latency_sum'),
    sql<number>`sum(latency_count)`.as('latency_count'),
    sql<number>`sum(stale_latency)`.as('stale_latency'),
    sql<number>`sum(clock_skew)`.as('clock_skew'),
  ] as const;
}

const ADDITIVE: ReadonlySet<RollupMetric> = new Set(['messagesTotal', 'messagesFailed', 'messagesSuccessful']);

function checkMetric(metric: unknown): RollupMetric {
  if (!ROLLUP_METRICS.includes(metric as RollupMetric)) throw invalid(`metric must be one of ${ROLLUP_METRICS.join(', ')}`);
  return metric as RollupMetric;
}

function checkInterfaceIds(ids: string[] | undefined): string[] | undefined {
  if (ids === undefined || ids.length === 0) return undefined;
  if (ids.length > 1000) throw invalid('interfaceIds holds at most 1,000 ids');
  return ids;
}

/** Reads the roll-ups. */
export class RollupReader {
  constructor(
    private readonly db: Kysely<MonitorDatabase>,
    private readonly interfaces: { list(): Promise<MonitoredInterface[]> },
    private readonly clock: { nowMs(): number },
  ) {}

  /** Summed parts per group key over spans; `group` is a column of the table (or none: one total). */
  private async sumParts(
    spans: WindowSpan[],
    options: { interfaceIds?: string[]; dimension?: Exclude<RollupDimension, 'interface'>; groupByInterface?: boolean },
  ): Promise<Map<string, RollupParts>> {
    const out = new Map<string, RollupParts>();
    const ids = options.interfaceIds;
    for (const span of spans) {
      let rows: Array<SummedRow & { key: string | null }>;
      if (options.dimension) {
        let q = this.db
          .selectFrom('monitor_rollup_dimensions')
          .select([sql<string>`value`.as('key'), ...sums()])
          .where('step', '=', span.step)
          .where('dimension', '=', options.dimension)
          .where('start', '>=', span.from)
          .where('start', '<', span.to);
        if (ids) q = q.where('interface_id', 'in', ids);
        rows = (await q.groupBy('value').execute()) as typeof rows;
      } else if (span.step === 'minute') {
        let q = this.db
          .selectFrom('monitor_minutes')
          .select([options.groupByInterface ? sql<string>`interface_id`.as('key') : sql<null>`null`.as('key'), ...sums()])
          .where('minute', '>=', span.from)
          .where('minute', '<', span.to);
        if (ids) q = q.where('interface_id', 'in', ids);
        rows = (await (options.groupByInterface ? q.groupBy('interface_id') : q).execute()) as typeof rows;
      } else {
        let q = this.db
          .selectFrom('monitor_rollups')
          .select([options.groupByInterface ? sql<string>`interface_id`.as('key') : sql<null>`null`.as('key'), ...sums()])
          .where('step', '=', span.step)
          .where('start', '>=', span.from)
          .where('start', '<', span.to);
        if (ids) q = q.where('interface_id', 'in', ids);
        rows = (await (options.groupByInterface ? q.groupBy('interface_id') : q).execute()) as typeof rows;
      }
      for (const row of rows) {
        const key = row.key ?? '';
        const parts = out.get(key) ?? emptyParts();
        addInto(parts, partsOf(row));
        out.set(key, parts);
      }
    }
    return out;
  }

  /** The latency histogram (bucket -> count) over spans. */
  private async histogram(spans: WindowSpan[], interfaceIds: string[] | undefined): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    for (const span of spans) {
      let rows: Array<{ bucket: unknown; n: unknown }>;
      if (span.step === 'minute') {
        let q = this.db
          .selectFrom('monitor_minute_latency')
          .select(['bucket', sql<number>`sum("count")`.as('n')])
          .where('minute', '>=', span.from)
          .where('minute', '<', span.to);
        if (interfaceIds) q = q.where('interface_id', 'in', interfaceIds);
        rows = await q.groupBy('bucket').execute();
      } else {
        let q = this.db
          .selectFrom('monitor_rollup_latency')
          .select(['bucket', sql<number>`sum("count")`.as('n')])
          .where('step', '=', span.step)
          .where('start', '>=', span.from)
          .where('start', '<', span.to);
        if (interfaceIds) q = q.where('interface_id', 'in', interfaceIds);
        rows = await q.groupBy('bucket').execute();
      }
      for (const row of rows) counts.set(Number(row.bucket), (counts.get(Number(row.bucket)) ?? 0) + Number(row.n));
    }
    return counts;
  }

  private windowOf(window: TimeWindow): { sinceMs: number; untilMs: number } {
    const checked = checkWindow(window, this.clock.nowMs());
    return { sinceMs: checked.since.getTime(), untilMs: checked.until.getTime() };
  }

  /** Totals of a window (of some interfaces, or all). */
  async totals(window: TimeWindow, interfaceIds?: string[]): Promise<WindowTotals> {
    const { sinceMs, untilMs } = this.windowOf(window);
    const ids = checkInterfaceIds(interfaceIds);
    const spans = windowSpans(sinceMs, untilMs);
    const parts = (await this.sumParts(spans, { interfaceIds: ids })).get('') ?? emptyParts();
    const p99 = parts.latencyCount > 0 ? histogramQuantile(await this.histogram(spans, ids), 0.99) : null;
    return {
      ...parts,
      successful: parts.messages - parts.failed,
      errorRate: rollupMetricValue('errorRate', parts, null),
      averageLatencyMs: rollupMetricValue('averageLatencyMs', parts, null),
      p99LatencyMs: p99,
    };
  }

  /**
   * Per minute, the messages of an interface whose latency was at most `maxLatencyMs`: the histogram buckets whose
   * upper edge is at most the bound (never counts a message above it; may leave out one up to 5 % below it).
   */
  async latencyWithin(interfaceId: string, maxLatencyMs: number, window: TimeWindow): Promise<MinuteWithin[]> {
    if (!(typeof maxLatencyMs === 'number' && maxLatencyMs >= 0)) throw invalid('maxLatencyMs must be a number of 0 or more');
    const { sinceMs, untilMs } = this.windowOf(window);
    const rows = await this.db
      .selectFrom('monitor_minute_latency')
      .select(['minute', sql<number>`sum("count")`.as('n')])
      .where('interface_id', '=', interfaceId)
      .where('minute', '>=', iso(sinceMs))
      .where('minute', '<', iso(untilMs))
      .where('bucket', '<=', lastBucketWithin(maxLatencyMs))
      .groupBy('minute')
      .orderBy('minute')
      .execute();
    return rows.map((row) => ({ minute: row.minute, within: Number(row.n) }));
  }

  /**
   * A metric per bucket, UTC-aligned, every bucket of [since, until) present (zeros, or null for a rate or latency
   * of a bucket without messages). The first bucket is the one holding `since`.
   */
  async series(query: SeriesQuery): Promise<SeriesPoint[]> {
    const metric = checkMetric(query.metric);
    if (!(query.step in STEP_MS)) throw invalid('step must be minute, hour or day');
    const stepMs = STEP_MS[query.step];
    const { sinceMs, untilMs } = this.windowOf({ since: query.since, until: query.until });
    const first = bucketStart(sinceMs, query.step);
    const points = Math.ceil((untilMs - first) / stepMs);
    if (points > MAX_SERIES_POINTS) {
      throw windowInvalid(`the window from ${iso(sinceMs)} to ${iso(untilMs)} holds ${points} ${query.step}s, more than ${MAX_SERIES_POINTS}; give a shorter window`, 'since');
    }
    const ids = checkInterfaceIds(query.interfaceIds);
    const from = iso(first);
    const to = iso(first + points * stepMs);
    const byStart = new Map<string, RollupParts>();
    let rows: Array<SummedRow & { start: string }>;
    if (query.step === 'minute') {
      let q = this.db
        .selectFrom('monitor_minutes')
        .select([sql<string>`minute`.as('start'), ...sums()])
        .where('minute', '>=', from)
        .where('minute', '<', to);
      if (ids) q = q.where('interface_id', 'in', ids);
      rows = (await q.groupBy('minute').execute()) as typeof rows;
    } else {
      let q = this.db
        .selectFrom('monitor_rollups')
        .select(['start', ...sums()])
        .where('step', '=', query.step)
        .where('start', '>=', from)
        .where('start', '<', to);
      if (ids) q = q.where('interface_id', 'in', ids);
      rows = (await q.groupBy('start').execute()) as typeof rows;
    }
    for (const row of rows) byStart.set(row.start, partsOf(row));
    const histograms = metric === 'p99LatencyMs' ? await this.bucketHistograms(query.step, from, to, ids) : undefined;
    const series: SeriesPoint[] = [];
    for (let i = 0; i < points; i++) {
      const start = iso(first + i * stepMs);
      const parts = byStart.get(start) ?? emptyParts();
      const p99 = histograms?.has(start) ? histogramQuantile(histograms.get(start)!, 0.99) : null;
      series.push({ start, ...parts, value: rollupMetricValue(metric, parts, p99) });
    }
    return series;
  }

  /** Histograms per bucket start of one step over [from, to). */
  private async bucketHistograms(step: SeriesStep, from: string, to: string, ids: string[] | undefined): Promise<Map<string, Map<number, number>>> {
    let rows: Array<{ start: string; bucket: unknown; n: unknown }>;
    if (step === 'minute') {
      let q = this.db
        .selectFrom('monitor_minute_latency')
        .select([sql<string>`minute`.as('start'), 'bucket', sql<number>`sum("count")`.as('n')])
        .where('minute', '>=', from)
        .where('minute', '<', to);
      if (ids) q = q.where('interface_id', 'in', ids);
      rows = await q.groupBy(['minute', 'bucket']).execute();
    } else {
      let q = this.db
        .selectFrom('monitor_rollup_latency')
        .select(['start', 'bucket', sql<number>`sum("count")`.as('n')])
        .where('step', '=', step)
        .where('start', '>=', from)
        .where('start', '<', to);
      if (ids) q = q.where('interface_id', 'in', ids);
      rows = await q.groupBy(['start', 'bucket']).execute();
    }
    const out = new Map<string, Map<number, number>>();
    for (const row of rows) {
      const counts = out.get(row.start) ?? new Map<number, number>();
      counts.set(Number(row.bucket), Number(row.n));
      out.set(row.start, counts);
    }
    return out;
  }

  /**
   * The top values of a dimension by a metric over a window. `share` is the row's part of the metric over every
   * value of the dimension (additive metrics only). p99 is ranked for interfaces only (dimension rows keep no
   * histogram): by other dimensions its value is null.
   */
  async topN(query: TopNQuery): Promise<TopNRow[]> {
    const metric = checkMetric(query.metric);
    if (!ROLLUP_DIMENSIONS.includes(query.by)) throw invalid(`by must be one of ${ROLLUP_DIMENSIONS.join(', ')}`);
    const n = query.n ?? 10;
    if (!Number.isInteger(n) || n < 1 || n > 100) throw invalid('n must be an integer from 1 to 100');
    const { sinceMs, untilMs } = this.windowOf({ since: query.since, until: query.until });
    const ids = checkInterfaceIds(query.interfaceIds);
    const spans = windowSpans(sinceMs, untilMs);
    const grouped =
      query.by === 'interface'
        ? await this.sumParts(spans, { interfaceIds: ids, groupByInterface: true })
        : await this.sumParts(spans, { interfaceIds: ids, dimension: query.by });
    const names = query.by === 'interface' ? new Map((await this.interfaces.list()).map((i) => [i.id, i.name])) : undefined;
    const rows: TopNRow[] = [];
    let whole = 0;
    for (const [key, parts] of grouped) {
      if (parts.messages === 0) continue;
      const p99 = metric === 'p99LatencyMs' && query.by === 'interface' ? histogramQuantile(await this.histogram(spans, [key]), 0.99) : null;
      const value = rollupMetricValue(metric, parts, p99);
      if (ADDITIVE.has(metric)) whole += value ?? 0;
      rows.push({ key, label: names?.get(key) ?? key, ...parts, value, share: null });
    }
    rows.sort((a, b) => (b.value ?? -1) - (a.value ?? -1) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const top = rows.slice(0, n);
    if (ADDITIVE.has(metric)) for (const row of top) row.share = whole > 0 ? (row.value ?? 0) / whole : 0;
    return top;
  }
}
