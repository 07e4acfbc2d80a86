// SLAs, their reports and alerts, workspace observability, cost metrics and Prometheus metrics through real HTTP.
// The report numbers are checked against a hand-computed fixture of stored minutes imported through the monitor's
// service; the share of messages answered in time against real messages read from a watched folder.
import type { Kysely } from 'kysely';
import { importMinuteRollups } from '../kit/monitor-history.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRoleKeys, expectAdminOnly, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';
import { startTestWorkbench } from '../helpers/test-workbench.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from '../monitor/monitor-harness.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MinuteRollup, type MonitorService } from '../../plugins/monitor/api.ts';

const MINUTE = 60_000;
let harness: MonitorHarness;
let keys: RoleKeys;
let monitor: MonitorService;
/** Start of the fixture window: a whole minute 40 minutes ago. */
let t0: number;
/** The interface of the hand-counted fixture of stored minutes. */
let fixtureId: string;
const iso = (at: number) => new Date(at).toISOString();
const asAdmin = (request: TestRequest) => harness.wb.call('monitor', withBearer(request, keys.admin));
/** Judges every SLA now (`POST /api/monitor/admin/sla/evaluate`); the interfaces alerted. */
const evaluateSlas = async (): Promise<string[]> => (await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla/evaluate' })).json.data.alerted;

async function createInterface(name: string): Promise<string> {
  const created = await harness.post('/api/monitor/interfaces', { name, directoryPath: harness.folder(name) });
  expect(created.status).toBe(201);
  return created.json.data.id;
}

function minute(interfaceId: string, at: number, fields: Partial<MinuteRollup> = {}): MinuteRollup {
  return { interfaceId, minute: iso(at), messages: 0, failed: 0, latencySumMs: 0, latencyCount: 0, reachable: true, enabled: true, ...fields };
}

/** HL7 timestamp with offset, as MSH-7 carries it. */
function hl7Time(at: Date): string {
  return `${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

beforeAll(async () => {
  harness = await startMonitorHarness();
  keys = await createRoleKeys(harness.wb);
  monitor = resolveService(harness.wb.workbench.container, MONITOR_SERVICE);
  t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 40 * MINUTE;
  // the fixture every SLA report and observability test reads, built once here so that any test runs alone (-t)
  fixtureId = await createInterface('sla-fixture');
  await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: fixtureId, uptimeTarget: 90, maxResponseMs: 5000, alertThresholdPercent: 50 } });
  // history: the interface and its SLA existed an hour before the fixture window (a report counts no earlier minute)
  const db = harness.wb.workbench.storage.db as Kysely<any>;
  await db.updateTable('monitor_interfaces').set({ created_at: iso(t0 - 60 * MINUTE) }).where('id', '=', fixtureId).execute();
  await db.updateTable('admin_slas').set({ created_at: iso(t0 - 60 * MINUTE) }).where('interface_id', '=', fixtureId).execute();
  const at = (offset: number) => t0 + offset * MINUTE;
  const rows: MinuteRollup[] = [minute(fixtureId, at(-1), { reachable: false }), minute(fixtureId, at(20), { reachable: false })];
  for (let m = 0; m < 5; m++) rows.push(minute(fixtureId, at(m), { messages: 10 }));
  rows.push(minute(fixtureId, at(5), { reachable: false }), minute(fixtureId, at(6), { reachable: false }));
  rows.push(minute(fixtureId, at(7), { enabled: false }));
  for (let m = 8; m < 12; m++) rows.push(minute(fixtureId, at(m), { messages: 5, failed: 1 }));
  // minute 12: no row (the service was not running)
  for (let m = 13; m < 20; m++) rows.push(minute(fixtureId, at(m), { messages: 10, failed: m === 15 ? 2 : 0 }));
  await importMinuteRollups(harness.wb.workbench.storage, rows);
});
afterAll(async () => {
  await harness.stop();
});

describe('SLA definitions', () => {
  it('upserts with validation, 404 for an unknown interface or SLA, admin only', async () => {
    const id = await createInterface('sla-defs');
    const body = { interfaceId: id, uptimeTarget: 99.5, maxResponseMs: 2000, alertThresholdPercent: 80 };
    const created = await expectAdminOnly(harness.wb, keys, { method: 'POST', path: '/api/monitor/admin/sla', body });
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({ sla: body, created: true });
    const replaced = await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { ...body, uptimeTarget: 99 } });
    expect(replaced.json.data).toMatchObject({ sla: { uptimeTarget: 99 }, created: false });
    const read = await expectAdminOnly(harness.wb, keys, { path: `/api/monitor/admin/sla/${id}` });
    expect(read.json.data).toMatchObject({ ...body, uptimeTarget: 99 });

    for (const bad of [
      { ...body, uptimeTarget: 101 },
      { ...body, uptimeTarget: -1 },
      { ...body, alertThresholdPercent: 100.5 },
      { ...body, maxResponseMs: 0 },
      { ...body, maxResponseMs: 1.5 },
      { ...body, interfaceId: '' },
      { uptimeTarget: 99 },
    ]) {
      const answer = await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: bad });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
    const ghost = await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { ...body, interfaceId: 'ghost' } });
    expect(ghost.status).toBe(404);
    expect((await asAdmin({ path: '/api/monitor/admin/sla/ghost' })).status).toBe(404);
    expect((await asAdmin({ path: '/api/monitor/admin/sla/ghost/report' })).status).toBe(404);

    const removed = await expectAdminOnly(harness.wb, keys, { method: 'DELETE', path: `/api/monitor/admin/sla/${id}` });
    expect(removed.status).toBe(200);
    expect((await asAdmin({ path: `/api/monitor/admin/sla/${id}` })).status).toBe(404);
    const actions = (await asAdmin({ path: '/api/monitor/audit/?resourceType=sla' })).json.data.entries
      .filter((e: { resourceId: string }) => e.resourceId === id)
      .map((e: { action: string }) => e.action);
    expect(actions).toEqual(['sla.delete', 'sla.upsert', 'sla.upsert']);
  });
});

describe('SLA report from stored minutes', () => {
  it('computes uptime, error rate, error budget, breaches and met exactly as counted by hand', async () => {
    const path = `/api/monitor/admin/sla/${fixtureId}/report?from=${iso(t0)}&to=${iso(t0 + 20 * MINUTE)}`;
    const answer = await expectAdminOnly(harness.wb, keys, { path });
    expect(answer.status).toBe(200);
    const report = answer.json.data;
    // 20 minutes: 5 up, 2 unreachable, 1 disabled, 4 up, 1 not observed (apart), 7 up; rows just outside the window ignored.
    expect(report.minutes).toEqual({ total: 20, up: 16, down: 3, notObserved: 1, unreachable: 2, disabled: 1, slow: 0 });
    // 16 up of 19 observed minutes
    expect(report.uptimePercent).toBe(84.2105);
    // 5×10 + 4×5 + 7×10 = 140 messages, 4×1 + 2 = 6 failed: 6/140 = 4.2857 %.
    expect(report.messages).toEqual({ total: 140, failed: 6, withLatency: 0, withinMaxResponse: 0 });
    expect(report.errorRatePercent).toBe(4.2857);
    expect(report.withinMaxResponsePercent).toBeNull();
    // 10 % of 19 observed minutes = 1.9 minutes of budget; 3 used = 157.8947 %.
    expect(report.errorBudget).toEqual({ allowedDownMinutes: 1.9, usedDownMinutes: 3, usedPercent: 157.8947, exhausted: true });
    expect(report.breaches).toEqual([
      { from: iso(t0 + 5 * MINUTE), to: iso(t0 + 8 * MINUTE), minutes: 3, downMinutes: 3, slowMinutes: 0, reasons: ['unreachable', 'disabled'] },
    ]);
    expect(report).toMatchObject({ breachCount: 1, uptimeMet: false, responseMet: null, met: false, alertThresholdReached: true, clampedToNow: false });

    // The first 5 minutes alone meet a 90 % target.
    const clean = await asAdmin({ path: `/api/monitor/admin/sla/${fixtureId}/report?from=${iso(t0)}&to=${iso(t0 + 5 * MINUTE)}` });
    expect(clean.json.data).toMatchObject({ uptimePercent: 100, met: true, breachCount: 0, alertThresholdReached: false });
  });

  it('counts an SLA from the first minute the interface and the SLA existed, so a new interface is not thirty days down', async () => {
    const id = await createInterface('sla-brand-new');
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: id, uptimeTarget: 99.9, maxResponseMs: 5000, alertThresholdPercent: 80 } });
    await quiesceMonitor(harness.wb.workbench);
    const requested = iso(Date.now() - 30 * 24 * 60 * MINUTE);
    const report = (await asAdmin({ path: `/api/monitor/admin/sla/${id}/report?from=${requested}` })).json.data;
    expect(report.requestedFrom).toBe(requested);
    const created = (await harness.get(`/api/monitor/interfaces/${id}`)).json.data.createdAt as string;
    expect(report.from).toBe(iso(Math.floor(Date.parse(created) / MINUTE) * MINUTE));
    // a minute or two since creation, each checked by the monitor: up, nothing spent of the budget
    expect(report.minutes.total).toBeLessThanOrEqual(3);
    expect(report.minutes.down).toBe(0);
    expect(report.uptimePercent).toBe(100);
    expect(report.errorBudget.usedDownMinutes).toBe(0);
    expect(await evaluateSlas()).not.toContain(id);
  });

  it('is judged by the monitor with its own rules: the missed SLA raises one critical alert without any timer of its own', async () => {
    const alert = await waitFor(
      async () => ((await harness.get(`/api/monitor/alerts?interfaceId=${fixtureId}`)).json.data as Array<{ rule: string; severity: string; clearedAt: string | null }>).find((a) => a.rule === 'sla-breach'),
      20_000,
      'sla-breach alert',
    );
    expect(alert).toMatchObject({ severity: 'critical', clearedAt: null });
  });

  it('refuses windows that end before they start or exceed a year', async () => {
    const backwards = await asAdmin({ path: `/api/monitor/admin/sla/${fixtureId}/report?from=${iso(t0)}&to=${iso(t0 - MINUTE)}` });
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.code).toBe('WINDOW_INVALID');
    expect((await asAdmin({ path: `/api/monitor/admin/sla/${fixtureId}/report?from=2020-01-01&to=2022-01-01` })).status).toBe(400);
    expect((await asAdmin({ path: `/api/monitor/admin/sla/${fixtureId}/report?from=soon` })).status).toBe(400);
  });

  it('raises a monitor alert when the error budget used passes alertThresholdPercent, and none below it', async () => {
    const healthyId = await createInterface('sla-healthy');
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: healthyId, uptimeTarget: 90, maxResponseMs: 5000, alertThresholdPercent: 50 } });
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const healthy: MinuteRollup[] = [];
    // Up through the whole alert window (the default 24 hours) and a little beyond.
    for (let at = now - 24 * 60 * MINUTE - 2 * MINUTE; at <= now + MINUTE; at += MINUTE) healthy.push(minute(healthyId, at, { messages: 1 }));
    await importMinuteRollups(harness.wb.workbench.storage, healthy);

    const alerted = (await expectAdminOnly(harness.wb, keys, { method: 'POST', path: '/api/monitor/admin/sla/evaluate' })).json.data.alerted;
    expect(alerted).toContain(fixtureId);
    expect(alerted).not.toContain(healthyId);
    const alerts = await harness.get(`/api/monitor/alerts?interfaceId=${fixtureId}`);
    const sla = alerts.json.data.filter((a: { rule: string }) => a.rule === 'sla-breach');
    expect(sla).toHaveLength(1);
    expect(sla[0]).toMatchObject({ severity: 'critical', title: 'SLA missed', acknowledgedAt: null });
    // Evaluated again, the open episode is not raised twice.
    await evaluateSlas();
    const again = await harness.get(`/api/monitor/alerts?interfaceId=${fixtureId}`);
    expect(again.json.data.filter((a: { rule: string }) => a.rule === 'sla-breach')).toHaveLength(1);
    expect((await harness.get(`/api/monitor/alerts?interfaceId=${healthyId}`)).json.data).toHaveLength(0);
  });
});

describe('share of messages within maxResponseMs', () => {
  it('counts real messages by their latency (received minus MSH-7)', async () => {
    const folder = harness.folder('sla-latency');
    const created = await harness.post('/api/monitor/interfaces', { name: 'sla-latency', directoryPath: folder });
    const id = created.json.data.id;
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: id, uptimeTarget: 50, maxResponseMs: 60_000, alertThresholdPercent: 80 } });
    const now = new Date();
    const messages = [
      adtMessage('FAST1', { time: hl7Time(now) }),
      adtMessage('FAST2', { time: hl7Time(now) }),
      adtMessage('SLOW1', { time: hl7Time(new Date(now.getTime() - 2 * 3_600_000)) }),
    ];
    writeFileSync(join(folder, 'batch.hl7'), messages.join('\r\n'));
    await waitFor(async () => (await monitor.storedMessageCounts(id)).messages === 3, 30_000, 'three stored messages');
    const from = iso(Math.floor(now.getTime() / MINUTE) * MINUTE - 2 * MINUTE);
    const to = iso(Date.now() + 2 * MINUTE);
    const report = (await asAdmin({ path: `/api/monitor/admin/sla/${id}/report?from=${from}&to=${to}` })).json.data;
    expect(report.messages).toMatchObject({ total: 3, withLatency: 3, withinMaxResponse: 2 });
    expect(report.withinMaxResponsePercent).toBe(66.6667);
    expect(report.responseMet).toBe(true);
    expect(report.clampedToNow).toBe(true);
    expect(report.minutes.slow).toBeGreaterThanOrEqual(1);
    expect(report.breaches.some((b: { reasons: string[] }) => b.reasons.includes('slow'))).toBe(true);
  });
});

describe('observability', () => {
  it('aggregates a workspace (orgId = workspace id) and lists its violations, admin only', async () => {
    const plain = await createInterface('no-sla');
    const ws = (await asAdmin({ method: 'POST', path: '/api/monitor/admin/workspaces', body: { name: 'Observed Org' } })).json.data.id;
    for (const interfaceId of [fixtureId, plain]) {
      await asAdmin({ method: 'POST', path: `/api/monitor/admin/workspaces/${ws}/interfaces`, body: { interfaceId } });
    }
    const window = `from=${iso(t0)}&to=${iso(t0 + 20 * MINUTE)}`;
    const aggregate = await expectAdminOnly(harness.wb, keys, { path: `/api/admin/observability/sla/${ws}?${window}` });
    expect(aggregate.status).toBe(200);
    expect(aggregate.json.data.summary).toEqual({
      interfaces: 2,
      withSla: 1,
      met: 0,
      notMet: 1,
      uptimePercent: 84.2105,
      withinMaxResponsePercent: null,
      errorRatePercent: 4.2857,
      messages: 140,
      breaches: 1,
    });
    expect(aggregate.json.data.interfaces).toContainEqual(expect.objectContaining({ interfaceId: plain, sla: null, met: null }));

    const violations = await expectAdminOnly(harness.wb, keys, { path: `/api/admin/observability/sla/${ws}/violations?${window}` });
    expect(violations.json.data.total).toBe(1);
    expect(violations.json.data.violations.map((v: { from: string; interfaceId: string }) => [v.from, v.interfaceId])).toEqual([
      [iso(t0 + 5 * MINUTE), fixtureId],
    ]);
    expect((await asAdmin({ path: '/api/admin/observability/sla/nobody' })).status).toBe(404);
    expect((await asAdmin({ path: `/api/admin/observability/sla/${ws}/violations?from=tomorrow` })).status).toBe(400);
  });

  it('reports cost metrics with the estimate recomputable from its own figures and rates', async () => {
    const answer = await expectAdminOnly(harness.wb, keys, { path: '/api/admin/observability/metrics/cost' });
    expect(answer.status).toBe(200);
    const cost = answer.json.data;
    expect(cost.process.cpuSeconds).toBeGreaterThan(0);
    expect(cost.process.rssBytes).toBeGreaterThan(10 * 2 ** 20);
    expect(cost.storage.dataDirBytes).toBeGreaterThan(0);
    expect(cost.storage.databaseBytes).toBeGreaterThan(0);
    // Stored messages are the real ones (imported minutes add none); daily counts come from the minutes, imported history included.
    expect(cost.messages.stored).toBe((await monitor.storedMessageCounts()).messages);
    const perDay = await monitor.dailyMessageCounts({ since: new Date(Date.now() - 30 * 86_400_000), until: new Date() });
    expect(cost.messages.perDay).toEqual(perDay.map((d) => ({ day: d.day, messages: d.messages })));
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const recent = perDay.filter((d) => d.day > lastWeek).reduce((sum, d) => sum + d.messages, 0);
    expect(cost.messages.growthPerDay).toBeCloseTo(recent / 7, 3);
    const { rates } = cost.estimate;
    expect(rates).toEqual({ currency: 'USD', cpuCoreHour: 0.04, memoryGiBHour: 0.005, storageGiBMonth: 0.1 });
    const cpu = cost.process.cpuCoreShare * 730 * rates.cpuCoreHour;
    const memory = (cost.process.rssBytes / 2 ** 30) * 730 * rates.memoryGiBHour;
    const storage = (cost.estimate.storageNextMonthBytes / 2 ** 30) * rates.storageGiBMonth;
    expect(cost.estimate.monthly).toBeCloseTo(cpu + memory + storage, 3);
    expect(cost.estimate.storageNextMonthBytes).toBeGreaterThanOrEqual(cost.storage.totalBytes);
  });

  it('serves Prometheus metrics to admins: requests per route, ingest counters, queue depth', async () => {
    await harness.get('/api/health');
    const answer = await expectAdminOnly(harness.wb, keys, { path: '/metrics' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    expect(answer.text).toMatch(/workbench_http_requests_total\{base="monitor",method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(answer.text).toMatch(/workbench_http_requests_total\{[^}]*route="\/metrics",status="401"\}/);
    expect(answer.text).toMatch(/workbench_http_request_duration_seconds_bucket\{le="0.005",base="monitor",method="GET",route="\/api\/health"\}/);
    expect(answer.text).toMatch(/workbench_messages_ingested_total\{interface_id="[^"]+"\} 3/);
    expect(answer.text).toContain('workbench_monitor_queue_depth 0');
    expect(answer.text).toContain('workbench_messages_stored 3');
    expect(answer.text).toContain('workbench_process_resident_memory_bytes');
  });

  it('opens /metrics without credentials when metrics.public is on', async () => {
    const open = await startTestWorkbench({ config: { plugins: { admin: { metrics: { public: true } } } } });
    try {
      const answer = await open.call('monitor', { path: '/metrics' });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('workbench_http_requests_total');
    } finally {
      await open.stop();
    }
  });
});
