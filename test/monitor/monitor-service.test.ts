// The monitor's public service (api.ts) as other plugins use it, on SQLite and PostgreSQL: alerts raised by others
// (episodes and one-offs), minute roll-up import, daily counts, interface events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { MONITOR_SERVICE, type MonitorService } from '../../plugins/monitor/api.ts';
import { importMinuteRollups } from '../kit/monitor-history.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { startMonitorHarness, storages, type MonitorHarness } from './monitor-harness.ts';

describe.each(storages())('monitor service on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  let interfaceId: string;
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    interfaceId = (await h.post('/api/monitor/interfaces', { name: 'svc', directoryPath: h.folder() })).json.data.id;
    // the first whole check judges the registered rules (the SLA rule clears its episode while no SLA is defined):
    // done before the tests raise episodes of that rule themselves
    await quiesceMonitor(h.wb.workbench);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('lists and finds interfaces', async () => {
    expect(await service.interfaceExists(interfaceId)).toBe(true);
    expect(await service.interfaceExists('nope')).toBe(false);
    expect((await service.getInterface(interfaceId))?.name).toBe('svc');
    expect((await service.listInterfaces()).map((i) => i.id)).toEqual([interfaceId]);
  });

  it('raises an alert once per episode for a rule, again after it cleared; one-offs every time', async () => {
    const raised: string[] = [];
    resolveService(h.wb.workbench.container, TOKENS.Events)
      .on('alert.raised', ({ alert }) => {
        raised.push(alert.id);
      });
    const input = { interfaceId, severity: 'warning' as const, title: 'SLA breach', message: 'uptime 97 %', rule: 'sla-breach' };
    const first = await service.raiseAlert(input);
    const again = await service.raiseAlert(input);
    expect(again.id).toBe(first.id);
    expect(await service.clearAlert(interfaceId, 'sla-breach')).toBe(true);
    expect(await service.clearAlert(interfaceId, 'sla-breach')).toBe(false);
    const next = await service.raiseAlert(input);
    expect(next.id).not.toBe(first.id);
    const oneOff1 = await service.raiseAlert({ interfaceId, severity: 'info', title: 'note', message: 'x' });
    const oneOff2 = await service.raiseAlert({ interfaceId, severity: 'info', title: 'note', message: 'x' });
    expect(oneOff1.id).not.toBe(oneOff2.id);
    expect(raised).toEqual([first.id, next.id, oneOff1.id, oneOff2.id]);
    const listed = await h.get('/api/monitor/alerts?sinceHours=1');
    expect(listed.json.data.map((a: { id: string }) => a.id).sort()).toEqual([...raised].sort());
    expect(listed.json.data[0]).toEqual(
      expect.objectContaining({ interfaceId, interfaceName: 'svc', acknowledgedAt: null, triggeredAt: expect.any(String) }),
    );
    await expect(service.raiseAlert({ ...input, interfaceId: 'unknown' })).rejects.toMatchObject({ code: 'INTERFACE_NOT_FOUND' });
  });

  it('imports minute roll-ups and reads them back with daily counts', async () => {
    const base = Date.parse('2026-03-01T23:58:00Z');
    const rows = [0, 1, 2, 3].map((i) => ({
      interfaceId,
      minute: new Date(base + i * 60_000).toISOString(),
      messages: 10 + i,
      failed: i,
      latencySumMs: 100,
      latencyCount: 10,
      reachable: i !== 1,
      enabled: true,
    }));
    await importMinuteRollups(h.wb.workbench.storage, rows);
    await importMinuteRollups(h.wb.workbench.storage, [{ ...rows[3], messages: 20 }]);
    const read = await service.minuteRollups(interfaceId, { since: new Date(base), until: new Date(base + 4 * 60_000) });
    expect(read.map((r) => [r.minute, r.messages, r.reachable])).toEqual([
      ['2026-03-01T23:58:00.000Z', 10, true],
      ['2026-03-01T23:59:00.000Z', 11, false],
      ['2026-03-02T00:00:00.000Z', 12, true],
      ['2026-03-02T00:01:00.000Z', 20, true],
    ]);
    // imported minutes carry no latency histogram: nothing is counted within a bound
    expect(await service.latencyWithin(interfaceId, 1000, { since: new Date(base), until: new Date(base + 4 * 60_000) })).toEqual([]);
    expect(await service.dailyMessageCounts({ since: new Date('2026-03-01T00:00:00Z'), until: new Date('2026-03-03T00:00:00Z') }, interfaceId)).toEqual([
      { day: '2026-03-01', messages: 21, failed: 1 },
      { day: '2026-03-02', messages: 32, failed: 5 },
    ]);
  });
});
