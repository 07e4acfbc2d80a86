/**
 * The SLA report, computed from the monitor's stored minute roll-ups of one interface (a pure function: no clock,
 * no database). Definitions:
 * - the window holds every whole minute whose start lies in [from, to);
 * - a minute is **up** when the folder was reachable and the interface enabled during it. A minute the monitor
 *   stored no roll-up for (the service was not running) is **not observed**: counted apart, neither up nor down,
 *   and no breach (nobody could see the interface then); a minute with messages but no recorded check counts as
 *   reachable and enabled (messages were read from the folder);
 * - uptime % = up minutes / observed minutes × 100;
 * - within-response % = messages whose latency (arrival minus MSH-7) is at most maxResponseMs / messages with a
 *   known latency × 100, from the per-minute counts the monitor stores;
 * - error rate % = failed messages / messages × 100;
 * - a **breach** minute is down, or slow (some message beyond maxResponseMs); consecutive breach minutes form
 *   one breach range;
 * - the SLA is **met** when uptime % ≥ uptimeTarget and within-response % ≥ uptimeTarget (no timed messages: that
 *   part holds);
 * - error budget: the window may lose (100 − uptimeTarget) % of its observed minutes; the alert threshold is reached when
 *   down minutes have used at least alertThresholdPercent of that budget (any down minute with a 100 % target).
 */

/** An SLA definition (SPEC "SLA definition"). */
export interface SlaDefinition {
  interfaceId: string;
  uptimeTarget: number;
  maxResponseMs: number;
  alertThresholdPercent: number;
}

/** The parts of a stored minute roll-up the report reads. */
export interface SlaMinuteInput {
  /** Start of the minute, ISO 8601 UTC. */
  minute: string;
  messages: number;
  failed: number;
  reachable: boolean | null;
  enabled: boolean | null;
  /** Messages of the minute with a known latency. */
  latencyCount: number;
  /** Of those, messages whose latency is at most maxResponseMs (asked of the monitor with the SLA's bound). */
  messagesWithinMs?: number;
}

/** Why a minute breached. */
export type BreachReason = 'not-observed' | 'unreachable' | 'disabled' | 'slow';

/** Consecutive breach minutes. */
export interface BreachRange {
  from: string;
  /** End (exclusive): the end of the last breach minute. */
  to: string;
  minutes: number;
  downMinutes: number;
  slowMinutes: number;
  reasons: BreachReason[];
}

/** The computed report. */
export interface SlaReport {
  interfaceId: string;
  from: string;
  to: string;
  sla: SlaDefinition;
  minutes: { total: number; up: number; down: number; notObserved: number; unreachable: number; disabled: number; slow: number };
  uptimePercent: number | null;
  messages: { total: number; failed: number; withLatency: number; withinMaxResponse: number };
  withinMaxResponsePercent: number | null;
  errorRatePercent: number | null;
  errorBudget: { allowedDownMinutes: number; usedDownMinutes: number; usedPercent: number | null; exhausted: boolean };
  breaches: BreachRange[];
  /** Number of breach ranges (the list holds at most {@link MAX_LISTED_BREACHES}). */
  breachCount: number;
  uptimeMet: boolean | null;
  responseMet: boolean | null;
  met: boolean | null;
  alertThresholdReached: boolean;
}

/** Longest list of breach ranges one report carries (the count is always complete). */
export const MAX_LISTED_BREACHES = 1000;

const MINUTE_MS = 60_000;

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function percent(part: number, whole: number): number | null {
  return whole > 0 ? round((part / whole) * 100) : null;
}

/** The first minute start at or after the instant. */
export function ceilToMinute(at: Date): number {
  return Math.ceil(at.getTime() / MINUTE_MS) * MINUTE_MS;
}

/** Computes the report over the window from the stored minutes (rows outside the window are ignored). */
export function computeSlaReport(sla: SlaDefinition, rows: readonly SlaMinuteInput[], window: { from: Date; to: Date }): SlaReport {
  const first = ceilToMinute(window.from);
  const end = window.to.getTime();
  const total = end > first ? Math.ceil((end - first) / MINUTE_MS) : 0;
  const byMinute = new Map<number, SlaMinuteInput>();
  for (const row of rows) {
    const at = Date.parse(row.minute);
    if (at >= first && at < end) byMinute.set(at, row);
  }

  const counts = { total, up: 0, down: 0, notObserved: 0, unreachable: 0, disabled: 0, slow: 0 };
  const messages = { total: 0, failed: 0, withLatency: 0, withinMaxResponse: 0 };
  const breaches: BreachRange[] = [];
  let breachCount = 0;
  let open: BreachRange | undefined;
  const close = () => {
    if (!open) return;
    breachCount++;
    if (breaches.length < MAX_LISTED_BREACHES) breaches.push(open);
    open = undefined;
  };

  for (let index = 0; index < total; index++) {
    const at = first + index * MINUTE_MS;
    const row = byMinute.get(at);
    let down: BreachReason | undefined;
    let slow = false;
    if (!row) down = 'not-observed';
    else {
      messages.total += row.messages;
      messages.failed += row.failed;
      const reachable = row.reachable ?? (row.messages > 0 ? true : null);
      const enabled = row.enabled ?? (row.messages > 0 ? true : null);
      if (reachable === null || enabled === null) down = 'not-observed';
      else if (!reachable) down = 'unreachable';
      else if (!enabled) down = 'disabled';
      const timed = row.latencyCount;
      const within = Math.min(row.messagesWithinMs ?? timed, timed);
      messages.withLatency += timed;
      messages.withinMaxResponse += within;
      slow = within < timed;
    }
    if (down === 'not-observed') {
      counts.notObserved++;
      close();
      continue;
    }
    if (down) {
      counts.down++;
      if (down === 'unreachable') counts.unreachable++;
      else counts.disabled++;
    } else counts.up++;
    if (slow) counts.slow++;
    if (!down && !slow) {
      close();
      continue;
    }
    const minuteIso = new Date(at).toISOString();
    if (!open) open = { from: minuteIso, to: minuteIso, minutes: 0, downMinutes: 0, slowMinutes: 0, reasons: [] };
    open.to = new Date(at + MINUTE_MS).toISOString();
    open.minutes++;
    if (down) open.downMinutes++;
    if (slow) open.slowMinutes++;
    for (const reason of [down, slow ? ('slow' as const) : undefined]) {
      if (reason && !open.reasons.includes(reason)) open.reasons.push(reason);
    }
  }
  close();

  const observed = total - counts.notObserved;
  const uptimePercent = percent(counts.up, observed);
  const withinMaxResponsePercent = percent(messages.withinMaxResponse, messages.withLatency);
  const allowedDownMinutes = round((observed * (100 - sla.uptimeTarget)) / 100);
  const usedPercent = allowedDownMinutes > 0 ? round((counts.down / allowedDownMinutes) * 100) : null;
  const exhausted = allowedDownMinutes > 0 ? counts.down >= allowedDownMinutes : counts.down > 0;
  const uptimeMet = uptimePercent === null ? null : uptimePercent >= sla.uptimeTarget;
  const responseMet = withinMaxResponsePercent === null ? null : withinMaxResponsePercent >= sla.uptimeTarget;
  return {
    interfaceId: sla.interfaceId,
    from: new Date(first).toISOString(),
    to: window.to.toISOString(),
    sla,
    minutes: counts,
    uptimePercent,
    messages,
    withinMaxResponsePercent,
    errorRatePercent: percent(messages.failed, messages.total),
    errorBudget: { allowedDownMinutes, usedDownMinutes: counts.down, usedPercent, exhausted },
    breaches,
    breachCount,
    uptimeMet,
    responseMet,
    met: uptimeMet === null ? null : uptimeMet && responseMet !== false,
    alertThresholdReached:
      counts.down > 0 && (usedPercent === null ? exhausted : usedPercent >= sla.alertThresholdPercent),
  };
}
