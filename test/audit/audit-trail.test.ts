// The audit trail through real HTTP and the CLI: every route admin only, filters and paging, a chain that stays
// intact over 1,000 admin writes and breaks visibly when a stored row is altered or removed, formula-safe CSV and
// JSON exports, refused credentials and key changes recorded, retention that keeps the chain verifiable.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, expectAdminOnly, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { runCli } from '../../kernel/cli.ts';
import { AUDIT_TRAIL } from '../../plugins/audit/api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { formulaSafe } from '../../kernel/lib/text/csv.ts';

let wb: TestWorkbench;
let keys: RoleKeys;
const asAdmin = (request: TestRequest) => wb.call('monitor', withBearer(request, keys.admin));

/** Polls until the check passes (audit records of events are written just after the answer). */
const eventually = (check: () => Promise<void>, timeoutMs = 10_000): Promise<void> => vi.waitFor(check, { timeout: timeoutMs, interval: 25 });

beforeAll(async () => {
  wb = await startTestWorkbench();
  keys = await createRoleKeys(wb);
});
afterAll(async () => {
  await wb.stop();
});

describe('audit routes', () => {
  it('list, export and verify are admin only', async () => {
    expect((await expectAdminOnly(wb, keys, { path: '/api/monitor/audit/' })).status).toBe(200);
    expect((await expectAdminOnly(wb, keys, { path: '/api/monitor/audit' })).status).toBe(200);
    expect((await expectAdminOnly(wb, keys, { path: '/api/monitor/audit/export?format=json' })).status).toBe(200);
    expect((await expectAdminOnly(wb, keys, { path: '/api/monitor/audit/verify' })).status).toBe(200);
  });

  it('records refused credentials with the key prefix only, never the secret', async () => {
    const bogus = `wbk_zzzzzzzzzzzz_${'Q'.repeat(43)}`;
    // From addresses no other test uses: the first refusal of a source in a minute is recorded in full.
    await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles', localAddress: '127.0.0.21' }, bogus));
    await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles', localAddress: '127.0.0.22' }, keys.viewer));
    await eventually(async () => {
      const entries = (await asAdmin({ path: '/api/monitor/audit/?action=credential.refuse&limit=1000' })).json.data.entries;
      const unknownKey = entries.find((e: { actor: string }) => e.actor === 'wbk_zzzzzzzzzzzz');
      expect(unknownKey).toMatchObject({
        outcome: 'denied',
        resourceType: 'route',
        resourceId: 'GET /api/monitor/admin/roles',
        details: { status: 401, credentialKind: 'api-key' },
      });
      expect(unknownKey.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(unknownKey.sourceAddress).toMatch(/127\.0\.0\.21/);
      expect(entries.some((e: { details: { status: number } }) => e.details.status === 403)).toBe(true);
    });
    const everything = (await asAdmin({ path: '/api/monitor/audit/export?format=json' })).text;
    expect(everything).not.toContain('Q'.repeat(43));
    expect(everything).not.toContain(keys.viewer.slice('wbk_'.length + 13));
  });

  it('filters, limits (default 100, at most 1,000), offsets, newest first; bad input is 400', async () => {
    const audit = resolveService(wb.workbench.container, AUDIT_TRAIL);
    for (let i = 0; i < 120; i++) {
      await audit.record({ actor: 'filler', actorKind: 'user', action: 'filler.write', resourceType: 'filler', resourceId: String(i), outcome: 'success' });
    }
    const first = await asAdmin({ path: '/api/monitor/audit/?action=filler.write' });
    expect(first.json.data).toMatchObject({ total: 120, limit: 100, offset: 0 });
    expect(first.json.data.entries).toHaveLength(100);
    expect(first.json.data.entries[0].resourceId).toBe('119');
    const page = await asAdmin({ path: '/api/monitor/audit/?action=filler.write&limit=10&offset=115' });
    expect(page.json.data.entries.map((e: { resourceId: string }) => e.resourceId)).toEqual(['4', '3', '2', '1', '0']);
    const byType = await asAdmin({ path: '/api/monitor/audit/?resourceType=filler&limit=1' });
    expect(byType.json.data.total).toBe(120);
    const future = await asAdmin({ path: '/api/monitor/audit/?action=filler.write&from=2999-01-01' });
    expect(future.json.data.total).toBe(0);
    for (const bad of ['limit=0', 'limit=1001', 'offset=-1', 'from=yesterday', 'from=2026-02-01&to=2026-01-01', 'colour=red']) {
      const answer = await asAdmin({ path: `/api/monitor/audit/?${bad}` });
      expect(answer.status, bad).toBe(400);
    }
    expect((await asAdmin({ path: '/api/monitor/audit/export?format=xml' })).status).toBe(400);
  });

  it('keeps long detail values readable: each cut to 500 characters, the entry still listed, exported and verified', async () => {
    const audit = resolveService(wb.workbench.container, AUDIT_TRAIL);
    // A client id of up to 500 characters (sso.configure) made the details' JSON longer than the field limit.
    await audit.record({
      actor: 'admin',
      actorKind: 'user',
      action: 'long.details',
      resourceType: 'probe',
      outcome: 'success',
      details: { clientId: 'c'.repeat(500), issuer: `https://${'i'.repeat(700)}`, jitProvisioning: false },
    });
    const listed = await asAdmin({ path: '/api/monitor/audit?action=long.details' });
    expect(listed.status).toBe(200);
    const [entry] = listed.json.data.entries;
    expect(entry.details.clientId).toBe('c'.repeat(500));
    expect(entry.details.issuer).toHaveLength(500);
    expect(entry.details.issuer.endsWith('…')).toBe(true);
    expect(entry.details.jitProvisioning).toBe(false);
    expect((await asAdmin({ path: '/api/monitor/audit/export?format=json&action=long.details' })).status).toBe(200);
    expect((await asAdmin({ path: '/api/monitor/audit/verify' })).json.data.brokenTotal).toBe(0);
  });

  it('exports JSON and formula-safe CSV, streamed, oldest first', async () => {
    const audit = resolveService(wb.workbench.container, AUDIT_TRAIL);
    await audit.record({ actor: '=HYPERLINK("http://evil")', actorKind: 'user', action: 'export.probe', resourceType: 'probe', resourceId: '+1', outcome: 'success' });
    await audit.record({ actor: '@SUM(A1)', actorKind: 'user', action: 'export.probe', resourceType: 'probe', resourceId: '-2', outcome: 'success', details: { note: '\tx' } });
    const csv = await asAdmin({ path: '/api/monitor/audit/export?format=csv&action=export.probe' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,actorKind,action,resourceType,resourceId,outcome,requestId,sourceAddress,details,previousHash,hash');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toContain(",'+1,");
    expect(lines[2]).toContain("'@SUM(A1)");
    expect(lines[2]).toContain(",'-2,");
    const json = await asAdmin({ path: '/api/monitor/audit/export?format=json&action=export.probe' });
    const parsed = JSON.parse(json.text);
    expect(parsed.entries.map((e: { actor: string }) => e.actor)).toEqual(['=HYPERLINK("http://evil")', '@SUM(A1)']);
    expect(parsed.checkpoint.headId).toBeGreaterThanOrEqual(parsed.entries[1].id);
    expect(formulaSafe('\rcmd')).toBe("'\rcmd");
    expect(formulaSafe('plain')).toBe('plain');
  });
});

describe('hash chain', () => {
  it('stays intact over 1,000 admin writes made concurrently through HTTP', async () => {
    const writes = Array.from({ length: 1000 }, (_, i) => i);
    for (let start = 0; start < writes.length; start += 20) {
      const answers = await Promise.all(
        writes.slice(start, start + 20).map((i) =>
          asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: `user-${i}`, role: 'MonitorViewer' } }),
        ),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    const assigned = await asAdmin({ path: '/api/monitor/audit/?action=role.assign&limit=1' });
    expect(assigned.json.data.total).toBe(1000);
    const verified = await asAdmin({ path: '/api/monitor/audit/verify' });
    expect(verified.json.data).toMatchObject({ intact: true, firstBroken: null, anchor: null });
    expect(verified.json.data.checked).toBeGreaterThan(1000);
  });

  it('names the first broken link when a stored row is altered, and again when one is removed', async () => {
    const db = wb.workbench.storage.db;
    const target = (await asAdmin({ path: '/api/monitor/audit/?action=role.assign&limit=1&offset=500' })).json.data.entries[0];
    await db.updateTable('audit_entries').set({ actor: 'someone-else' }).where('id', '=', target.id).execute();
    const altered = await asAdmin({ path: '/api/monitor/audit/verify' });
    expect(altered.json.data.intact).toBe(false);
    expect(altered.json.data.firstBroken.id).toBe(target.id);
    expect(altered.json.data.firstBroken.reason).toMatch(/changed after it was written/);

    await db.updateTable('audit_entries').set({ actor: target.actor }).where('id', '=', target.id).execute();
    expect((await asAdmin({ path: '/api/monitor/audit/verify' })).json.data.intact).toBe(true);
    await db.deleteFrom('audit_entries').where('id', '=', target.id).execute();
    const removed = await asAdmin({ path: '/api/monitor/audit/verify' });
    expect(removed.json.data.firstBroken.id).toBe(target.id + 1);
    expect(removed.json.data.firstBroken.reason).toMatch(/missing/);
  });
});

describe('retention and the CLI', () => {
  it('prunes entries past retention, keeps the chain verifiable from the anchor, and the CLI verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-audit-cli-'));
    const configPath = join(dir, 'workbench.json');
    const dataDir = join(dir, 'data');
    writeFileSync(configPath, JSON.stringify({ dataDir, logging: { level: 'silent' }, plugins: { audit: { retentionDays: 30 } } }));
    const run = async (args: string[]) => {
      const out: string[] = [];
      const code = await runCli([...args, '--config', configPath], { out: (t) => out.push(t), err: (t) => out.push(t) });
      return { code, out: out.join('\n') };
    };
    try {
      // Key changes through the CLI are audited with the operating-system user as actor.
      expect((await run(['keys', 'create', '--role', 'MonitorAdmin'])).code).toBe(0);
      const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
      const old = await startTestWorkbench({ clock, config: { dataDir, plugins: { audit: { retentionDays: 30 } } } });
      const audit = resolveService(old.workbench.container, AUDIT_TRAIL);
      for (let i = 0; i < 5; i++) await audit.record({ actor: 'a', actorKind: 'user', action: 'old.write', resourceType: 'x', outcome: 'success' });
      clock.set(new Date('2026-03-01T00:00:00Z'));
      await audit.record({ actor: 'a', actorKind: 'user', action: 'recent.write', resourceType: 'x', outcome: 'success' });
      await old.stop();

      // A restart later prunes at start: the chain is cut after the last entry past retention (id 6), the anchor stays.
      clock.set(new Date('2026-03-02T00:00:00Z'));
      const restarted = await startTestWorkbench({ clock, config: { dataDir, plugins: { audit: { retentionDays: 30 } } } });
      const adminKey = await createRoleKeys(restarted);
      const verify = await restarted.call('monitor', withBearer({ path: '/api/monitor/audit/verify' }, adminKey.admin));
      expect(verify.json.data).toMatchObject({ intact: true, firstBroken: null, anchor: { lastPrunedId: 6, prunedTotal: 6 } });
      const left = await restarted.call('monitor', withBearer({ path: '/api/monitor/audit/?limit=1000' }, adminKey.admin));
      const actions = left.json.data.entries.map((e: { action: string }) => e.action);
      expect(actions).toContain('audit.prune');
      expect(actions).toContain('recent.write');
      expect(actions).not.toContain('old.write');
      await restarted.stop();

      const intact = await run(['audit', 'verify']);
      expect(intact.code).toBe(0);
      expect(intact.out).toMatch(/intact: \d+ entries checked \(after the anchor at entry 6\)/);
      const sqlite = new Database(join(dataDir, 'workbench.sqlite'));
      sqlite.prepare("update audit_entries set outcome = 'failure' where action = 'recent.write'").run();
      sqlite.close();
      const broken = await run(['audit', 'verify', '--json']);
      expect(broken.code).toBe(1);
      expect(JSON.parse(broken.out).firstBroken.id).toBe(7);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records API key creation and revocation by the CLI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-audit-keys-'));
    const configPath = join(dir, 'workbench.json');
    writeFileSync(configPath, JSON.stringify({ dataDir: join(dir, 'data'), logging: { level: 'silent' } }));
    const run = async (args: string[]) => {
      const out: string[] = [];
      const code = await runCli([...args, '--config', configPath], { out: (t) => out.push(t), err: (t) => out.push(t) });
      return { code, out: out.join('\n') };
    };
    try {
      const created = await run(['keys', 'create', '--role', 'MonitorOperator', '--json']);
      const prefix = JSON.parse(created.out).prefix as string;
      expect((await run(['keys', 'revoke', prefix])).code).toBe(0);
      expect((await run(['keys', 'create', '--role', 'Wizard'])).code).toBe(2);
      const verify = JSON.parse((await run(['audit', 'verify', '--json'])).out);
      expect(verify).toMatchObject({ intact: true, checked: 2 });
      const sqlite = new Database(join(dir, 'data', 'workbench.sqlite'), { readonly: true });
      const rows = sqlite.prepare('select action, resource_id, actor, details from audit_entries order by id').all() as Array<Record<string, string>>;
      sqlite.close();
      expect(rows.map((r) => [r.action, r.resource_id])).toEqual([
        ['key.create', prefix],
        ['key.revoke', prefix],
      ]);
      expect(rows[0].actor).toMatch(/^os:/);
      expect(JSON.parse(rows[0].details)).toEqual({ role: 'MonitorOperator' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
