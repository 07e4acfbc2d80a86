// Alert episodes driven by the injectable clock, each test on an interface of its own (any one passes alone with -t):
// one error-rate episode escalating from warning to critical, clearing as the window moves, silence, p99 latency in
// words a person reads, acknowledgements that survive disable/enable, alerts of a deleted interface closed, an episode
// opened and closed inside one batch, acknowledgement, bad queries. "Nothing more happened" is asserted after the
// monitor's quiesce hook, never after a sleep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../helpers/manual-clock.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import type { Alert } from '../../plugins/monitor/api.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** HL7 TS of an instant, in UTC. */
function hl7Time(ms: number): string {
  return `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

describe('alert episodes', () => {
  let h: MonitorHarness;
  let clock: ManualClock;
  const raised: Alert[] = [];
  const escalated: Alert[] = [];
  let feeds = 0;

  beforeAll(async () => {
    clock = new ManualClock('2026-05-01T10:00:00Z');
    h = await startMonitorHarness({ clock });
    const events = resolveService(h.wb.workbench.container, TOKENS.Events);
    events.on('alert.raised', ({ alert }) => {
      raised.push(alert);
    });
    events.on('alert.escalated', ({ alert }) => {
      escalated.push(alert);
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A new interface of its own (rules: 4 messages at least, 10 min window, warning 20 %, critical 50 %). */
  async function feed() {
    const dir = h.folder();
    const name = `alerting ${++feeds}`;
    const created = await h.post('/api/monitor/interfaces', {
      name,
      directoryPath: dir,
      alertRules: { minimumMessages: 4, windowMinutes: 10, errorRateWarning: 0.2, errorRateCritical: 0.5, silenceMinutes: 30, latencyP99Ms: 60_000 },
    });
    expect(created.status).toBe(201);
    const id: string = created.json.data.id;
    let files = 0;
    const total = async (): Promise<number> => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=48`)).json.data.messagesTotal;
    return {
      id,
      name,
      dir,
      async alerts(): Promise<Alert[]> {
        const response = await h.get(`/api/monitor/alerts?sinceHours=48&interfaceId=${id}`);
        expect(response.status).toBe(200);
        return response.json.data;
      },
      /** Writes the messages, one file each, and waits until every one is counted. */
      async drop(messages: string[]): Promise<void> {
        const before = await total();
        for (const message of messages) writeFileSync(join(dir, `f${++files}.hl7`), message);
        await waitFor(async () => (await total()) === before + messages.length, 20_000, 'messages counted');
      },
      good: (n: number) => Array.from({ length: n }, (_, i) => adtMessage(`OK${files}-${i}`, { time: hl7Time(clock.nowMs() - 1000) })),
      bad: (n: number) => Array.from({ length: n }, (_, i) => `MSH|^~\\&|A|B|C|D|${hl7Time(clock.nowMs())}||ADT^A01|BAD${files}-${i}|P|2.5`),
    };
  }
  const open = (list: Alert[], rule: string) => list.filter((a) => a.rule === rule && a.clearedAt === null);
  const ofRule = (list: Alert[], rule: string) => list.filter((a) => a.rule === rule);

  it('keeps one error-rate alert per episode: a warning that escalates to critical, the escalation recorded', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(1)]);
    const warning = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'warning');
    expect(warning).toMatchObject({ severity: 'warning', escalatedAt: null, interfaceName: f.name });
    await quiesceMonitor(h.wb.workbench);
    expect(ofRule(await f.alerts(), 'error-rate')).toHaveLength(1);
    await f.drop(f.bad(5));
    const critical = await waitFor(async () => open(await f.alerts(), 'error-rate').find((a) => a.severity === 'critical'), 20_000, 'critical');
    expect(critical.id).toBe(warning.id);
    expect(critical.escalatedAt).toBe(clock.now().toISOString());
    // raised as soon as a commit took the rate to 50 %: how many of the five files had landed by then varies
    const [, failed, total] = /(\d+) of (\d+) messages failed validation in the last 10 minutes/.exec(critical.message) ?? [];
    expect(Number(failed) / Number(total)).toBeGreaterThanOrEqual(0.5);
    await quiesceMonitor(h.wb.workbench);
    const all = await f.alerts();
    expect(all.map((a) => a.rule)).toEqual(['error-rate']);
    expect(raised.filter((a) => a.interfaceId === f.id).map((a) => a.id)).toEqual([warning.id]);
    expect(escalated.filter((a) => a.interfaceId === f.id).map((a) => [a.id, a.severity])).toEqual([[warning.id, 'critical']]);
    const status = (await h.get('/api/monitor/status')).json.data.interfaces.find((i: { interfaceId: string }) => i.interfaceId === f.id);
    expect(status.reason).toBe(critical.title);
  });

  it('clears the error rate once the window moves past the failures, raises silence after its limit, and opens a new episode later', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(1)]);
    const first = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'warning');
    clock.advance(11 * 60_000);
    await waitFor(async () => open(await f.alerts(), 'error-rate').length === 0, 20_000, 'error rate cleared');
    await quiesceMonitor(h.wb.workbench);
    expect(open(await f.alerts(), 'silence')).toHaveLength(0);
    clock.advance(20 * 60_000);
    const silence = await waitFor(async () => open(await f.alerts(), 'silence')[0], 20_000, 'silence');
    expect(silence.severity).toBe('warning');
    expect(silence.title).toMatch(/ for (30|31) min$/);
    expect(silence.message).toMatch(/the silence limit is 30 min\.$/);
    expect(silence.triggeredAt).toBe(clock.now().toISOString());
    await f.drop([...f.good(4), ...f.bad(1)]);
    await waitFor(async () => open(await f.alerts(), 'silence').length === 0, 20_000, 'silence cleared');
    const second = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'second warning');
    expect(second.id).not.toBe(first.id);
    expect(ofRule(await f.alerts(), 'error-rate').filter((a) => a.clearedAt !== null).map((a) => a.id)).toEqual([first.id]);
  });

  it('raises a latency alert when p99 passes the limit, in words a person reads', async () => {
    const f = await feed();
    await f.drop([adtMessage('LATE1', { time: hl7Time(clock.nowMs() - 2 * 3_600_000) })]);
    const latency = await waitFor(async () => open(await f.alerts(), 'latency-p99')[0], 20_000, 'latency alert');
    expect(latency.title).toMatch(/^p99 latency 2(\.1)? h on /);
    expect(latency.message).toMatch(/above the limit of 1 min\.$/);
    // no raw milliseconds where a person reads
    expect(`${latency.title} ${latency.message}`).not.toMatch(/\d ms\b/);
    const metrics = (await h.get(`/api/monitor/interfaces/${f.id}/metrics?sinceHours=1`)).json.data;
    expect(metrics.p99LatencyMs).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(metrics.p99LatencyMs).toBeLessThanOrEqual(2 * 3_600_000 * 1.05);
  });

  it('keeps an acknowledged alert one acknowledged alert across disable and enable while its condition holds', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(1)]);
    const warning = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'warning');
    const acknowledged = (await h.post(`/api/monitor/alerts/${warning.id}/acknowledge`)).json.data;
    expect((await h.put(`/api/monitor/interfaces/${f.id}`, { enabled: false })).status).toBe(200);
    await quiesceMonitor(h.wb.workbench);
    expect((await h.put(`/api/monitor/interfaces/${f.id}`, { enabled: true })).status).toBe(200);
    await quiesceMonitor(h.wb.workbench);
    const after = ofRule(await f.alerts(), 'error-rate');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: warning.id, clearedAt: null, acknowledgedAt: acknowledged.acknowledgedAt });
  });

  it('closes the alerts of a deleted interface', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(1)]);
    const warning = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'warning');
    expect((await h.del(`/api/monitor/interfaces/${f.id}`)).status).toBe(200);
    const left = ((await h.get('/api/monitor/alerts?sinceHours=48')).json.data as Alert[]).filter((a) => a.interfaceId === f.id);
    expect(left.map((a) => a.id)).toEqual([warning.id]);
    expect(left[0].clearedAt).toBe(clock.now().toISOString());
  });

  it('shows the unparsable-file episode of a bad file followed by good ones, opened and closed', async () => {
    const f = await feed();
    // written together: the bad file first, good ones after it; they may settle in any order and commit in one batch
    // or two, and the order they were written in decides
    writeFileSync(join(f.dir, 'a-bad.hl7'), 'this is not HL7');
    for (const [i, message] of f.good(3).entries()) writeFileSync(join(f.dir, `b-good-${i}.hl7`), message);
    await quiesceMonitor(h.wb.workbench);
    const unparsable = ofRule(await f.alerts(), 'unparsable-file');
    expect(unparsable).toHaveLength(1);
    expect(unparsable[0].message).toContain('a-bad.hl7');
    expect(unparsable[0].clearedAt).not.toBeNull();
  });

  it('acknowledges once: a second call keeps the first time; unknown ids get 404', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(1)]);
    const warning = await waitFor(async () => open(await f.alerts(), 'error-rate')[0], 20_000, 'warning');
    const acknowledged = await h.post(`/api/monitor/alerts/${warning.id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.json.data.acknowledgedAt).toBe(clock.now().toISOString());
    const at = acknowledged.json.data.acknowledgedAt;
    clock.advance(1000);
    const again = await h.post(`/api/monitor/alerts/${warning.id}/acknowledge`);
    expect(again.json.data.acknowledgedAt).toBe(at);
    expect((await h.post('/api/monitor/alerts/no-such-alert/acknowledge')).status).toBe(404);
  });

  it('filters by severity, answers 404 for an unknown interface and refuses bad queries naming the field', async () => {
    const f = await feed();
    await f.drop([...f.good(4), ...f.bad(6)]);
    await waitFor(async () => open(await f.alerts(), 'error-rate').find((a) => a.severity === 'critical'), 20_000, 'critical');
    const critical = (await h.get(`/api/monitor/alerts?severity=critical&sinceHours=48&interfaceId=${f.id}`)).json.data as Alert[];
    expect(critical.map((a) => [a.rule, a.severity])).toEqual([['error-rate', 'critical']]);
    expect((await h.get(`/api/monitor/alerts?severity=info&sinceHours=48&interfaceId=${f.id}`)).json.data).toEqual([]);
    const unknown = await h.get('/api/monitor/alerts?interfaceId=unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('INTERFACE_NOT_FOUND');
    expect(unknown.json.error.message).toContain('"unknown"');
    for (const [query, field] of [['severity=loud', 'severity'], ['sinceHours=0', 'sinceHours'], ['sinceHours=8761', 'sinceHours'], ['sinceHours=abc', 'sinceHours'], ['bogus=1', '(root)']]) {
      const response = await h.get(`/api/monitor/alerts?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.json.error.details[0].path, query).toBe(field);
    }
  });
});
