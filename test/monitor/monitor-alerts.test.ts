// Alert episodes driven by the injectable clock: error rate (warning, then critical), clearing as the window moves,
// silence, p99 latency, a second episode after clearing, acknowledgement, events on the bus, bad queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../kernel/clock.ts';
import type { EventBus } from '../../kernel/events.ts';
import type { Alert } from '../../plugins/monitor/api.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

const invalid = (id: string) => `MSH|^~\\&|A|B|C|D|20260501100000+0000||ADT^A01|${id}|P|2.5`;

describe('alert episodes', () => {
  let h: MonitorHarness;
  let clock: ManualClock;
  let dir: string;
  let id: string;
  let files = 0;
  const raised: Alert[] = [];

  async function alerts(): Promise<Alert[]> {
    const response = await h.get(`/api/monitor/alerts?sinceHours=48&interfaceId=${id}`);
    expect(response.status).toBe(200);
    return response.json.data;
  }
  async function total(): Promise<number> {
    return (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=48`)).json.data.messagesTotal;
  }
  async function drop(messages: string[]): Promise<void> {
    const before = await total();
    for (const message of messages) writeFileSync(join(dir, `f${++files}.hl7`), message);
    await waitFor(async () => (await total()) === before + messages.length, 20_000, 'messages counted');
  }
  /** Lets several periodic checks run at the current clock time. */
  async function settleChecks(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  const open = (list: Alert[], rule: string) => list.filter((a) => a.rule === rule && a.clearedAt === null);
  const ofRule = (list: Alert[], rule: string) => list.filter((a) => a.rule === rule);

  beforeAll(async () => {
    clock = new ManualClock('2026-05-01T10:00:00Z');
    h = await startMonitorHarness({ clock });
    h.wb.workbench.container.resolve<EventBus>(Symbol.for('workbench.events')).on('alert.raised', ({ alert }) => {
      raised.push(alert);
    });
    dir = h.folder();
    const created = await h.post('/api/monitor/interfaces', {
      name: 'alerting',
      directoryPath: dir,
      alertRules: { minimumMessages: 4, windowMinutes: 10, errorRateWarning: 0.2, errorRateCritical: 0.5, silenceMinutes: 30, latencyP99Ms: 60_000 },
    });
    id = created.json.data.id;
  });
  afterAll(async () => {
    await h.stop();
  });

  it('raises one warning while the error rate stays above it, and a critical alert when it passes that level', async () => {
    await drop([1, 2, 3, 4].map((i) => adtMessage(`OK${i}`, { time: '20260501095959+0000' })).concat(invalid('BAD1')));
    await waitFor(async () => open(await alerts(), 'error-rate-warning').length === 1, 20_000, 'warning');
    await settleChecks();
    expect(ofRule(await alerts(), 'error-rate-warning')).toHaveLength(1);
    expect(open(await alerts(), 'error-rate-critical')).toHaveLength(0);
    await drop([2, 3, 4, 5, 6].map((i) => invalid(`BAD${i}`)));
    await waitFor(async () => open(await alerts(), 'error-rate-critical').length === 1, 20_000, 'critical');
    const list = await alerts();
    expect(ofRule(list, 'error-rate-warning')).toHaveLength(1);
    const critical = open(list, 'error-rate-critical')[0];
    expect(critical).toMatchObject({ severity: 'critical', interfaceId: id, interfaceName: 'alerting', acknowledgedAt: null });
    // raised as soon as a commit took the rate to 50 %: how many of the five files had landed by then varies
    const [, failed, total] = /(\d+) of (\d+) messages failed validation in the last 10 minutes/.exec(critical.message) ?? [];
    expect(Number(failed) / Number(total)).toBeGreaterThanOrEqual(0.5);
    expect(critical.triggeredAt).toBe('2026-05-01T10:00:00.000Z');
  });

  it('clears both when the window moves past the failures, then raises silence after the silence limit', async () => {
    clock.advance(11 * 60_000);
    await waitFor(async () => {
      const list = await alerts();
      return open(list, 'error-rate-warning').length === 0 && open(list, 'error-rate-critical').length === 0;
    }, 20_000, 'error-rate episodes cleared');
    expect(open(await alerts(), 'silence')).toHaveLength(0);
    clock.advance(20 * 60_000);
    const silence = await waitFor(async () => open(await alerts(), 'silence')[0], 20_000, 'silence');
    expect(silence.severity).toBe('warning');
    expect(silence.triggeredAt).toBe('2026-05-01T10:31:00.000Z');
  });

  it('clears silence with the next message and opens a new error-rate episode after the first cleared', async () => {
    await drop([1, 2, 3, 4].map((i) => adtMessage(`AGAIN${i}`, { time: '20260501103000+0000' })).concat(invalid('AGAINBAD')));
    await waitFor(async () => open(await alerts(), 'silence').length === 0, 20_000, 'silence cleared');
    await waitFor(async () => open(await alerts(), 'error-rate-warning').length === 1, 20_000, 'second warning');
    const warnings = ofRule(await alerts(), 'error-rate-warning');
    expect(warnings).toHaveLength(2);
    expect(warnings.filter((a) => a.clearedAt !== null)).toHaveLength(1);
  });

  it('raises a latency alert when p99 passes the limit', async () => {
    await drop([adtMessage('LATE1', { time: '20260501083100+0000' })]);
    const latency = await waitFor(async () => open(await alerts(), 'latency-p99')[0], 20_000, 'latency alert');
    expect(latency.title).toMatch(/p99 latency \d+ ms/);
    const metrics = (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=1`)).json.data;
    expect(metrics.p99LatencyMs).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(metrics.p99LatencyMs).toBeLessThanOrEqual(2 * 3_600_000 * 1.05);
  });

  it('announced every new alert on the event bus, once each', async () => {
    const ids = raised.filter((a) => a.interfaceId === id).map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await alerts()).map((a) => a.id).sort());
  });

  it('acknowledges once: a second call keeps the first time; unknown ids get 404', async () => {
    const [first] = await alerts();
    const acknowledged = await h.post(`/api/monitor/alerts/${first.id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.json.data.acknowledgedAt).toBe(clock.now().toISOString());
    const at = acknowledged.json.data.acknowledgedAt;
    clock.advance(60_000);
    const again = await h.post(`/api/monitor/alerts/${first.id}/acknowledge`);
    expect(again.json.data.acknowledgedAt).toBe(at);
    expect((await h.post('/api/monitor/alerts/no-such-alert/acknowledge')).status).toBe(404);
  });

  it('filters by severity and refuses bad queries naming the field', async () => {
    const critical = (await h.get(`/api/monitor/alerts?severity=critical&sinceHours=48&interfaceId=${id}`)).json.data as Alert[];
    expect(critical.length).toBeGreaterThan(0);
    expect(critical.every((a) => a.severity === 'critical')).toBe(true);
    for (const [query, field] of [['severity=loud', 'severity'], ['sinceHours=0', 'sinceHours'], ['sinceHours=8761', 'sinceHours'], ['sinceHours=abc', 'sinceHours'], ['bogus=1', '(root)']]) {
      const response = await h.get(`/api/monitor/alerts?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.error.details[0].path, query).toBe(field);
    }
  });
});
