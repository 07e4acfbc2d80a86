/**
 * The CSV export of a time series: the window is read from the monitor's roll-ups one slice of buckets at a time
 * and written through the kernel's CSV writer as the client reads, so a year of minutes never sits in memory (the
 * next slice is read only when the previous one has been sent).
 */
import type { Readable } from 'node:stream';
import type { RollupMetric } from '../monitor/api.ts';
import { csvBatchStream, csvField } from '../../kernel/csv.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import { analyticsErrors } from './analytics-errors.ts';
import { bucketCount, bucketStart, STEP_MS, stepOf, type Granularity, type Window } from './time-window.ts';

/** Most rows one export writes: two years of minutes. */
export const MAX_CSV_ROWS = 2 * 366 * 1440;

/** Buckets read from the roll-ups per slice. */
const SLICE_BUCKETS = 10_000;

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
  const rows = bucketCount(request.window, stepOf(request.granularity));
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
  while (sliceStart < end) {
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

/** The export as a CSV stream with a header row. */
export function seriesCsv(source: AnalyticsSource, request: SeriesExport): Readable {
  return csvBatchStream(SERIES_CSV_COLUMNS, seriesRows(source, request));
}

/** A file name that says what the export holds (`analytics-all-messagesTotal-oneHour-20260101T0000Z.csv`). */
export function seriesFileName(request: SeriesExport): string {
  const stamp = (date: Date) => date.toISOString().slice(0, 16).replace(/[-:]/g, '');
  const scope = (request.interfaceId ?? 'all').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return `analytics-${scope}-${request.metric}-${request.granularity}-${stamp(request.window.since)}Z-${stamp(request.window.until)}Z.csv`;
}
