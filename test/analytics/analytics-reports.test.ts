// Reports through HTTP: generated in four formats from the monitor's buildReport, and scheduled e-mails sent to a real
// SMTP server on a loopback port (recipients, subject, HTML body with the figures, CSV attachment), failed deliveries
// retried then recorded and alerted, schedules kept across a restart, and the SMTP password never answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { recordMessages } from '../kit/monitor-history.ts';
import { startAnalyticsHarness, type MonitorHarness } from './analytics-harness.ts';
import { startMailCapture, type MailCapture } from './mail-capture.ts';

const PASSWORD = 'S3cret-smtp-pass-7731';

describe('reports', () => {
  let h: MonitorHarness;
  let mail: MailCapture;
  let refuse = false;
  let feed: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'analytics-reports-'));
  const clock = new ManualClock('2026-06-10T12:00:00Z');

  const analytics = () => ({
    smtp: { host: '127.0.0.1', port: mail.port, secure: false, user: 'reports', password: PASSWORD, from: 'workbench@hospital.example' },
    delivery: { attempts: 3, retryDelayMs: 20, timeoutMs: 5_000 },
  });

  beforeAll(async () => {
    mail = await startMailCapture({ password: PASSWORD, refuse: () => refuse });
    h = await startAnalyticsHarness({ clock, dataDir, analytics: analytics() });
    feed = (await h.post('/api/monitor/interfaces', { name: 'ADT <feed>', directoryPath: h.folder('adt') })).json.data.id;
    const storage = resolveService(h.wb.workbench.container, TOKENS.Storage);
    const at = (minutesAgo: number) => new Date(clock.nowMs() - minutesAgo * 60_000);
    await recordMessages(storage, feed, [
      ...Array.from({ length: 40 }, (_, i) => ({ receivedAt: at(90 + i), controlId: `OK${i}`, latencyMs: 1000 })),
      ...Array.from({ length: 2 }, (_, i) => ({ receivedAt: at(30 + i), controlId: `BAD${i}`, errorCodes: ['REQUIRED_FIELD_MISSING'] })),
    ]);
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates the monitor report as HTML, JSON, CSV and text, with the figures and a file name', async () => {
    const html = await h.post('/api/monitor/analytics/reports/generate', { format: 'html' });
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.headers['content-disposition']).toMatch(/^attachment; filename="report-.+\.html"$/);
    expect(html.text).toContain('ADT &lt;feed&gt;');
    expect(html.text).toContain('42 messages, 2 failed');
    // the top errors with example control ids, as the monitor's report has them
    expect(html.text).toContain('REQUIRED_FIELD_MISSING');
    expect(html.text).toMatch(/e\.g\. BAD[01]/);
    const json = await h.post('/api/monitor/analytics/reports/generate', { format: 'json' });
    expect(JSON.parse(json.text).totals).toEqual({ messages: 42, failed: 2, interfaces: 1 });
    const csv = await h.post('/api/monitor/analytics/reports/generate', { format: 'csv' });
    expect(csv.text.split('\r\n')[1]).toContain(`${feed},ADT <feed>,`);
    expect(csv.text.split('\r\n')[1]).toContain(',42,2,');
    const text = await h.post('/api/monitor/analytics/reports/generate', { format: 'text', since: '2026-06-10T11:00:00Z' });
    expect(text.text).toContain('2 messages, 2 failed');
    // durations in the unit a person reads (the messages' latency is 1,000 ms), raw milliseconds only in JSON
    const day = await h.post('/api/monitor/analytics/reports/generate', { format: 'text' });
    expect(day.text).toContain('p99 1 s');
    expect(day.text).not.toMatch(/\d ms\b/);
    expect(html.text).toContain('<dd>1 s</dd>');
    expect(html.text).not.toMatch(/\d ms</);
    expect((await h.post('/api/monitor/analytics/reports/generate', { format: 'pdf' })).status).toBe(400);
    expect((await h.post('/api/monitor/analytics/reports/generate', { interfaceIds: ['nope'] })).status).toBe(404);
  });

  it('clamps a future until to now: the report of until 2200 is the report up to now, never dated in the future', async () => {
    const future = await h.post('/api/monitor/analytics/reports/generate', { format: 'json', since: '2026-06-10T11:00:00Z', until: '2200-01-01' });
    expect(future.status).toBe(200);
    const report = JSON.parse(future.text);
    expect(report.windowEnd).toBe('2026-06-10T12:00:00.000Z');
    expect(report.sinceHours).toBe(1);
    expect(report.totals.messages).toBe(2);
    const text = await h.post('/api/monitor/analytics/reports/generate', { format: 'text', until: '2200-01-01' });
    expect(text.text).not.toContain('2199');
    expect(text.text).not.toContain('2200');
  });

  it('refuses a dashboard window too long for any granularity, naming since and until (the route has no step)', async () => {
    const answer = await h.get('/api/monitor/analytics/dashboards/overview?since=1990-01-01T00:00:00Z');
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('WINDOW_INVALID');
    expect(answer.json.error.message).toContain('since (1990-01-01T00:00:00.000Z)');
    expect(answer.json.error.message).not.toMatch(/step|granularity/);
  });

  it('stores a schedule, runs it on the scheduler, and mails the report with its CSV to the recipients', async () => {
    const created = await h.post('/api/monitor/analytics/reports/schedule', {
      frequency: 'daily',
      format: 'csv',
      recipients: ['team@hospital.example', 'lead@hospital.example'],
      hour: 7,
      timeZone: 'Europe/Berlin',
    });
    expect(created.status).toBe(201);
    const schedule = created.json.data;
    expect(schedule).toMatchObject({ frequency: 'daily', format: 'csv', hour: 7, timeZone: 'Europe/Berlin', cron: '0 7 * * *', lastSuccessAt: null });
    const scheduler = resolveService(h.wb.workbench.container, TOKENS.Scheduler);
    expect(scheduler.list()).toContain(`analytics:analytics-report-${schedule.id}`);

    const before = mail.mails.length;
    const run = await h.post(`/api/monitor/analytics/reports/schedule/${schedule.id}/run`);
    expect(run.status).toBe(200);
    expect(run.json.data).toMatchObject({ delivered: true, attempts: 1, reason: null });
    expect(run.json.data.schedule.lastSuccessAt).toBe(clock.now().toISOString());
    const sent = mail.mails.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].recipients.sort()).toEqual(['lead@hospital.example', 'team@hospital.example']);
    expect(sent[0].from).toBe('workbench@hospital.example');
    expect(sent[0].subject).toContain('42 messages, 2 failed');
    const html = sent[0].parts.find((p) => p.contentType === 'text/html');
    expect(html?.body).toContain('42 messages, 2 failed');
    const csv = sent[0].parts.find((p) => p.fileName?.endsWith('.csv'));
    expect(csv?.body.split('\r\n')[0]).toBe('interfaceId,interfaceName,state,messages,failed,errorRate,p99LatencyMs,lastMessageAt,windowStart,windowEnd');
    expect(csv?.body).toContain(',42,2,');
    expect(mail.logins).toContain('reports');
  });

  it('refuses bad recipients, frequencies and time zones, naming them', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ frequency: 'daily', recipients: ['not-an-address'] }, 'recipients'],
      [{ frequency: 'hourly', recipients: ['a@b.example'] }, 'frequency'],
      [{ frequency: 'daily', recipients: [] }, 'recipients'],
      [{ frequency: 'daily', recipients: ['a@b.example'], timeZone: 'Mars/Olympus' }, 'Mars/Olympus'],
      [{ frequency: 'daily', recipients: ['a@b.example'], hour: 24 }, 'hour'],
    ];
    for (const [body, named] of cases) {
      const answer = await h.post('/api/monitor/analytics/reports/schedule', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.json.error)).toContain(named);
    }
    expect((await h.get('/api/monitor/analytics/reports/schedule/no-such-id')).status).toBe(404);
  });

  it('retries a refused delivery, records the failure and why, raises one alert, and clears it on success', async () => {
    const schedule = (await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'weekly', format: 'html', recipients: ['ops@hospital.example'] })).json.data;
    refuse = true;
    let run;
    try {
      run = await h.post(`/api/monitor/analytics/reports/schedule/${schedule.id}/run`);
    } finally {
      refuse = false;
    }
    expect(run.json.data).toMatchObject({ delivered: false, attempts: 3 });
    expect(run.json.data.reason).toContain('450');
    const stored = (await h.get(`/api/monitor/analytics/reports/schedule/${schedule.id}`)).json.data;
    expect(stored).toMatchObject({ consecutiveFailures: 1, lastFailureAt: clock.now().toISOString(), lastSuccessAt: null });
    expect(stored.lastFailureReason).toContain('Mailbox temporarily unavailable');
    const alerts = (await h.get(`/api/monitor/alerts?sinceHours=1`)).json.data;
    const raised = alerts.filter((a: { rule: string }) => a.rule === `report-delivery:${schedule.id}`);
    expect(raised).toHaveLength(1);
    // a system alert: about the schedule, not about the feed its report covers
    expect(raised[0]).toMatchObject({ interfaceId: null, interfaceName: null, clearedAt: null });

    const again = await h.post(`/api/monitor/analytics/reports/schedule/${schedule.id}/run`);
    expect(again.json.data.delivered).toBe(true);
    expect(again.json.data.schedule.consecutiveFailures).toBe(0);
    const after = (await h.get(`/api/monitor/alerts?sinceHours=1`)).json.data.filter((a: { rule: string }) => a.rule === `report-delivery:${schedule.id}`);
    expect(after).toHaveLength(1);
    expect(after[0].clearedAt).not.toBeNull();
  });

  it('never answers the SMTP password, in schedules, runs or failure reasons', async () => {
    const schedule = (await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'monthly', format: 'json', recipients: ['x@hospital.example'] })).json.data;
    const answers = [
      await h.get('/api/monitor/analytics/reports/schedule'),
      await h.get(`/api/monitor/analytics/reports/schedule/${schedule.id}`),
      await h.post(`/api/monitor/analytics/reports/schedule/${schedule.id}/run`),
      await h.get('/openapi.json'),
    ];
    for (const answer of answers) expect(answer.text).not.toContain(PASSWORD);
  });

  it('keeps schedules across a restart and schedules them again; deleting one stops its job', async () => {
    const schedule = (await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'daily', format: 'text', recipients: ['night@hospital.example'], hour: 2 })).json.data;
    await h.stop();
    h = await startAnalyticsHarness({ clock, dataDir, analytics: analytics() });
    const listed = (await h.get('/api/monitor/analytics/reports/schedule')).json.data;
    expect(listed.map((s: { id: string }) => s.id)).toContain(schedule.id);
    const scheduler = resolveService(h.wb.workbench.container, TOKENS.Scheduler);
    expect(scheduler.list()).toContain(`analytics:analytics-report-${schedule.id}`);
    const deleted = await h.del(`/api/monitor/analytics/reports/schedule/${schedule.id}`);
    expect(deleted.status).toBe(200);
    expect(scheduler.list()).not.toContain(`analytics:analytics-report-${schedule.id}`);
    expect((await h.get(`/api/monitor/analytics/reports/schedule/${schedule.id}`)).status).toBe(404);
  });
});

describe('reports without SMTP', () => {
  it('refuses to schedule an e-mail when no SMTP server is configured', async () => {
    const h = await startAnalyticsHarness();
    try {
      const answer = await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'daily', recipients: ['a@hospital.example'] });
      expect(answer.status).toBe(409);
      expect(answer.json.error.code).toBe('ANALYTICS_SMTP_NOT_CONFIGURED');
    } finally {
      await h.stop();
    }
  });
});
