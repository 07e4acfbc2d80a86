/**
 * Minute and hour buckets of the triage aggregate (triage-tables.ts) and how a window is read from them: the minutes
 * up to its first whole hour, its whole hours, then the minutes after its last whole hour. A bucket belongs to a
 * window when its start lies in it, as the monitor's roll-ups count, so a window's counts here agree with the
 * monitor's totals of the same window.
 */

/** One minute, in ms. */
export const MINUTE_MS = 60_000;

/** One hour, in ms. */
export const HOUR_MS = 3_600_000;

/** Steps of the failure buckets. */
export type BucketStep = 'minute' | 'hour';

/** The start (ISO 8601 UTC) of the bucket of `step` holding the instant `ms`. */
export function bucketStart(ms: number, step: BucketStep): string {
  const size = step === 'minute' ? MINUTE_MS : HOUR_MS;
  return new Date(Math.floor(ms / size) * size).toISOString();
}

/** Buckets of one step whose start lies in [from, to) (ISO 8601 UTC). */
export interface BucketSpan {
  step: BucketStep;
  from: string;
  to: string;
}

/** Cuts [sinceMs, untilMs) into minute and hour spans (the coarsest whole buckets), in time order. */
export function bucketSpans(sinceMs: number, untilMs: number): BucketSpan[] {
  if (!(untilMs > sinceMs)) return [];
  const iso = (ms: number) => new Date(ms).toISOString();
  const firstHour = Math.ceil(sinceMs / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(untilMs / HOUR_MS) * HOUR_MS;
  if (firstHour >= lastHour) return [{ step: 'minute', from: iso(sinceMs), to: iso(untilMs) }];
  const spans: BucketSpan[] = [];
  if (firstHour > sinceMs) spans.push({ step: 'minute', from: iso(sinceMs), to: iso(firstHour) });
  spans.push({ step: 'hour', from: iso(firstHour), to: iso(lastHour) });
  if (untilMs > lastHour) spans.push({ step: 'minute', from: iso(lastHour), to: iso(untilMs) });
  return spans;
}
