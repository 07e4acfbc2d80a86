// One vocabulary across the route families, through HTTP: every window problem answers 400 WINDOW_INVALID, every
// unknown interface 404 INTERFACE_NOT_FOUND, and the list routes page by keyset (limit, cursor, the envelope's
// page.next and page.truncated): alerts beyond 10,000 come in bounded pages instead of a silent cut, the interface
// list pages, and the audit list takes a cursor beside its offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { startMonitorHarness, type MonitorHarness } from './monitor-harness.ts';

interface Paged {
  status: number;
  ids: string[];
  next: string | null;
  truncated: boolean;
}

describe('one vocabulary of windows, interfaces and pages', () => {
  let h: MonitorHarness;
  let keys: RoleKeys;
  let feed: string;
  const ALERTS = 10_050;

  beforeAll(async () => {
    h = await startMonitorHarness();
    keys = await createRoleKeys(h.wb);
    feed = (await h.post('/api/monitor/interfaces', { name: 'paged feed', directoryPath: h.folder('paged') })).json.data.id;
    // more alerts than the old silent cap of 10,000, written straight to the store (raising them one by one through
    // the rules would take minutes); a second apart, newest a minute ago, so all lie in the default 24-hour window
    const db = resolveService(h.wb.workbench.container, TOKENS.Storage).db as unknown as Kysely<MonitorDatabase>;
    const newest = Date.now() - 60_000;
    const rows = Array.from({ length: ALERTS }, (_, i) => ({
      id: randomUUID(),
      interface_id: feed,
      interface_name: 'paged feed',
      rule: `bulk-${i}`,
      severity: i % 10 === 0 ? 'critical' : 'warning',
      title: `Alert ${i}`,
      message: 'bulk',
      // every tenth pair shares an instant, so the page boundary falls inside a tie at least once
      triggered_at: new Date(newest - Math.floor(i / 2) * 1000).toISOString(),
      cleared_at: new Date(newest).toISOString(),
      acknowledged_at: null,
      escalated_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('monitor_alerts').values(rows.slice(i, i + 500)).execute();
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  async function page(path: string): Promise<Paged> {
    const answer = await h.get(path);
    return {
      status: answer.status,
      ids: ((answer.json.data ?? []) as Array<{ id: string }>).map((item) => item.id),
      next: answer.json.page?.next ?? null,
      truncated: answer.json.page?.truncated ?? false,
    };
  }

  it('pages every alert beyond 10,000, newest first, each once, instead of cutting the list silently', async () => {
    const first = await page(`/api/monitor/alerts?interfaceId=${feed}&limit=1000`);
    expect(first.status).toBe(200);
    expect(first.ids).toHaveLength(1000);
    expect(first.truncated).toBe(true);
    expect(first.next).toEqual(expect.any(String));
    const seen = new Set(first.ids);
    let cursor = first.next;
    let pages = 1;
    while (cursor !== null) {
      const next = await page(`/api/monitor/alerts?interfaceId=${feed}&limit=1000&cursor=${encodeURIComponent(cursor)}`);
      expect(next.status).toBe(200);
      for (const id of next.ids) {
        expect(seen.has(id), `alert ${id} repeated`).toBe(false);
        seen.add(id);
      }
      expect(next.truncated).toBe(next.next !== null);
      cursor = next.next;
      pages++;
    }
    expect(seen.size).toBe(ALERTS);
    expect(pages).toBe(11);
    // the default page is bounded too, and says so
    const plain = await page(`/api/monitor/alerts?interfaceId=${feed}`);
    expect(plain.ids).toHaveLength(100);
    expect(plain.truncated).toBe(true);
    // a filter narrows the pages, not just the first one
    const critical = await page(`/api/monitor/alerts?interfaceId=${feed}&severity=critical&limit=1000`);
    expect(critical.ids).toHaveLength(1000);
    const rest = await page(`/api/monitor/alerts?interfaceId=${feed}&severity=critical&limit=1000&cursor=${encodeURIComponent(critical.next!)}`);
    expect(critical.ids.length + rest.ids.length).toBe(Math.ceil(ALERTS / 10));
    expect(rest.truncated).toBe(false);
    expect(rest.next).toBeNull();
  });

  it('answers newest first across pages, ties broken the same way on every page', async () => {
    const whole = (await h.get(`/api/monitor/alerts?interfaceId=${feed}&limit=30`)).json.data as Array<{ id: string; triggeredAt: string }>;
    const a = await page(`/api/monitor/alerts?interfaceId=${feed}&limit=7`);
    const b = await page(`/api/monitor/alerts?interfaceId=${feed}&limit=23&cursor=${encodeURIComponent(a.next!)}`);
    expect([...a.ids, ...b.ids]).toEqual(whole.map((alert) => alert.id));
    const times = whole.map((alert) => Date.parse(alert.triggeredAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('pages the interface list by name with cursor, next, limit and truncated', async () => {
    for (const name of ['b feed', 'a feed', 'c feed', 'd feed']) {
      expect((await h.post('/api/monitor/interfaces', { name, directoryPath: h.folder(name.replace(' ', '-')) })).status).toBe(201);
    }
    const names = async (path: string) => {
      const answer = await h.get(path);
      expect(answer.status, path).toBe(200);
      return { names: (answer.json.data as Array<{ name: string }>).map((i) => i.name), page: answer.json.page };
    };
    const first = await names('/api/monitor/interfaces?limit=2');
    expect(first.names).toEqual(['a feed', 'b feed']);
    expect(first.page).toMatchObject({ truncated: true, limit: 2, next: expect.any(String) });
    const second = await names(`/api/monitor/interfaces?limit=2&cursor=${encodeURIComponent(first.page.next)}`);
    expect(second.names).toEqual(['c feed', 'd feed']);
    const last = await names(`/api/monitor/interfaces?limit=2&cursor=${encodeURIComponent(second.page.next)}`);
    expect(last.names).toEqual(['paged feed']);
    expect(last.page).toEqual({ next: null, truncated: false, limit: 2 });
    const all = await names('/api/monitor/interfaces');
    expect(all.names).toEqual(['a feed', 'b feed', 'c feed', 'd feed', 'paged feed']);
    expect(all.page).toEqual({ next: null, truncated: false, limit: 100 });
  });

  it('refuses a cursor it did not give out and a limit out of range, naming the parameter', async () => {
    for (const path of ['/api/monitor/interfaces?cursor=not-a-cursor', `/api/monitor/alerts?cursor=${Buffer.from('[1]').toString('base64url')}`]) {
      const answer = await h.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.json.error.code, path).toBe('CURSOR_INVALID');
      expect(answer.json.error.details[0].path, path).toBe('cursor');
    }
    for (const path of ['/api/monitor/interfaces?limit=0', '/api/monitor/alerts?limit=1001']) {
      const answer = await h.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.json.error.details[0].path, path).toBe('limit');
    }
  });

  it('answers INTERFACE_NOT_FOUND for an unknown interface on every route family', async () => {
    const unknown = 'no-such-interface';
    const answers = [
      await h.get(`/api/monitor/interfaces/${unknown}`),
      await h.get(`/api/monitor/interfaces/${unknown}/metrics`),
      await h.get(`/api/monitor/alerts?interfaceId=${unknown}`),
      await h.get(`/api/monitor/analytics/timeseries?interfaceId=${unknown}`),
      await h.get(`/api/monitor/analytics/dashboards/interface?interfaceId=${unknown}`),
      await h.get(`/api/monitor/gaps?interface_id=${unknown}`),
      await h.get(`/api/monitor/latency?from_interface=${unknown}&to_interface=${feed}`),
      await h.wb.call('monitor', withBearer({ method: 'POST', path: '/api/monitor/admin/sla', body: { interfaceId: unknown, uptimeTarget: 99, maxResponseMs: 1000, alertThresholdPercent: 95 } }, keys.admin)),
      await h.wb.call('bridge', { method: 'POST', path: '/api/monitor/summary', body: { interfaceId: unknown } }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.json.error.code, answer.text).toBe('INTERFACE_NOT_FOUND');
      expect(answer.json.error.message).toContain(`"${unknown}"`);
    }
  });

  it('answers WINDOW_INVALID for a window that ends before it starts on every route family', async () => {
    const since = '2026-03-02T00:00:00Z';
    const until = '2026-03-01T00:00:00Z';
    const answers = [
      await h.get(`/api/monitor/analytics/timeseries?since=${since}&until=${until}`),
      await h.get(`/api/monitor/analytics/topn?since=${since}&until=${until}`),
      await h.post('/api/monitor/analytics/reports/generate', { format: 'json', since, until }),
      await h.get(`/api/monitor/latency?from_interface=${feed}&to_interface=${feed}&since=${since}&until=${until}`),
      await h.wb.call('monitor', withBearer({ method: 'GET', path: `/api/monitor/audit?from=${since}&to=${until}` }, keys.admin)),
      await h.wb.call('monitor', withBearer({ method: 'GET', path: `/api/admin/observability/sla/any/violations?from=${since}&to=${until}` }, keys.admin)),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json.error.code, answer.text).toBe('WINDOW_INVALID');
    }
    // a window too long for a dashboard is the same refusal
    const long = await h.get('/api/monitor/analytics/dashboards/overview?since=1990-01-01T00:00:00Z');
    expect(long.json.error.code).toBe('WINDOW_INVALID');
  });

  it('pages the audit list by cursor beside the offset the spec names', async () => {
    const audit = (query: string) => h.wb.call('monitor', withBearer({ method: 'GET', path: `/api/monitor/audit?${query}` }, keys.admin));
    const whole = await audit('limit=1000');
    expect(whole.status, whole.text).toBe(200);
    const total: number = whole.json.data.total;
    expect(total).toBeGreaterThanOrEqual(3);
    const ids = (whole.json.data.entries as Array<{ id: number }>).map((entry) => entry.id);
    const first = await audit('limit=2');
    expect(first.json.page).toMatchObject({ truncated: true, limit: 2, next: expect.any(String) });
    const second = await audit(`limit=2&cursor=${encodeURIComponent(first.json.page.next)}`);
    expect([...first.json.data.entries, ...second.json.data.entries].map((entry: { id: number }) => entry.id)).toEqual(ids.slice(0, 4));
    const byOffset = await audit('limit=2&offset=2');
    expect(byOffset.json.data.entries.map((entry: { id: number }) => entry.id)).toEqual(ids.slice(2, 4));
    expect(whole.json.page).toEqual({ next: null, truncated: false, limit: 1000 });
  });
});
