// The analytics read routes through HTTP: timeseries (every bucket, zeros, the refusals naming the field), topn with
// shares, query (filters, unknown keys, cursor pages without raw text, alerts with totals), dashboards from
// templates and the streamed CSV export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { adtMessage, failingMessage, ingest, startMonitorHarness, type MonitorHarness } from './analytics-harness.ts';

describe('analytics routes', () => {
  let h: MonitorHarness;
  let clock: ManualClock;
  let adt: string;
  let lab: string;

  beforeAll(async () => {
    clock = new ManualClock('2026-06-10T10:30:00Z');
    h = await startMonitorHarness({ clock });
    const adtDir = h.folder('adt');
    const labDir = h.folder('lab');
    adt = (await h.post('/api/monitor/interfaces', { name: 'ADT feed', directoryPath: adtDir })).json.data.id;
    lab = (await h.post('/api/monitor/interfaces', { name: 'Lab feed', directoryPath: labDir })).json.data.id;
    await ingest(h, adt, adtDir, { 'a0.hl7': adtMessage('A0'), 'a1.hl7': adtMessage('A1'), 'a2.hl7': adtMessage('A2') }, 3);
    clock.set('2026-06-10T12:10:00Z');
    await ingest(h, adt, adtDir, { 'b0.hl7': adtMessage('B0'), 'b1.hl7': failingMessage('BAD1', '20260610121000', '=CMD') }, 5);
    await ingest(h, lab, labDir, { 'l0.hl7': adtMessage('L0') }, 1);
    // windows end before now (exclusive): move on so the newest messages are inside the default windows
    clock.set('2026-06-10T12:20:00Z');
  }, 60_000);
  afterAll(async () => {
    await h.stop();
  });

  it('answers every hour of the window, zeros included, UTC-aligned, for one interface or all', async () => {
    const window = 'since=2026-06-10T10:00:00Z&until=2026-06-10T13:00:00Z&granularity=oneHour';
    const one = await h.get(`/api/monitor/analytics/timeseries?interfaceId=${adt}&${window}`);
    expect(one.status).toBe(200);
    expect(one.json.data.points.map((p: { start: string; value: number }) => [p.start, p.value])).toEqual([
      ['2026-06-10T10:00:00.000Z', 3],
      ['2026-06-10T11:00:00.000Z', 0],
      ['2026-06-10T12:00:00.000Z', 2],
    ]);
    const failed = await h.get(`/api/monitor/analytics/timeseries?interfaceId=${adt}&${window}&metric=messagesFailed`);
    expect(failed.json.data.points.map((p: { value: number }) => p.value)).toEqual([0, 0, 1]);
    const all = await h.get(`/api/monitor/analytics/timeseries?${window}`);
    expect(all.json.data.interfaceId).toBeNull();
    expect(all.json.data.points.map((p: { value: number }) => p.value)).toEqual([3, 0, 3]);
  });

  it('defaults to the last 24 hours by hour', async () => {
    const answer = await h.get('/api/monitor/analytics/timeseries');
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ granularity: 'oneHour', metric: 'messagesTotal', since: '2026-06-09T12:20:00.000Z', until: '2026-06-10T12:20:00.000Z' });
    expect(answer.json.data.points).toHaveLength(25);
  });

  it('refuses a bad window, metric, granularity or interface, naming the field', async () => {
    const cases: Array<[string, number, string]> = [
      ['since=2026-06-10T12:00:00Z&until=2026-06-10T11:00:00Z', 400, 'since'],
      ['since=yesterday', 400, 'since'],
      ['metric=bogus', 400, 'metric'],
      ['granularity=oneWeek', 400, 'granularity'],
      ['since=2026-01-01T00:00:00Z&until=2026-06-10T00:00:00Z&granularity=oneMinute', 400, 'granularity'],
      ['interfaceId=no-such-interface', 404, 'interfaceId'],
      ['colour=red', 400, 'colour'],
    ];
    for (const [query, status, field] of cases) {
      const answer = await h.get(`/api/monitor/analytics/timeseries?${query}`);
      expect(answer.status, query).toBe(status);
      expect(answer.json.success).toBe(false);
      expect(JSON.stringify(answer.json.error), query).toContain(field);
    }
  });

  it('ranks interfaces by a metric with each row\'s share of the total', async () => {
    const answer = await h.get('/api/monitor/analytics/topn?metric=messagesTotal&since=2026-06-10T00:00:00Z');
    expect(answer.status).toBe(200);
    const rows = answer.json.data.rows;
    expect(rows.map((r: { key: string; value: number; share: number; label: string }) => [r.key, r.label, r.value, r.share])).toEqual([
      [adt, 'ADT feed', 5, 5 / 6],
      [lab, 'Lab feed', 1, 1 / 6],
    ]);
    const one = await h.get('/api/monitor/analytics/topn?n=1&since=2026-06-10T00:00:00Z');
    expect(one.json.data.rows).toHaveLength(1);
    for (const bad of ['n=0', 'n=101', 'by=colour', 'metric=bogus']) expect((await h.get(`/api/monitor/analytics/topn?${bad}`)).status, bad).toBe(400);
  });

  it('queries messages by filters, without raw text, a page at a time by cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await h.post('/api/monitor/analytics/query', {
        filters: { interfaceId: adt },
        since: '2026-06-10T00:00:00Z',
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      expect(answer.status).toBe(200);
      expect(answer.json.data.totals.messages).toBe(5);
      for (const message of answer.json.data.messages) {
        expect(message).not.toHaveProperty('raw');
        seen.push(message.controlId);
      }
      cursor = answer.json.data.next ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.sort()).toEqual(['A0', 'A1', 'A2', 'B0', 'BAD1']);
    expect(pages).toBe(3);

    const invalid = await h.post('/api/monitor/analytics/query', { filters: { status: 'invalid' }, since: '2026-06-10T00:00:00Z' });
    expect(invalid.json.data.messages.map((m: { controlId: string }) => m.controlId)).toEqual(['BAD1']);
    expect(invalid.json.data.messages[0].errors.length).toBeGreaterThan(0);
    const byFacility = await h.post('/api/monitor/analytics/query', { filters: { sendingFacility: '=CMD' }, since: '2026-06-10T00:00:00Z' });
    expect(byFacility.json.data.totals.messages).toBe(1);
    const lab1 = await h.post('/api/monitor/analytics/query', { filters: { interfaceId: [lab], messageType: 'ADT' }, since: '2026-06-10T00:00:00Z' });
    expect(lab1.json.data.messages.map((m: { controlId: string }) => m.controlId)).toEqual(['L0']);
  });

  it('refuses unknown filter keys listing the known ones, and a cursor it never gave out', async () => {
    const answer = await h.post('/api/monitor/analytics/query', { filters: { interfaceID: adt } });
    expect(answer.status).toBe(400);
    const text = JSON.stringify(answer.json.error);
    for (const key of ['interfaceID', 'interfaceId', 'severity', 'messageType', 'status', 'errorCode', 'sendingFacility']) expect(text).toContain(key);
    expect((await h.post('/api/monitor/analytics/query', { filters: {}, limit: 1001 })).status).toBe(400);
    expect((await h.post('/api/monitor/analytics/query', { filters: {}, cursor: 'not-a-cursor' })).status).toBe(400);
    expect((await h.post('/api/monitor/analytics/query', { filters: { interfaceId: 'nope' } })).status).toBe(404);
  });

  it('returns alerts matching the filters with totals by severity', async () => {
    const answer = await h.post('/api/monitor/analytics/query', { filters: { interfaceId: adt }, since: '2026-06-10T00:00:00Z' });
    const { alerts, totals } = answer.json.data;
    expect(totals.alerts).toBe(alerts.length);
    expect(totals.alertsBySeverity.critical + totals.alertsBySeverity.warning + totals.alertsBySeverity.info).toBe(totals.alerts);
    for (const alert of alerts) expect(alert.interfaceId).toBe(adt);
    const infoOnly = await h.post('/api/monitor/analytics/query', { filters: { severity: 'info' }, since: '2026-06-10T00:00:00Z' });
    for (const alert of infoOnly.json.data.alerts) expect(alert.severity).toBe('info');
    expect(infoOnly.json.data.totals.alertsBySeverity.warning).toBe(0);
  });

  it('fills the overview dashboard from its template, and names the known templates for an unknown one', async () => {
    const answer = await h.get('/api/monitor/analytics/dashboards/overview?since=2026-06-10T00:00:00Z');
    expect(answer.status).toBe(200);
    const panels = Object.fromEntries(answer.json.data.panels.map((p: { id: string; data: unknown }) => [p.id, p.data]));
    expect(panels.totals).toMatchObject({ messages: 6, failed: 1, successful: 5 });
    expect(panels.totals.errorRate).toBeCloseTo(1 / 6);
    expect(panels.messages.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0)).toBe(6);
    expect(panels.topFailingInterfaces.rows[0].key).toBe(adt);
    expect(panels.openAlerts).toHaveProperty('alerts');
    const unknown = await h.get('/api/monitor/analytics/dashboards/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('ANALYTICS_TEMPLATE_NOT_FOUND');
    expect(unknown.json.error.message).toContain('errors, interface, overview');
  });

  it('fills the interface dashboard for one interface and needs its interfaceId', async () => {
    const missing = await h.get('/api/monitor/analytics/dashboards/interface');
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain('interfaceId');
    const answer = await h.get(`/api/monitor/analytics/dashboards/interface?interfaceId=${lab}&since=2026-06-10T00:00:00Z`);
    expect(answer.status).toBe(200);
    expect(answer.json.data.panels.find((p: { id: string }) => p.id === 'totals').data.messages).toBe(1);
  });

  it('fills the errors dashboard: each failing code with the fields it was found at and example control ids', async () => {
    const answer = await h.get('/api/monitor/analytics/dashboards/errors?since=2026-06-10T00:00:00Z');
    expect(answer.status).toBe(200);
    const panel = answer.json.data.panels.find((p: { id: string }) => p.id === 'topErrors');
    expect(panel.kind).toBe('errorExamples');
    expect(panel.data.errors.length).toBeGreaterThan(0);
    for (const error of panel.data.errors) {
      expect(error).toMatchObject({ failedMessages: 1, controlIds: ['BAD1'] });
      expect(error.fields.length).toBeGreaterThan(0);
    }
    const facilities = answer.json.data.panels.find((p: { id: string }) => p.id === 'failingFacilities');
    expect(facilities.data.rows[0]).toMatchObject({ key: '=CMD', failed: 1 });
  });

  it('exports a series as a streamed, formula-safe RFC 4180 CSV file with a header and UTC times', async () => {
    const answer = await h.get(`/api/monitor/analytics/export/csv?interfaceId=${adt}&since=2026-06-10T10:00:00Z&until=2026-06-10T13:00:00Z`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="analytics-.+\.csv"$/);
    const lines = answer.text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('bucketStart,interfaceId,granularity,metric,value,messages,failed,successful');
    expect(lines.slice(1, -1)).toEqual([
      `2026-06-10T10:00:00.000Z,${adt},oneHour,messagesTotal,3,3,0,3`,
      `2026-06-10T11:00:00.000Z,${adt},oneHour,messagesTotal,0,0,0,0`,
      `2026-06-10T12:00:00.000Z,${adt},oneHour,messagesTotal,2,2,1,1`,
    ]);
    // 30 days by minute is more than a timeseries answers, but an export streams it
    const month = await h.get('/api/monitor/analytics/export/csv?since=2026-05-11T12:00:00Z&until=2026-06-10T12:00:00Z&granularity=oneMinute');
    expect(month.status).toBe(200);
    expect(month.text.split('\r\n')).toHaveLength(30 * 1440 + 2);
    expect((await h.get('/api/monitor/analytics/export/csv?since=2020-01-01T00:00:00Z&granularity=oneMinute')).status).toBe(400);
  });
});
