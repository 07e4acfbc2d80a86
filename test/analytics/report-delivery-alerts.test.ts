// A report that cannot be e-mailed is a system alert, through the real HTTP interface: it belongs to no interface (an
// interface it never named, or one its report covers, keeps its state), it is listed with every alert, it ends when
// its schedule is deleted, and at start delivery alerts left on an interface or of a schedule deleted meanwhile end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { recordMessages } from '../kit/monitor-history.ts';
import { startAnalyticsHarness, type MonitorHarness } from './analytics-harness.ts';
import { startMailCapture, type MailCapture } from './mail-capture.ts';

interface AlertView {
  id: string;
  rule: string;
  interfaceId: string | null;
  interfaceName: string | null;
  clearedAt: string | null;
}

describe('report delivery alerts', () => {
  let h: MonitorHarness;
  let mail: MailCapture;
  let feed: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'analytics-delivery-alerts-'));
  const clock = new ManualClock('2026-06-10T12:00:00Z');
  const analytics = () => ({
    smtp: { host: '127.0.0.1', port: mail.port, secure: false, from: 'workbench@hospital.example' },
    delivery: { attempts: 1, retryDelayMs: 10, timeoutMs: 5_000 },
  });

  beforeAll(async () => {
    mail = await startMailCapture({ refuse: () => true });
    h = await startAnalyticsHarness({ clock, dataDir, analytics: analytics() });
    feed = (await h.post('/api/monitor/interfaces', { name: 'ADT feed', directoryPath: h.folder('adt') })).json.data.id;
    const storage = resolveService(h.wb.workbench.container, TOKENS.Storage);
    await recordMessages(storage, feed, Array.from({ length: 5 }, (_, i) => ({ receivedAt: new Date(clock.nowMs() - (i + 1) * 60_000), controlId: `OK${i}` })));
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const deliveryAlerts = async (scheduleId: string): Promise<AlertView[]> =>
    ((await h.get('/api/monitor/alerts?sinceHours=48')).json.data as AlertView[]).filter((a) => a.rule === `report-delivery:${scheduleId}`);
  const feedStatus = async () => {
    const status = (await h.get('/api/monitor/status')).json.data;
    return status.interfaces.find((s: { interfaceId: string }) => s.interfaceId === feed) as { state: string; reason: string; openAlerts: AlertView[] };
  };

  it.each([
    ['covering every interface', {}],
    ['covering the feed', () => ({ interfaceIds: [feed] })],
  ])('raises a failed delivery of a schedule %s as a system alert that leaves the interface as it was', async (_, extra) => {
    const before = await feedStatus();
    const fields = typeof extra === 'function' ? extra() : extra;
    const schedule = (await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'daily', recipients: ['ops@hospital.example'], ...fields })).json.data;
    const run = await h.post(`/api/monitor/analytics/reports/schedule/${schedule.id}/run`);
    expect(run.json.data.delivered).toBe(false);
    const [alert, ...more] = await deliveryAlerts(schedule.id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ interfaceId: null, interfaceName: null, clearedAt: null });
    // not among the feed's alerts, and the feed's state and reason are what they were
    expect(((await h.get(`/api/monitor/alerts?sinceHours=48&interfaceId=${feed}`)).json.data as AlertView[]).map((a) => a.rule)).not.toContain(alert!.rule);
    const after = await feedStatus();
    expect({ state: after.state, reason: after.reason }).toEqual({ state: before.state, reason: before.reason });
    expect(after.state).not.toBe('degraded');
    expect(after.openAlerts.map((a) => a.rule)).not.toContain(alert!.rule);
    // the report page names it a system alert
    const text = await h.get('/api/monitor/report?format=text&sinceHours=2');
    expect(text.text).toContain('system: Scheduled daily report could not be e-mailed');

    // its cause is gone with its schedule
    expect((await h.del(`/api/monitor/analytics/reports/schedule/${schedule.id}`)).status).toBe(200);
    const ended = await deliveryAlerts(schedule.id);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.clearedAt).not.toBeNull();
  });

  it('ends at start a delivery alert left on an interface and one of a schedule deleted meanwhile, and keeps a standing one', async () => {
    const standing = (await h.post('/api/monitor/analytics/reports/schedule', { frequency: 'weekly', recipients: ['ops@hospital.example'] })).json.data;
    await h.post(`/api/monitor/analytics/reports/schedule/${standing.id}/run`);
    const monitor = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    // as an older version raised them: on the interface, for a schedule long gone; and a system one whose schedule went
    await monitor.raiseAlert({ interfaceId: feed, rule: 'report-delivery:old-schedule', severity: 'warning', title: 'old', message: 'old' });
    await monitor.raiseAlert({ interfaceId: null, rule: 'report-delivery:gone-schedule', severity: 'warning', title: 'gone', message: 'gone' });
    expect((await feedStatus()).state).toBe('degraded');

    await h.stop();
    h = await startAnalyticsHarness({ clock, dataDir, analytics: analytics() });
    const open = async (scheduleId: string) => (await deliveryAlerts(scheduleId)).filter((a) => a.clearedAt === null);
    expect(await open('old-schedule')).toEqual([]);
    expect(await open('gone-schedule')).toEqual([]);
    expect(await open(standing.id)).toHaveLength(1);
    expect((await feedStatus()).openAlerts.filter((a) => a.rule.startsWith('report-delivery:'))).toEqual([]);
  });
});
