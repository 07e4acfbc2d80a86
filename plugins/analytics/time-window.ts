/**
 * Windows and granularities of the analytics routes: the spec's defaults (the last 24 hours), `since` before
 * `until`, buckets aligned to UTC minutes, hours or days, and at most {@link MAX_POINTS} buckets per answer so the
 * work of one request stays bounded.
 */
import type { SeriesStep } from '../monitor/api.ts';
import { analyticsErrors } from './analytics-errors.ts';

/** Most buckets one series (or CSV export) answers. */
export const MAX_POINTS = 10_000;

/** Granularities of the spec, by their names in the API. */
export const GRANULARITIES = ['oneMinute', 'oneHour', 'oneDay'] as const;

/** One granularity of {@link GRANULARITIES}. */
export type Granularity = (typeof GRANULARITIES)[number];

/** Bucket width of each granularity in milliseconds. */
export const STEP_MS: Record<SeriesStep, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The monitor's step of a granularity. */
export function stepOf(granularity: Granularity): SeriesStep {
  return granularity === 'oneMinute' ? 'minute' : granularity === 'oneHour' ? 'hour' : 'day';
}

/** A resolved window: `since` inclusive, `until` exclusive. */
export interface Window {
  since: Date;
  until: Date;
}

const DAY_MS = 86_400_000;

/**
 * The window of a request: defaults to the 24 hours before now; an `until` in the future is clamped to now (nothing
 * after now has been received, and a report must not be dated in the future); `since` must be before `until`.
 */
export function resolveWindow(nowMs: number, since: Date | undefined, until: Date | undefined, defaultMs = DAY_MS): Window {
  const end = until === undefined || until.getTime() > nowMs ? new Date(nowMs) : until;
  const start = since ?? new Date(end.getTime() - defaultMs);
  if (start.getTime() >= end.getTime()) {
    throw analyticsErrors.create('ANALYTICS_WINDOW_INVALID', { since: start.toISOString(), until: end.toISOString() });
  }
  return { since: start, until: end };
}

/** Start of the UTC bucket holding `ms`. */
export function bucketStart(ms: number, step: SeriesStep): number {
  return Math.floor(ms / STEP_MS[step]) * STEP_MS[step];
}

/** Number of buckets of a window: from the bucket holding `since` to the one holding the last instant before `until`. */
export function bucketCount(window: Window, step: SeriesStep): number {
  const first = bucketStart(window.since.getTime(), step);
  const last = bucketStart(window.until.getTime() - 1, step);
  return (last - first) / STEP_MS[step] + 1;
}

/** Refuses a series of more than {@link MAX_POINTS} buckets, naming the granularity. */
export function checkPoints(window: Window, granularity: Granularity): number {
  const points = bucketCount(window, stepOf(granularity));
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
 * Refuses a window longer than {@link MAX_POINTS} days on a route that picks its own granularity (a dashboard), naming
 * the route's own parameters, since and until.
 */
export function checkWindowLength(window: Window): void {
  const days = bucketCount(window, 'day');
  if (days > MAX_POINTS) {
    throw analyticsErrors.create('ANALYTICS_WINDOW_TOO_LONG', {
      since: window.since.toISOString(),
      until: window.until.toISOString(),
      days,
      max: MAX_POINTS,
    });
  }
}

/** A granularity that shows a window in a readable number of buckets (minutes up to 6 h, hours up to 14 days). */
export function autoGranularity(window: Window): Granularity {
  const span = window.until.getTime() - window.since.getTime();
  if (span <= 6 * 3_600_000) return 'oneMinute';
  if (span <= 14 * DAY_MS) return 'oneHour';
  return 'oneDay';
}
