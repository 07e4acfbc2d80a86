/**
 * Windows and granularities of the analytics routes: the spec's defaults (the last 24 hours), read with the
 * kernel's one window parser (400 WINDOW_INVALID) and step arithmetic, and at most {@link MAX_POINTS} buckets per
 * answer so the work of one request stays bounded.
 */
import type { SeriesStep } from '../monitor/api.ts';
import { bucketCount, STEP_MS } from '../../kernel/lib/time/time-steps.ts';
import { resolveWindow, windowInvalid, type TimeWindow } from '../../kernel/lib/time/time-window.ts';
import { analyticsErrors } from './analytics-errors.ts';

/** Most buckets one series (or CSV export) answers. */
export const MAX_POINTS = 10_000;

/** Granularities of the spec, by their names in the API. */
export const GRANULARITIES = ['oneMinute', 'oneHour', 'oneDay'] as const;

/** One granularity of {@link GRANULARITIES}. */
export type Granularity = (typeof GRANULARITIES)[number];

/** The monitor's step of a granularity. */
export function stepOf(granularity: Granularity): SeriesStep {
  return granularity === 'oneMinute' ? 'minute' : granularity === 'oneHour' ? 'hour' : 'day';
}

/**
 * The window of an analytics request: defaults to the 24 hours before now; an `until` in the future is clamped to
 * now (nothing after now has been received, and a report must not be dated in the future); `since` must be before
 * `until` (400 WINDOW_INVALID).
 */
export function analyticsWindow(nowMs: number, since: Date | undefined, until: Date | undefined, location: 'query' | 'body' = 'query'): TimeWindow {
  return resolveWindow(since, until, { nowMs, clampToNow: true, location });
}

/** Number of buckets of a window at a step. */
export function windowBuckets(window: TimeWindow, step: SeriesStep): number {
  return bucketCount(window.since.getTime(), window.until.getTime(), step);
}

/** Refuses a series of more than {@link MAX_POINTS} buckets, naming the granularity. */
export function checkPoints(window: TimeWindow, granularity: Granularity): number {
  const points = windowBuckets(window, stepOf(granularity));
  if (points > MAX_POINTS) {
    throw analyticsErrors.create('ANALYTICS_TOO_MANY_POINTS', { granularity, points, max: MAX_POINTS }, {
      field: 'granularity',
      points,
      max: MAX_POINTS,
    });
  }
  return points;
}

/**
 * Refuses a window longer than {@link MAX_POINTS} days on a route that picks its own granularity (a dashboard):
 * 400 WINDOW_INVALID naming since.
 */
export function checkWindowLength(window: TimeWindow): void {
  const days = windowBuckets(window, 'day');
  if (days > MAX_POINTS) {
    throw windowInvalid(
      `since (${window.since.toISOString()}) to until (${window.until.toISOString()}) spans ${days} days, more than the ${MAX_POINTS} this route shows; give a later since`,
      'since',
    );
  }
}

/** A granularity that shows a window in a readable number of buckets (minutes up to 6 h, hours up to 14 days). */
export function autoGranularity(window: TimeWindow): Granularity {
  const span = window.until.getTime() - window.since.getTime();
  if (span <= 6 * STEP_MS.hour) return 'oneMinute';
  if (span <= 14 * STEP_MS.day) return 'oneHour';
  return 'oneDay';
}
