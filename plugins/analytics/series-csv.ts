/**
 * The CSV export of a time series: the window is read from the monitor's roll-ups one slice of buckets at a time
 * and written through the kernel's CSV writer as the client reads, so a year of minutes never sits in memory (the
 * next slice is read only when the previous one has been sent). The slices are small and take turns with the rest of
 * the event loop (kernel LoopSlice), so an export of two years of minutes never holds another request for long; and
 * at most {@link MAX_CONCURRENT_EXPORTS} exports stream at once, the next one answered 429 with Retry-After.
 */
import type { Readable } from 'node:stream';
import type { RollupMetric } from '../monitor/api.ts';
import { csvBatchStream, csvField } from '../../kernel/lib/text/csv.ts';
import { LoopSlice } from '../../kernel/lib/async/loop-slice.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import { analyticsErrors } from './analytics-errors.ts';
import { bucketStart, STEP_MS } from '../../kernel/lib/time/time-steps.ts';
import type { TimeWindow as Window } from '../../kernel/lib/time/time-window.ts';
import { stepOf, windowBuckets, type Granularity } from './time-window.ts';

/** Most rows one export writes: two years of minutes. */
export const MAX_CSV_ROWS = 2 * 366 * 1440;

/** Buckets read from the roll-ups per slice: a day of minutes, a few milliseconds of work. */
const SLICE_BUCKETS = 1_440;

/** Exports that stream at once; one more is refused with 429 (each holds the loop's turns for seconds). */
export const MAX_CONCURRENT_EXPORTS = 2;

/** Seconds a refused export is told to wait (Retry-After). */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

/** The CSV columns, in order. */
export const SERIES_CSV_COLUMNS = ['bucketStart', 'interfaceId', 'granularity', 'metric', 'value', 'messages', 'failed', 'successful'] as const;

/** What one export covers. */
export interface SeriesExport {
  interfaceId: string | null;
  granularity: Granularity;
  metric: RollupMetric;
  window: Window;
}

/** Checks the export's size (before any byte is sent, so a refusal is still a clean 400). */
export function checkExportRows(request: SeriesExport): number {
  const rows = windowBuckets(request.window, stepOf(request.granularity));
  if (rows > MAX_CSV_ROWS) {
    throw analyticsErrors.create('ANALYTICS_TOO_MANY_POINTS', { granularity: request.granularity, points: rows, max: MAX_CSV_ROWS }, {
      field: 'granularity',
      points: rows,
      max: MAX_CSV_ROWS,
    });
  }
  return rows;
}

/** The records of an export, one batch of CSV text per slice. */
export async function* seriesRows(source: AnalyticsSource, request: SeriesExport): AsyncGenerator<string> {
  const step = stepOf(request.granularity);
  const width = STEP_MS[step];
  // the columns that are the same on every row are written once (through the kernel's field writer)
  const middle = `,${csvField(request.interfaceId ?? 'all')},${csvField(request.granularity)},${csvField(request.metric)},`;
  const end = request.window.until.getTime();
  let sliceStart = request.window.since.getTime();
  const turns = new LoopSlice();
  while (sliceStart < end) {
    // the roll-up reads answer at once on SQLite: without a turn, slice after slice would run in one stretch
    if (turns.spent()) await turns.pass();
    const sliceEnd = Math.min(end, bucketStart(sliceStart, step) + SLICE_BUCKETS * width);
    const points = await source.series({
      ...(request.interfaceId ? { interfaceIds: [request.interfaceId] } : {}),
      since: new Date(sliceStart),
      until: new Date(sliceEnd),
      step,
      metric: request.metric,
    });
    let text = '';
    for (const point of points) {
      text += `${csvField(point.start)}${middle}${csvField(point.value)},${point.messages},${point.failed},${point.messages - point.failed}\r\n`;
    }
    yield text;
    sliceStart = sliceEnd;
  }
}

/** Counts the exports streaming now, so that at most {@link MAX_CONCURRENT_EXPORTS} run at once. */
export class ExportSlots {
  private active = 0;

  constructor(readonly max = MAX_CONCURRENT_EXPORTS) {}

  /** Takes a slot, or throws 429 ANALYTICS_EXPORTS_BUSY with Retry-After; the answer gives the slot back once. */
  take(): () => void {
    if (this.active >= this.max) {
      const retryAfter = EXPORT_RETRY_AFTER_SECONDS;
      throw analyticsErrors.create('ANALYTICS_EXPORTS_BUSY', { max: this.max, retryAfter }, undefined, { 'retry-after': String(retryAfter) });
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
    };
  }
}

/** The export as a CSV stream with a header row; `release` is called once the stream has ended, failed or been closed. */
export function seriesCsv(source: AnalyticsSource, request: SeriesExport, release: () => void = () => {}): Readable {
  const stream = csvBatchStream(SERIES_CSV_COLUMNS, seriesRows(source, request));
  stream.once('close', release);
  return stream;
}

/** A file name that says what the export holds (`analytics-all-messagesTotal-oneHour-20260101T0000Z.csv`). */
export function seriesFileName(request: SeriesExport): string {
  const stamp = (date: Date) => date.toISOString().slice(0, 16).replace(/[-:]/g, '');
  const scope = (request.interfaceId ?? 'all').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return `analytics-${scope}-${request.metric}-${request.granularity}-${stamp(request.window.since)}Z-${stamp(request.window.until)}Z.csv`;
}
