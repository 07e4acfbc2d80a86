// The alert history names who acknowledged an alert: the credential's kind and subject, or the local address of a
// caller who sent none; a second acknowledgement keeps the first time and person. Through the real HTTP interface.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../../plugins/monitor/api.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { startMonitorHarness, type MonitorHarness } from './monitor-harness.ts';

describe('who acknowledged an alert', () => {
  let h: MonitorHarness;
  let keys: RoleKeys;
  let interfaceId: string;

  beforeAll(async () => {
    h = await startMonitorHarness();
    keys = await createRoleKeys(h.wb);
    interfaceId = (await h.post('/api/monitor/interfaces', { name: 'ack feed', directoryPath: h.folder() })).json.data.id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const raise = (rule: string) =>
    resolveService(h.wb.workbench.container, MONITOR_SERVICE).raiseAlert({ interfaceId, severity: 'warning', rule, title: `Probe ${rule}`, message: 'Raised by the test.' });

  it('records the local caller without credentials, and keeps the first acknowledgement', async () => {
    const alert = await raise('ack-probe-local');
    const first = await h.post(`/api/monitor/alerts/${alert.id}/acknowledge`);
    expect(first.status).toBe(200);
    expect(first.json.data.acknowledgedBy).toMatch(/^local caller (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    const again = await h.wb.call('monitor', withBearer({ method: 'POST', path: `/api/monitor/alerts/${alert.id}/acknowledge`, body: {} }, keys.operator));
    expect(again.json.data).toMatchObject({ acknowledgedAt: first.json.data.acknowledgedAt, acknowledgedBy: first.json.data.acknowledgedBy });
  });

  it('records the API key of a caller who sends one, and lists it in the history', async () => {
    const alert = await raise('ack-probe-key');
    expect((await h.get('/api/monitor/alerts')).json.data.find((a: { id: string }) => a.id === alert.id).acknowledgedBy).toBeNull();
    const answer = await h.wb.call('monitor', withBearer({ method: 'POST', path: `/api/monitor/alerts/${alert.id}/acknowledge`, body: {} }, keys.operator));
    expect(answer.status).toBe(200);
    expect(answer.json.data.acknowledgedBy).toMatch(/^api-key \S+$/);
    const listed = (await h.get('/api/monitor/alerts')).json.data.find((a: { id: string }) => a.id === alert.id);
    expect(listed.acknowledgedBy).toBe(answer.json.data.acknowledgedBy);
  });
});
