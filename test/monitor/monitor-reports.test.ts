// Metrics (both field sets, every hour present, bad sinceHours), status and the report in text, HTML and JSON, with
// values from messages and users escaped in the HTML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../helpers/manual-clock.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

describe('metrics, status and report', () => {
  let h: MonitorHarness;
  let clock: ManualClock;
  let id: string;
  let dir: string;
  const hostile = '<script>alert("x")</script>';

  async function total(): Promise<number> {
    return (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=24`)).json.data.messagesTotal;
  }

  beforeAll(async () => {
    clock = new ManualClock('2026-06-10T10:30:00Z');
    h = await startMonitorHarness({ clock });
    dir = h.folder();
    id = (await h.post('/api/monitor/interfaces', { name: hostile, directoryPath: dir })).json.data.id;
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `a${i}.hl7`), adtMessage(`A${i}`, { time: '20260610102900+0000' }));
    await waitFor(async () => (await total()) === 3, 20_000, 'three messages');
    clock.set('2026-06-10T12:10:00Z');
    writeFileSync(join(dir, 'b1.hl7'), adtMessage('B1', { time: '20260610121000+0000' }));
    // content that is not HL7 and carries markup, in a file whose name carries markup too
    writeFileSync(join(dir, '<b>bold.hl7'), `not hl7 ${hostile}`);
    await waitFor(async () => (await total()) === 5, 20_000, 'five messages');
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers both field sets with every hour of the window, zeros included', async () => {
    const response = await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=3`);
    expect(response.status).toBe(200);
    const m = response.json.data;
    expect(m).toMatchObject({
      messagesTotal: 5,
      messagesSuccessful: 4,
      messagesFailed: 1,
      successRate: 0.8,
      totalMessagesProcessed: 5,
      totalErrors: 1,
      totalSuccesses: 4,
      errorRate: 0.2,
      windowStart: '2026-06-10T10:00:00.000Z',
      windowEnd: '2026-06-10T12:10:00.000Z',
      lastMessageAt: '2026-06-10T12:10:00.000Z',
      startedAt: '2026-06-10T10:30:00.000Z',
      uptimeSeconds: 100 * 60,
    });
    expect(m.hourlyBreakdown).toEqual([
      { hour: '2026-06-10T10:00:00.000Z', messagesProcessed: 3, errors: 0, successes: 3 },
      { hour: '2026-06-10T11:00:00.000Z', messagesProcessed: 0, errors: 0, successes: 0 },
      { hour: '2026-06-10T12:00:00.000Z', messagesProcessed: 2, errors: 1, successes: 1 },
    ]);
    // three messages 1 minute late, one on time; the file that is not HL7 has no MSH-7, so no latency
    expect(m.averageLatencyMs).toBe((3 * 60_000) / 4);
    const day = (await h.get(`/api/monitor/interfaces/${id}/metrics`)).json.data;
    expect(day.sinceHours).toBe(24);
    expect(day.hourlyBreakdown).toHaveLength(24);
    expect(day.hourlyBreakdown.reduce((sum: number, b: { messagesProcessed: number }) => sum + b.messagesProcessed, 0)).toBe(5);
  });

  it('refuses a sinceHours outside 1..8760 and answers 404 for an unknown interface', async () => {
    for (const value of ['0', '8761', '-3', '2.5', 'day']) {
      const response = await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=${value}`);
      expect(response.status, value).toBe(400);
      expect(response.json.error.details[0].path).toBe('sinceHours');
    }
    expect((await h.get('/api/monitor/interfaces/unknown/metrics')).status).toBe(404);
  });

  it('reports status per interface with the reason, and the overall state', async () => {
    const status = (await h.get('/api/monitor/status')).json.data;
    const mine = status.interfaces.find((i: { interfaceId: string }) => i.interfaceId === id);
    expect(mine).toMatchObject({ name: hostile, enabled: true, lastMessageAt: '2026-06-10T12:10:00.000Z' });
    expect(['healthy', 'degraded']).toContain(mine.state);
    expect(mine.reason.length).toBeGreaterThan(0);
    await h.put(`/api/monitor/interfaces/${id}`, { enabled: false });
    const disabled = (await h.get('/api/monitor/status')).json.data;
    expect(disabled.interfaces[0]).toMatchObject({ state: 'idle', reason: 'disabled', enabled: false });
    expect(disabled.state).toBe('idle');
    await h.put(`/api/monitor/interfaces/${id}`, { enabled: true });
  });

  it('renders the report as JSON, text and one self-contained, escaped HTML page', async () => {
    const json = await h.get('/api/monitor/report?format=json&sinceHours=3');
    expect(json.status).toBe(200);
    const report = json.json.data;
    expect(report.totals).toEqual({ messages: 5, failed: 1, interfaces: 1 });
    expect(report.interfaces[0].topErrors[0]).toMatchObject({ code: 'PARSE_ERROR', field: 'message', count: 1 });
    expect(report.alerts.map((a: { rule: string }) => a.rule)).toContain('unparsable-file');

    const text = await h.get('/api/monitor/report?sinceHours=3');
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.text).toContain('messages 5, failed 1');
    expect(text.text).toContain('PARSE_ERROR');
    // durations as a person reads them: three messages 60 s late and one on time average 45 s; p99 is the 60 s bucket
    expect(text.text).toMatch(/average latency 45 s, p99 1(\.1)? min,/);
    expect(report.interfaces[0].metrics.averageLatencyMs).toBe(45_000);

    const html = await h.get('/api/monitor/report?format=html&sinceHours=3');
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.text).toMatch(/^<!DOCTYPE html>/);
    expect(html.text).toContain('<svg');
    expect(html.text).toContain('<dt>Average latency</dt><dd>45 s</dd>');
    expect(html.text).toContain('<style>');
    expect(html.text).not.toContain('<script');
    expect(html.text).not.toContain('<b>bold');
    expect(html.text).toContain('&lt;b&gt;bold.hl7');
    expect(html.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html.text).not.toMatch(/(src|href)=["']?https?:/);
  });

  it('refuses an unknown format naming the field', async () => {
    const response = await h.get('/api/monitor/report?format=pdf');
    expect(response.status).toBe(400);
    expect(response.json.error.details[0].path).toBe('format');
  });
});
