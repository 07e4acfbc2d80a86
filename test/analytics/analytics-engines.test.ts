// Unit tests of the analytics engines: windows and buckets, template files, the sliced CSV export
// and the delivery's retries with back-off, against the in-memory monitor of the test kit (test/kit/in-memory-monitor.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import fc from 'fast-check';
import { ManualClock } from '../helpers/manual-clock.ts';
import type { SeriesPoint, SeriesQuery } from '../../plugins/monitor/api.ts';
import type { AnalyticsSource } from '../../plugins/analytics/analytics-source.ts';
import { loadDashboardTemplates } from '../../plugins/analytics/dashboard-templates.ts';
import { cronOf, ReportDelivery, reportWindow } from '../../plugins/analytics/report-delivery.ts';
import type { MailSender, ReportMail } from '../../plugins/analytics/report-mailer.ts';
import type { ReportSchedule, ReportScheduleStore } from '../../plugins/analytics/report-schedules.ts';
import { seriesRows } from '../../plugins/analytics/series-csv.ts';
import { alertMatches, messageFilterOf, QUERY_FILTER_KEYS, queryFiltersSchema } from '../../plugins/analytics/query-filters.ts';
import { analyticsWindow, checkPoints, windowBuckets } from '../../plugins/analytics/time-window.ts';
import { Scheduler } from '../../kernel/background/scheduler.ts';
import { InMemoryMonitor } from '../kit/in-memory-monitor.ts';
import { sampleReport } from '../kit/monitor-report.ts';
import { renderReport } from '../../plugins/monitor/reports/report-rendering.ts';

const templatesDir = resolve(import.meta.dirname, '../../plugins/analytics/dashboards');

describe('windows and buckets', () => {
  it('defaults to the 24 hours before now and refuses a window that does not start before it ends', () => {
    const now = Date.parse('2026-06-10T12:00:00Z');
    const window = analyticsWindow(now, undefined, undefined);
    expect(window.since.toISOString()).toBe('2026-06-09T12:00:00.000Z');
    expect(window.until.toISOString()).toBe('2026-06-10T12:00:00.000Z');
    const same = new Date(now);
    expect(() => analyticsWindow(now, same, same)).toThrow(expect.objectContaining({ code: 'WINDOW_INVALID', message: expect.stringMatching(/since .* is not before until/) }));
  });

  it('counts the buckets holding the window, partial ones at both ends included', () => {
    const window = { since: new Date('2026-06-10T10:30:00Z'), until: new Date('2026-06-10T12:10:00Z') };
    expect(windowBuckets(window, 'hour')).toBe(3);
    expect(windowBuckets({ since: new Date('2026-06-10T10:00:00Z'), until: new Date('2026-06-10T12:00:00Z') }, 'hour')).toBe(2);
    expect(windowBuckets(window, 'day')).toBe(1);
  });

  it('answers 10,000 buckets and refuses 10,001, naming the granularity', () => {
    const since = new Date('2026-01-01T00:00:00Z');
    expect(checkPoints({ since, until: new Date(since.getTime() + 10_000 * 60_000) }, 'oneMinute')).toBe(10_000);
    expect(() => checkPoints({ since, until: new Date(since.getTime() + 10_001 * 60_000) }, 'oneMinute')).toThrow(/oneMinute .* 10001 points/);
  });
});

describe('dashboard templates', () => {
  it('loads the shipped templates from their files', () => {
    const templates = loadDashboardTemplates(templatesDir);
    expect([...templates.keys()].sort()).toEqual(['errors', 'interface', 'overview']);
    expect(templates.get('interface')?.parameters).toEqual(['interfaceId']);
  });

  it('names every problem of every bad file at once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'templates-'));
    try {
      writeFileSync(join(dir, 'broken.json'), '{ nope');
      writeFileSync(join(dir, 'odd.json'), JSON.stringify({ title: 'Odd', description: 'x', parameters: [], panels: [{ id: 'a', kind: 'pie', title: 'A' }] }));
      writeFileSync(
        join(dir, 'twice.json'),
        JSON.stringify({ title: 'T', description: 'x', parameters: [], panels: [{ id: 'a', kind: 'totals', title: 'A' }, { id: 'a', kind: 'totals', title: 'B' }] }),
      );
      expect(() => loadDashboardTemplates(dir)).toThrow(/broken\.json: not JSON[\s\S]*odd\.json: panels\.0\.kind[\s\S]*twice\.json: panel ids repeated: a/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const report = sampleReport();

describe('sliced CSV export', () => {
  it('reads a long window slice by slice with every bucket once, in order', async () => {
    const monitor = new InMemoryMonitor();
    monitor.addInterface({ id: 'i1' });
    monitor.addMinutes([{ interfaceId: 'i1', minute: '2026-05-02T03:04:00.000Z', messages: 7, failed: 1, latencySumMs: 0, latencyCount: 0, reachable: true, enabled: true }]);
    const calls: SeriesQuery[] = [];
    const source = {
      series(query: SeriesQuery): Promise<SeriesPoint[]> {
        calls.push(query);
        return monitor.series(query);
      },
    } as unknown as AnalyticsSource;
    const since = new Date('2026-05-01T00:00:00Z');
    const until = new Date('2026-05-31T00:00:00Z');
    const starts: string[] = [];
    const rows: string[] = [];
    for await (const batch of seriesRows(source, { interfaceId: null, granularity: 'oneMinute', metric: 'messagesTotal', window: { since, until } })) {
      for (const line of batch.split('\r\n').filter(Boolean)) {
        starts.push(line.split(',')[0]);
        rows.push(line);
      }
    }
    // the one stored minute is in its bucket, every other one is zero
    expect(rows.filter((line) => !line.endsWith(',0'))).toEqual([expect.stringMatching(/^2026-05-02T03:04:00.000Z,.*7/)]);
    expect(starts).toHaveLength(30 * 1440);
    expect(new Set(starts).size).toBe(starts.length);
    expect(starts[0]).toBe(since.toISOString());
    expect(starts.at(-1)).toBe(new Date(until.getTime() - 60_000).toISOString());
    // one slice a day of minutes (SLICE_BUCKETS), so each read is short and the loop takes turns between them
    expect(calls.length).toBe(30);
  });
});

describe('report delivery', () => {
  const schedule: ReportSchedule = {
    id: 's1',
    frequency: 'daily',
    format: 'csv',
    recipients: ['team@hospital.example'],
    hour: 7,
    timeZone: 'UTC',
    interfaceIds: [],
    createdAt: '2026-06-01T00:00:00.000Z',
    lastRunAt: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastFailureReason: null,
    consecutiveFailures: 0,
  };

  function setup(failures: number) {
    const sent: ReportMail[] = [];
    let attempts = 0;
    const mailer: MailSender = {
      async send(mail) {
        attempts++;
        if (attempts <= failures) throw new Error(`421 try again (${attempts})`);
        sent.push(mail);
      },
      close() {},
    };
    const recorded: string[] = [];
    const store = {
      recordSuccess: async () => void recorded.push('success'),
      recordFailure: async (_id: string, _at: Date, reason: string) => (recorded.push(`failure: ${reason}`), 1),
      get: async () => schedule,
    } as unknown as ReportScheduleStore;
    const monitor = new InMemoryMonitor(() => new Date('2026-06-10T07:00:00Z'));
    monitor.addInterface({ id: 'i1' });
    const source = monitor as unknown as AnalyticsSource;
    const logger = pino({ level: 'silent' });
    const delivery = new ReportDelivery({
      store,
      source,
      buildReport: async () => report,
      renderReport,
      mailer,
      scheduler: new Scheduler(logger),
      clock: new ManualClock('2026-06-10T07:00:00Z'),
      logger,
      settings: { attempts: 3, retryDelayMs: 5 },
    });
    return { delivery, sent, recorded, monitor, attempts: () => attempts };
  }

  it('retries a failed send with back-off and records the success, clearing the alert episode', async () => {
    const { delivery, sent, recorded, monitor } = setup(2);
    // an episode left open by an earlier failed run
    await monitor.raiseAlert({ interfaceId: null, rule: 'report-delivery:s1', severity: 'warning', title: 'Report not delivered', message: 'earlier run' });
    const outcome = await delivery.deliver(schedule);
    expect(outcome).toEqual({ delivered: true, attempts: 3, reason: null });
    expect(sent).toHaveLength(1);
    expect(sent[0].attachments[0].filename).toMatch(/\.csv$/);
    expect(sent[0].html).toContain('1234');
    expect(recorded).toEqual(['success']);
    // a system alert: about the schedule, never about an interface; the success ended its episode
    const alerts = await monitor.listAlerts({ since: '2026-01-01' });
    expect(alerts).toEqual([expect.objectContaining({ interfaceId: null, rule: 'report-delivery:s1', clearedAt: '2026-06-10T07:00:00.000Z' })]);
  });

  it('records the failure with its reason and raises an alert once every attempt failed', async () => {
    const { delivery, sent, recorded, monitor, attempts } = setup(10);
    const outcome = await delivery.deliver(schedule);
    expect(outcome).toEqual({ delivered: false, attempts: 3, reason: '421 try again (3)' });
    expect(attempts()).toBe(3);
    expect(sent).toHaveLength(0);
    expect(recorded).toEqual(['failure: 421 try again (3)']);
    const alerts = await monitor.listAlerts({ since: '2026-01-01' });
    expect(alerts).toEqual([expect.objectContaining({ interfaceId: null, interfaceName: null, rule: 'report-delivery:s1', clearedAt: null })]);
    // failing again keeps the one open episode
    await delivery.deliver(schedule);
    expect(await monitor.listAlerts({ since: '2026-01-01' })).toHaveLength(1);
  });

  it('runs daily, weekly on Mondays and monthly on the 1st at the hour, over the period before the run', () => {
    expect(cronOf({ frequency: 'daily', hour: 7 })).toBe('0 7 * * *');
    expect(cronOf({ frequency: 'weekly', hour: 0 })).toBe('0 0 * * 1');
    expect(cronOf({ frequency: 'monthly', hour: 23 })).toBe('0 23 1 * *');
    const now = new Date('2026-03-01T07:00:00Z');
    expect(reportWindow('monthly', now).since.toISOString()).toBe('2026-02-01T07:00:00.000Z');
    expect(reportWindow('weekly', now).since.toISOString()).toBe('2026-02-22T07:00:00.000Z');
  });
});

describe('query filters', () => {
  it('accept exactly the known keys, and refuse any other naming it and every known key', () => {
    const known = new Set<string>(QUERY_FILTER_KEYS);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 5 }), { maxKeys: 4 }), (filters) => {
        const result = queryFiltersSchema.safeParse(filters);
        const unknown = Object.keys(filters).filter((key) => !known.has(key));
        // an unknown key is always refused, and the refusal names it and every known key
        expect(unknown.length > 0 && result.success).toBe(false);
        const text = JSON.stringify(result.error?.issues ?? []);
        for (const key of unknown) expect(text).toContain(JSON.stringify(`"${key}"`).slice(1, -1));
        for (const key of unknown.length > 0 ? QUERY_FILTER_KEYS : []) expect(text).toContain(key);
        expect(Object.keys(result.data ?? {}).filter((key) => !known.has(key))).toEqual([]);
      }),
    );
  });

  it('narrow messages by every given filter and leave severity to the alerts', () => {
    const window = { since: new Date('2026-06-01T00:00:00Z'), until: new Date('2026-06-02T00:00:00Z') };
    const filters = queryFiltersSchema.parse({ interfaceId: 'a', severity: 'critical', messageType: ['ADT^A01', 'ORU'], status: 'invalid', errorCode: 'X', sendingFacility: 'MAIN' });
    expect(messageFilterOf(filters, window)).toEqual({
      ...window,
      interfaceIds: ['a'],
      messageTypes: ['ADT^A01', 'ORU'],
      isValid: false,
      errorCodes: ['X'],
      sendingFacility: 'MAIN',
    });
    const matches = alertMatches(filters);
    expect(matches({ interfaceId: 'a', severity: 'critical' })).toBe(true);
    expect(matches({ interfaceId: 'a', severity: 'warning' })).toBe(false);
    expect(matches({ interfaceId: 'b', severity: 'critical' })).toBe(false);
  });
});
