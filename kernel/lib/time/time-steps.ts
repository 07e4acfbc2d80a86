/**
 * The one step and bucket arithmetic of roll-ups, series and aggregates: UTC-aligned minute, hour and day buckets,
 * how many buckets a window holds, and how a window is cut into the coarsest whole buckets it contains (minutes up
 * to the first whole hour, hours up to the first whole day, days, then hours and minutes again at its end). A bucket
 * belongs to a window when its start lies in it.
 */

/** The steps of a bucketed series, finest first. */
export const TIME_STEPS = ['minute', 'hour', 'day'] as const;

/** One step of {@link TIME_STEPS}. */
export type TimeStep = (typeof TIME_STEPS)[number];

/** Width of each step's buckets, in ms. */
export const STEP_MS: Readonly<Record<TimeStep, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Start (epoch ms) of the UTC bucket of `step` holding the instant `ms`. */
export function bucketStart(ms: number, step: TimeStep): number {
  return Math.floor(ms / STEP_MS[step]) * STEP_MS[step];
}

/** Number of buckets of `step` from the one holding `sinceMs` to the one holding the last instant before `untilMs`. */
export function bucketCount(sinceMs: number, untilMs: number, step: TimeStep): number {
  if (!(untilMs > sinceMs)) return 0;
  return (bucketStart(untilMs - 1, step) - bucketStart(sinceMs, step)) / STEP_MS[step] + 1;
}

/** A part of a window answered from one step's buckets: those whose start lies in [from, to) (ISO 8601 UTC). */
export interface WindowSpan {
  step: TimeStep;
  from: string;
  to: string;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function ceilTo(ms: number, size: number): number {
  return Math.ceil(ms / size) * size;
}

function floorTo(ms: number, size: number): number {
  return Math.floor(ms / size) * size;
}

/**
 * Cuts [sinceMs, untilMs) into spans of the coarsest whole buckets it holds, up to `coarsest` (a store that keeps no
 * day buckets passes `hour`), in time order. An empty or backwards window has no spans.
 */
export function windowSpans(sinceMs: number, untilMs: number, coarsest: Exclude<TimeStep, 'minute'> = 'day'): WindowSpan[] {
  if (!(untilMs > sinceMs)) return [];
  const spans: WindowSpan[] = [];
  const push = (step: TimeStep, from: number, to: number) => {
    if (to > from) spans.push({ step, from: iso(from), to: iso(to) });
  };
  const h1 = ceilTo(sinceMs, STEP_MS.hour);
  const h2 = floorTo(untilMs, STEP_MS.hour);
  if (h1 >= h2) {
    push('minute', sinceMs, untilMs);
    return spans;
  }
  push('minute', sinceMs, h1);
  const d1 = ceilTo(h1, STEP_MS.day);
  const d2 = floorTo(h2, STEP_MS.day);
  if (coarsest === 'hour' || d1 >= d2) push('hour', h1, h2);
  else {
    push('hour', h1, d1);
    push('day', d1, d2);
    push('hour', d2, h2);
  }
  push('minute', h2, untilMs);
  return spans;
}
