/**
 * The one time window of every route and contract: `since` inclusive, `until` exclusive, both Dates. A route parses
 * its window once, at the edge, with {@link resolveWindow} or {@link windowOfHours}; everything behind it takes
 * Dates and never parses text again. A window that cannot be read (since not before until, too long, a required
 * since missing) is 400 WINDOW_INVALID naming the parameters the caller sent; a malformed instant is refused by the
 * input schema ({@link timestampInput}) before the window is built.
 */
import { kernelErrors, type WorkbenchError } from '../../errors.ts';

/** A resolved window: `since` inclusive, `until` exclusive. */
export interface TimeWindow {
  since: Date;
  until: Date;
}

/** How a route names and bounds its window. */
export interface WindowRules {
  /** Now, in epoch ms. */
  nowMs: number;
  /** Span of a window without `since`, in ms (default 24 hours); ignored when `sinceRequired`. */
  defaultSpanMs?: number;
  /** An `until` after now is moved to now (nothing after now has been received). */
  clampToNow?: boolean;
  /** Longest span accepted, in ms. */
  maxSpanMs?: number;
  /** Refuse a window without `since`. */
  sinceRequired?: boolean;
  /** The parameter names the caller used (default `since` and `until`; audit and SLA say `from` and `to`). */
  names?: { since: string; until: string };
  /** Where the parameters travel (for the error's details; default query). */
  location?: 'query' | 'body';
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The 400 WINDOW_INVALID of a window problem, with details naming the parameter. */
export function windowInvalid(problem: string, path: string, location: 'query' | 'body' = 'query'): WorkbenchError {
  return kernelErrors.create('WINDOW_INVALID', { problem }, [{ location, path, message: problem }]);
}

/**
 * The window of a request from its optional instants: `until` defaults to now, `since` to `defaultSpanMs` before
 * `until`; `since` must lie before `until`.
 */
export function resolveWindow(since: Date | undefined, until: Date | undefined, rules: WindowRules): TimeWindow {
  const names = rules.names ?? { since: 'since', until: 'until' };
  const location = rules.location ?? 'query';
  if (since === undefined && rules.sinceRequired) throw windowInvalid(`${names.since} is required`, names.since, location);
  const end = until === undefined || (rules.clampToNow && until.getTime() > rules.nowMs) ? new Date(rules.nowMs) : until;
  const start = since ?? new Date(end.getTime() - (rules.defaultSpanMs ?? DAY_MS));
  if (start.getTime() >= end.getTime()) {
    throw windowInvalid(
      `${names.since} (${start.toISOString()}) is not before ${names.until} (${end.toISOString()}); give a window that starts before it ends`,
      names.since,
      location,
    );
  }
  if (rules.maxSpanMs !== undefined && end.getTime() - start.getTime() > rules.maxSpanMs) {
    const days = Math.ceil((end.getTime() - start.getTime()) / DAY_MS);
    throw windowInvalid(
      `${names.since} to ${names.until} spans ${days} days, more than the ${Math.floor(rules.maxSpanMs / DAY_MS)} accepted here; give a later ${names.since}`,
      names.since,
      location,
    );
  }
  return { since: start, until: end };
}

/** The window of the last `hours` hours before now (the spec's `sinceHours`). */
export function windowOfHours(hours: number, nowMs: number): TimeWindow {
  return { since: new Date(nowMs - hours * HOUR_MS), until: new Date(nowMs) };
}

/**
 * Checks a window handed to a contract method (already Dates): both instants valid and `since` not after `until`.
 * An empty window (since = until) is accepted and holds nothing.
 */
export function checkWindow(window: { since: Date; until?: Date }, nowMs: number): TimeWindow {
  const until = window.until ?? new Date(nowMs);
  if (!(window.since instanceof Date) || Number.isNaN(window.since.getTime())) throw windowInvalid('since must be a valid instant', 'since');
  if (!(until instanceof Date) || Number.isNaN(until.getTime())) throw windowInvalid('until must be a valid instant', 'until');
  if (until.getTime() < window.since.getTime()) {
    throw windowInvalid(`until (${until.toISOString()}) lies before since (${window.since.toISOString()})`, 'until');
  }
  return { since: window.since, until };
}
