// Audit chain, SLA report and cost metrics on a shared PostgreSQL store (WORKBENCH_TEST_POSTGRES_URL; skipped with
// a notice without it).
import { importMinuteRollups } from '../kit/monitor-history.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';
import { testPostgresUrl } from '../helpers/postgres-schema.ts';
import { startMonitorHarness, type MonitorHarness } from '../monitor/monitor-harness.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: admin and audit PostgreSQL tests are skipped.');

describe.skipIf(!testPostgresUrl)('admin and audit on PostgreSQL', () => {
  let harness: MonitorHarness;
  let keys: RoleKeys;
  const asAdmin = (request: TestRequest) => harness.wb.call('monitor', withBearer(request, keys.admin));

  beforeAll(async () => {
    harness = await startMonitorHarness({ storage: 'postgres' });
    keys = await createRoleKeys(harness.wb);
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('keeps the audit chain intact over concurrent writes and finds an altered row', async () => {
    for (let start = 0; start < 100; start += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: `pg-user-${start + i}`, role: 'MonitorOperator' } }),
        ),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    const verified = await asAdmin({ path: '/api/monitor/audit/verify' });
    // 100 role assignments and the 3 keys the test made.
    expect(verified.json.data).toMatchObject({ intact: true, checked: 103 });
    const page = await asAdmin({ path: '/api/monitor/audit/?action=role.assign&limit=5&offset=10' });
    expect(page.json.data.total).toBe(100);
    const target = page.json.data.entries[0].id as number;
    await harness.wb.workbench.storage.db.updateTable('audit_entries').set({ resource_id: 'pg-user-x' }).where('id', '=', target).execute();
    const broken = await asAdmin({ path: '/api/monitor/audit/verify' });
    expect(broken.json.data.firstBroken.id).toBe(target);
    const csv = await asAdmin({ path: '/api/monitor/audit/export?format=csv' });
    expect(csv.text.trim().split('\n')).toHaveLength(104);
  });

  it('computes an SLA report and cost metrics from the PostgreSQL store', async () => {
    const created = await harness.post('/api/monitor/interfaces', { name: 'pg-sla', directoryPath: harness.folder('pg-sla') });
    const id = created.json.data.id as string;
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: id, uptimeTarget: 75, maxResponseMs: 1000, alertThresholdPercent: 90 } });
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;
    // history: the interface and its SLA existed before the imported minutes (a report counts no earlier minute)
    const existedSince = new Date(start - 60 * 60_000).toISOString();
    await harness.wb.workbench.storage.db.updateTable('monitor_interfaces').set({ created_at: existedSince }).where('id', '=', id).execute();
    await harness.wb.workbench.storage.db.updateTable('admin_slas').set({ created_at: existedSince }).where('interface_id', '=', id).execute();
    await importMinuteRollups(
      harness.wb.workbench.storage,
      Array.from({ length: 4 }, (_, i) => ({
        interfaceId: id,
        minute: new Date(start + i * 60_000).toISOString(),
        messages: 4,
        failed: i === 0 ? 1 : 0,
        latencySumMs: 0,
        latencyCount: 0,
        reachable: i !== 3,
        enabled: true,
      })),
    );
    const report = await asAdmin({ path: `/api/monitor/admin/sla/${id}/report?from=${new Date(start).toISOString()}&to=${new Date(start + 4 * 60_000).toISOString()}` });
    expect(report.json.data).toMatchObject({ uptimePercent: 75, errorRatePercent: 6.25, met: true, breachCount: 1 });
    const cost = await asAdmin({ path: '/api/admin/observability/metrics/cost' });
    expect(cost.json.data.storage.dialect).toBe('postgres');
    expect(cost.json.data.storage.databaseBytes).toBeGreaterThan(0);
    expect(cost.json.data.storage.totalBytes).toBe(cost.json.data.storage.dataDirBytes + cost.json.data.storage.databaseBytes);
  });
});
