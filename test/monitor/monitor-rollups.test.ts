// The roll-up read side of the monitor's contract (series, topN, quantile, totals) on SQLite and PostgreSQL: history
// is stored through the ingest's own commit (test/kit/monitor-history.ts) at chosen received times, then read back.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MonitorService } from '../../plugins/monitor/api.ts';
import { windowSpans } from '../../kernel/lib/time/time-steps.ts';
import { pruneRollups } from '../../plugins/monitor/ingest/rollup-writer.ts';
import { recordMessages, type RecordedMessage } from '../kit/monitor-history.ts';
import type { Kysely } from 'kysely';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { startMonitorHarness, storages, type MonitorHarness } from './monitor-harness.ts';

const HOUR = 3_600_000;

describe('window spans', () => {
  it('cuts a window into minutes, hours and days that tile it exactly', () => {
    const since = Date.parse('2026-03-01T22:17:00Z');
    const until = Date.parse('2026-03-04T01:05:00Z');
    expect(windowSpans(since, until)).toEqual([
      { step: 'minute', from: '2026-03-01T22:17:00.000Z', to: '2026-03-01T23:00:00.000Z' },
      { step: 'hour', from: '2026-03-01T23:00:00.000Z', to: '2026-03-02T00:00:00.000Z' },
      { step: 'day', from: '2026-03-02T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z' },
      { step: 'hour', from: '2026-03-04T00:00:00.000Z', to: '2026-03-04T01:00:00.000Z' },
      { step: 'minute', from: '2026-03-04T01:00:00.000Z', to: '2026-03-04T01:05:00.000Z' },
    ]);
    expect(windowSpans(until, since)).toEqual([]);
  });

  it('tiles any window with whole buckets of each span, contiguous, in order', () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 * 24 * 90 }), fc.integer({ min: 1, max: 60 * 24 * 90 }), (startMinute, lengthMinutes) => {
        const since = base + startMinute * 60_000;
        const until = since + lengthMinutes * 60_000;
        const spans = windowSpans(since, until);
        expect(spans.length).toBeGreaterThan(0);
        expect(Date.parse(spans[0].from)).toBe(since);
        expect(Date.parse(spans[spans.length - 1].to)).toBe(until);
        const width: Record<string, number> = { minute: 60_000, hour: HOUR, day: 24 * HOUR };
        for (const [i, span] of spans.slice(1).entries()) expect(span.from).toBe(spans[i].to);
        for (const span of spans) {
          expect(Date.parse(span.from) % width[span.step]).toBe(0);
          expect(Date.parse(span.to) % width[span.step]).toBe(0);
        }
        // at most one span of minutes and hours on each side of the days
        expect(spans.length).toBeLessThanOrEqual(5);
      }),
    );
  });
});

describe.each(storages())('monitor roll-ups on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  let a: string;
  let b: string;
  /** Three days of history starting 2026-03-01T00:00Z, built once (reads only below). */
  const day0 = Date.parse('2026-03-01T00:00:00Z');
  const at = (hours: number, minutes = 0) => new Date(day0 + hours * HOUR + minutes * 60_000).toISOString();
  const d = (hours: number, minutes = 0) => new Date(at(hours, minutes));

  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    a = (await h.post('/api/monitor/interfaces', { name: 'Lab feed', directoryPath: h.folder() })).json.data.id;
    b = (await h.post('/api/monitor/interfaces', { name: 'ADT feed', directoryPath: h.folder() })).json.data.id;
    const ofA: RecordedMessage[] = [];
    // hour 1: 10 ORU^R01 from LAB, 2 failed (one with two codes); latencies 100..1000 ms
    for (let i = 0; i < 10; i++) {
      ofA.push({
        receivedAt: at(1, i),
        messageType: 'ORU',
        triggerEvent: 'R01',
        sendingFacility: 'LAB',
        errorCodes: i === 0 ? ['REQUIRED_FIELD_MISSING', 'TABLE_VALUE_UNKNOWN'] : i === 1 ? ['REQUIRED_FIELD_MISSING'] : [],
        latencyMs: (i + 1) * 100,
      });
    }
    // day 2 (hour 30): 5 ADT^A01 from WARD, one stale (3 days old), one clock skew (an hour ahead)
    for (let i = 0; i < 5; i++) {
      ofA.push({
        receivedAt: at(30, i),
        sendingFacility: 'WARD',
        latencyMs: i === 0 ? 3 * 24 * HOUR : i === 1 ? -HOUR : 50,
      });
    }
    await recordMessages(h.wb.workbench.storage, a, ofA);
    // interface b: 1 message in hour 1, 40 in hour 50, every one failed
    await recordMessages(h.wb.workbench.storage, b, [
      { receivedAt: at(1, 30), errorCodes: ['PARSE_ERROR'], sendingFacility: 'WARD' },
      ...Array.from({ length: 40 }, (_, i) => ({ receivedAt: at(50, i), errorCodes: ['PARSE_ERROR'], sendingFacility: 'WARD' })),
    ]);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers a series by hour with every UTC-aligned bucket present, zeros and nulls included', async () => {
    const points = await service.series({ interfaceIds: [a], since: d(0, 30), until: d(4), step: 'hour', metric: 'errorRate' });
    expect(points.map((p) => p.start)).toEqual([at(0), at(1), at(2), at(3)]);
    expect(points.map((p) => p.messages)).toEqual([0, 10, 0, 0]);
    expect(points.map((p) => p.value)).toEqual([null, 0.2, null, null]);
    const total = await service.series({ since: d(0), until: d(3 * 24), step: 'day', metric: 'messagesTotal' });
    expect(total.map((p) => p.value)).toEqual([11, 5, 40]);
  });

  it('computes ratios from summed parts, never as an average of bucket ratios', async () => {
    const both = await service.series({ since: d(0), until: d(3 * 24), step: 'day', metric: 'errorRate', interfaceIds: [a, b] });
    // day 0: a 2 of 10 failed, b 1 of 1: (2 + 1) / 11, not (0.2 + 1) / 2
    expect(both[0].value).toBeCloseTo(3 / 11, 10);
    const totals = await service.totals({ since: d(0), until: d(3 * 24) }, [a, b]);
    expect(totals).toMatchObject({ messages: 56, failed: 43, successful: 13 });
    expect(totals.errorRate).toBeCloseTo(43 / 56, 10);
  });

  it('counts stale and clock-skew latencies apart and keeps them out of the average and p99', async () => {
    const totals = await service.totals({ since: d(24), until: d(48) }, [a]);
    expect(totals).toMatchObject({ messages: 5, staleLatency: 1, clockSkew: 1, latencyCount: 3, averageLatencyMs: 50 });
    expect(totals.p99LatencyMs).toBeGreaterThanOrEqual(50);
    expect(totals.p99LatencyMs).toBeLessThanOrEqual(53);
  });

  it('reads the p99 latency from the histograms (never below the exact value, at most 5 % above)', async () => {
    // hour 1 of a: ten latencies of 100..1000 ms, so the exact p99 is 1000
    const p99 = (await service.totals({ since: d(0), until: d(2) }, [a])).p99LatencyMs;
    expect(p99).toBeGreaterThanOrEqual(1000);
    expect(p99).toBeLessThanOrEqual(1050);
    expect((await service.totals({ since: d(0), until: d(72) }, [b])).p99LatencyMs).toBeNull();
  });

  it('answers the same totals whatever the window is cut into (minutes, hours, days)', async () => {
    const whole = await service.totals({ since: d(0, 5), until: d(60, 7) });
    const parts = await Promise.all([
      service.totals({ since: d(0, 5), until: d(1, 5) }),
      service.totals({ since: d(1, 5), until: d(29) }),
      service.totals({ since: d(29), until: d(60, 7) }),
    ]);
    expect(parts.reduce((sum, p) => sum + p.messages, 0)).toBe(whole.messages);
    expect(parts.reduce((sum, p) => sum + p.failed, 0)).toBe(whole.failed);
    expect(whole.messages).toBe(56);
  });

  it('ranks the top values of each dimension with their share', async () => {
    const window = { since: d(0), until: d(72) };
    const types = await service.topN({ by: 'messageType', metric: 'messagesTotal', ...window });
    expect(types.map((r) => [r.key, r.value])).toEqual([
      ['ADT^A01', 46],
      ['ORU^R01', 10],
    ]);
    expect(types[0].share).toBeCloseTo(46 / 56, 10);
    const codes = await service.topN({ by: 'errorCode', metric: 'messagesTotal', ...window, n: 2 });
    expect(codes.map((r) => [r.key, r.value])).toEqual([
      ['PARSE_ERROR', 41],
      ['REQUIRED_FIELD_MISSING', 2],
    ]);
    const facilities = await service.topN({ by: 'facility', metric: 'errorRate', ...window });
    expect(facilities.map((r) => r.key)).toEqual(['WARD', 'LAB']);
    expect(facilities[0].share).toBeNull();
    const byInterface = await service.topN({ by: 'interface', metric: 'messagesFailed', ...window });
    expect(byInterface.map((r) => [r.key, r.label, r.value])).toEqual([
      [b, 'ADT feed', 41],
      [a, 'Lab feed', 2],
    ]);
  });

  it('refuses a series of more than 10,000 points, an unknown metric and a bad instant, naming the problem', async () => {
    await expect(service.series({ since: d(0), until: d(24 * 8), step: 'minute', metric: 'messagesTotal' })).rejects.toMatchObject({
      code: 'WINDOW_INVALID',
      message: expect.stringMatching(/holds 11520 minutes, more than 10000; give a shorter window$/),
    });
    await expect(service.series({ since: d(0), until: d(1), step: 'hour', metric: 'nope' as never })).rejects.toMatchObject({
      code: 'ROLLUP_QUERY_INVALID',
      message: expect.stringMatching(/metric must be one of/),
    });
    await expect(service.totals({ since: new Date('yesterday') })).rejects.toMatchObject({ code: 'WINDOW_INVALID', message: expect.stringMatching(/since must be a valid instant/) });
    await expect(service.totals({ since: d(2), until: d(1) })).rejects.toMatchObject({ code: 'WINDOW_INVALID', message: expect.stringMatching(/until .* lies before since/) });
    await expect(service.topN({ by: 'interface', metric: 'messagesTotal', since: d(0), n: 0 })).rejects.toMatchObject({
      message: expect.stringMatching(/n must be an integer from 1 to 100/),
    });
  });

  it('removes roll-ups past their retention, each step by its own', async () => {
    const other = (await h.post('/api/monitor/interfaces', { name: 'Retention feed', directoryPath: h.folder() })).json.data.id;
    const old = Date.parse('2025-01-01T10:00:00Z');
    await recordMessages(h.wb.workbench.storage, other, [{ receivedAt: new Date(old), latencyMs: 500 }]);
    const window = { since: new Date(old - HOUR), until: new Date(old + 2 * HOUR) };
    expect((await service.totals(window, [other])).messages).toBe(1);
    const db = h.wb.workbench.storage.db as Kysely<MonitorDatabase>;
    const minutes = { since: new Date(old), until: new Date(old + 5 * 60_000) };
    expect((await service.totals(minutes, [other])).p99LatencyMs).not.toBeNull();
    expect((await service.topN({ by: 'messageType', metric: 'messagesTotal', ...minutes, interfaceIds: [other] })).length).toBe(1);
    // 10 days later: minute histograms and dimension rows (7 days) go; minute rows stay as long as hours (SLA reports
    // judge every minute of up to a year), and hours and days (400 days) stay
    await pruneRollups(db, old + 10 * 24 * HOUR, { minuteDays: 7, hourDays: 400, dayDays: 400 });
    expect((await service.totals(minutes, [other])).p99LatencyMs).toBeNull();
    expect(await service.topN({ by: 'messageType', metric: 'messagesTotal', ...minutes, interfaceIds: [other] })).toEqual([]);
    expect((await service.totals(minutes, [other])).messages).toBe(1);
    expect((await service.series({ interfaceIds: [other], ...window, step: 'hour', metric: 'messagesTotal' })).map((p) => p.messages)).toEqual([0, 1, 0]);
    await pruneRollups(db, old + 405 * 24 * HOUR, { minuteDays: 7, hourDays: 400, dayDays: 400 });
    expect((await service.totals({ since: new Date(old - 48 * HOUR), until: new Date(old + 48 * HOUR) }, [other])).messages).toBe(0);
  });
});
