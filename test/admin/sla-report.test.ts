// The SLA report engine on its own: window edges, slow minutes, a 100 % target, the bound on listed breaches, and
// invariants over random minutes (property-tested).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_LISTED_BREACHES, computeSlaReport, type SlaMinuteInput } from '../../plugins/admin/sla-report.ts';

const MINUTE = 60_000;
const start = Date.parse('2026-03-01T00:00:00Z');
const sla = { interfaceId: 'i', uptimeTarget: 99, maxResponseMs: 1000, alertThresholdPercent: 50 };
const row = (offset: number, fields: Partial<SlaMinuteInput> = {}): SlaMinuteInput => ({
  minute: new Date(start + offset * MINUTE).toISOString(),
  messages: 0,
  failed: 0,
  latencyCount: 0,
  reachable: true,
  enabled: true,
  ...fields,
});

describe('SLA report engine', () => {
  it('counts the minutes whose start lies in [from, to), wherever from and to fall within a minute', () => {
    const rows = [row(0), row(1), row(2)];
    const report = computeSlaReport(sla, rows, { from: new Date(start + 30_000), to: new Date(start + 2 * MINUTE + 1) });
    // minute 0 starts before from; minutes 1 and 2 start inside.
    expect(report.minutes.total).toBe(2);
    expect(report.from).toBe(new Date(start + MINUTE).toISOString());
    expect(report.uptimePercent).toBe(100);
  });

  it('marks a minute with a message over maxResponseMs as a slow breach, while it stays up', () => {
    const report = computeSlaReport(sla, [row(0, { messages: 4, latencyCount: 4, messagesWithinMs: 3 }), row(1, { messages: 2, latencyCount: 2, messagesWithinMs: 2 })], {
      from: new Date(start),
      to: new Date(start + 2 * MINUTE),
    });
    expect(report.minutes).toMatchObject({ up: 2, down: 0, slow: 1 });
    expect(report.withinMaxResponsePercent).toBe(83.3333);
    expect(report.responseMet).toBe(false);
    expect(report.met).toBe(false);
    expect(report.breaches).toEqual([
      { from: new Date(start).toISOString(), to: new Date(start + MINUTE).toISOString(), minutes: 1, downMinutes: 0, slowMinutes: 1, reasons: ['slow'] },
    ]);
    expect(report.alertThresholdReached).toBe(false);
  });

  it('with a 100 % target any down minute exhausts the budget and reaches the alert threshold', () => {
    const strict = { ...sla, uptimeTarget: 100, alertThresholdPercent: 100 };
    const report = computeSlaReport(strict, [row(0), row(1, { reachable: false })], { from: new Date(start), to: new Date(start + 2 * MINUTE) });
    expect(report.errorBudget).toEqual({ allowedDownMinutes: 0, usedDownMinutes: 1, usedPercent: null, exhausted: true });
    expect(report.alertThresholdReached).toBe(true);
    const clean = computeSlaReport(strict, [row(0), row(1)], { from: new Date(start), to: new Date(start + 2 * MINUTE) });
    expect(clean).toMatchObject({ alertThresholdReached: false, met: true });
  });

  it('counts minutes the service was not running apart: neither up nor down, no breach, not in the budget', () => {
    // 10 minutes: 2 up, 6 without a row (the service was not running), 1 unreachable, 1 up
    const rows = [row(0), row(1), row(8, { reachable: false }), row(9)];
    const report = computeSlaReport(sla, rows, { from: new Date(start), to: new Date(start + 10 * MINUTE) });
    expect(report.minutes).toEqual({ total: 10, up: 3, down: 1, notObserved: 6, unreachable: 1, disabled: 0, slow: 0 });
    expect(report.uptimePercent).toBe(75);
    expect(report.errorBudget).toMatchObject({ allowedDownMinutes: 0.04, usedDownMinutes: 1 });
    expect(report.breaches.map((b) => b.reasons)).toEqual([['unreachable']]);
  });

  it('lists at most MAX_LISTED_BREACHES ranges but counts them all', () => {
    const rows = Array.from({ length: 2 * MAX_LISTED_BREACHES + 10 }, (_, i) => row(i, { reachable: i % 2 === 0 }));
    const report = computeSlaReport(sla, rows, { from: new Date(start), to: new Date(start + rows.length * MINUTE) });
    expect(report.breachCount).toBe(MAX_LISTED_BREACHES + 5);
    expect(report.breaches).toHaveLength(MAX_LISTED_BREACHES);
  });

  it('keeps its invariants over any stored minutes', () => {
    const minuteArbitrary = fc.record({
      offset: fc.integer({ min: -5, max: 70 }),
      messages: fc.nat(20),
      failedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      reachable: fc.boolean(),
      enabled: fc.boolean(),
      timed: fc.nat(20),
      within: fc.nat(25),
    });
    fc.assert(
      fc.property(fc.array(minuteArbitrary, { maxLength: 80 }), fc.integer({ min: 1, max: 60 }), (minutes, length) => {
        const rows = minutes.map((m) =>
          row(m.offset, {
            messages: m.messages,
            failed: Math.floor(m.messages * m.failedShare),
            reachable: m.reachable,
            enabled: m.enabled,
            latencyCount: m.timed,
            messagesWithinMs: m.within,
          }),
        );
        const report = computeSlaReport(sla, rows, { from: new Date(start), to: new Date(start + length * MINUTE) });
        expect(report.minutes.total).toBe(length);
        expect(report.minutes.up + report.minutes.down + report.minutes.notObserved).toBe(length);
        expect(report.minutes.unreachable + report.minutes.disabled).toBe(report.minutes.down);
        const breachMinutes = report.breaches.reduce((sum, b) => sum + b.minutes, 0);
        expect(breachMinutes).toBeGreaterThanOrEqual(report.minutes.down);
        expect(report.messages.withinMaxResponse).toBeLessThanOrEqual(report.messages.withLatency);
        // a share of the observed minutes: null exactly when none was observed
        expect(report.uptimePercent === null).toBe(report.minutes.total - report.minutes.notObserved === 0);
        expect(report.uptimePercent ?? 0).toBeGreaterThanOrEqual(0);
        expect(report.uptimePercent ?? 100).toBeLessThanOrEqual(100);
        for (let i = 1; i < report.breaches.length; i++) expect(report.breaches[i].from > report.breaches[i - 1].to).toBe(true);
      }),
    );
  });
});
