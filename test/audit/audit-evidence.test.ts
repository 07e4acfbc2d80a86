// Audit evidence that holds against someone who can write the database but not the data folder: links keyed with a
// key outside the database (0600), a checkpoint file beside the data that exports carry, so deleting the newest
// entries, rewriting an entry and recomputing the chain forward, and deleting the oldest behind a forged anchor are
// all reported; verify names every broken link; a lone UTF-16 surrogate is refused before it reaches the trail; a
// valid credential refused for its role is on record as its holder's; a flood of refusals from one source is
// collapsed into one entry and a count.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';
import { AUDIT_TRAIL } from '../../plugins/audit/api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { GENESIS_HASH, entryHash, type ChainedFields } from '../../plugins/audit/audit-chain.ts';
import { waitFor } from '../monitor/monitor-harness.ts';
import { createWorkbench } from '../../kernel/workbench.ts';
import { mergeConfig } from '../../kernel/config-loader.ts';
import { send } from '../helpers/http-client.ts';

let wb: TestWorkbench;
let keys: RoleKeys;
const asAdmin = (request: TestRequest) => wb.call('monitor', withBearer(request, keys.admin));
const verify = async () => (await asAdmin({ path: '/api/monitor/audit/verify' })).json.data;

type Row = ChainedFields & { prev_hash: string; hash: string };

async function rows(): Promise<Row[]> {
  const all = await wb.workbench.storage.db.selectFrom('audit_entries').selectAll().orderBy('id').execute();
  return all.map((row) => ({ ...(row as Row), id: Number(row.id) }));
}

async function writeEntries(count: number): Promise<void> {
  const audit = resolveService(wb.workbench.container, AUDIT_TRAIL);
  for (let i = 0; i < count; i++) {
    await audit.record({ actor: `user-${i}`, actorKind: 'user', action: 'role.assign', resourceType: 'role', resourceId: String(i), outcome: 'success' });
  }
}

beforeEach(async () => {
  wb = await startTestWorkbench({ config: { plugins: { audit: { refusalWindowSeconds: 2 } } } });
  keys = await createRoleKeys(wb);
});
afterEach(async () => {
  await wb.stop();
});

describe('audit evidence outside the database', () => {
  it('keeps the key and the checkpoint in the data folder, the owner’s alone, and exports carry the checkpoint', async () => {
    await writeEntries(3);
    for (const file of ['audit-chain.key', 'audit-checkpoint.json']) {
      expect(statSync(join(wb.dataDir, file)).mode & 0o777, file).toBe(0o600);
    }
    const last = (await rows()).at(-1) as Row;
    // A new head reaches the file within a moment (a burst of appends is one write).
    const checkpoint = await waitFor(() => {
      const onDisk = JSON.parse(readFileSync(join(wb.dataDir, 'audit-checkpoint.json'), 'utf8'));
      return onDisk.headId === last.id ? onDisk : undefined;
    }, 5_000, 'the checkpoint of the newest entry');
    expect(checkpoint).toMatchObject({ headId: last.id, headHash: last.hash, anchorId: null, keyedFromId: 1 });
    const exported = await asAdmin({ path: '/api/monitor/audit/export?format=json' });
    expect(JSON.parse(exported.text).checkpoint).toMatchObject({ headId: last.id, headHash: last.hash });
    const csv = await asAdmin({ path: '/api/monitor/audit/export?format=csv' });
    expect(JSON.parse(String(csv.headers['x-audit-checkpoint']))).toMatchObject({ headId: last.id });
    expect(await verify()).toMatchObject({ intact: true, brokenLinks: [], brokenTotal: 0, checkpoint: { headId: last.id } });
  });

  it('reports the newest entries deleted (the head cut off)', async () => {
    await writeEntries(10);
    const head = (await rows()).at(-1) as Row;
    await wb.workbench.storage.db.deleteFrom('audit_entries').where('id', '>', head.id - 3).execute();
    const result = await verify();
    expect(result.intact).toBe(false);
    expect(result.brokenLinks).toEqual([{ id: head.id, reason: expect.stringMatching(/newest the checkpoint .* recorded, is missing/) }]);
  });

  it('refuses an append onto a tail behind the checkpoint, says so in health, and keeps it visible across a restart', async () => {
    await writeEntries(10);
    const head = (await rows()).at(-1) as Row;
    expect(await verify()).toMatchObject({ intact: true });
    await wb.workbench.storage.db.deleteFrom('audit_entries').where('id', '>', head.id - 3).execute();
    const assign = { method: 'POST' as const, path: '/api/monitor/admin/roles', body: { userId: 'after-the-cut', role: 'MonitorViewer' } };
    const refused = await asAdmin(assign);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.json.error.code).toBe('AUDIT_TRAIL_TAMPERED');
    expect(refused.json.error.message).toMatch(new RegExp(`Entry ${head.id}, the newest .* is missing`));
    // nothing was chained onto the cut tail, and health says why the service is degraded
    expect((await rows()).at(-1)?.id).toBe(head.id - 3);
    const health = (await wb.call('monitor', { path: '/api/health' })).json;
    expect(health.status).toBe('degraded');
    expect(health.conditions).toEqual([expect.objectContaining({ key: 'audit-tampered', reason: expect.stringMatching(/newest entries were removed/) })]);

    // A restart on the same data folder: the start itself notices, an audited action is still refused, verify reports it.
    await wb.workbench.stop();
    const restarted = await createWorkbench({
      env: {},
      overrides: mergeConfig(
        { dataDir: wb.dataDir, logging: { level: 'silent' }, work: { warmOnStart: false }, servers: { bridge: { port: 0 }, monitor: { port: 0 }, population: { port: 0 } } },
        { plugins: { audit: { refusalWindowSeconds: 2 } } },
      ),
    });
    try {
      const urls = await restarted.start();
      const call = (request: Parameters<typeof send>[1]) => send(urls.monitor, withBearer(request, keys.admin));
      const healthAfter = await waitFor(async () => {
        const report = (await send(urls.monitor, { path: '/api/health' })).json;
        return report.status === 'degraded' ? report : undefined;
      }, 10_000, 'health degraded after the restart');
      expect(healthAfter.conditions[0].key).toBe('audit-tampered');
      const again = await call(assign);
      expect(again.status, again.text).toBe(503);
      expect(again.json.error.code).toBe('AUDIT_TRAIL_TAMPERED');
      const result = (await call({ path: '/api/monitor/audit/verify' })).json.data;
      expect(result.intact).toBe(false);
      expect(result.brokenLinks).toEqual([{ id: head.id, reason: expect.stringMatching(/is missing/) }]);
    } finally {
      await restarted.stop();
    }
  });

  it('reports an entry rewritten with the plain SHA-256 chain recomputed forward', async () => {
    await writeEntries(10);
    const chain = await rows();
    const target = chain[4];
    // What an attacker with the database alone can do: change the entry, then relink everything after it.
    let previous = chain[3].hash;
    for (const row of chain.slice(4)) {
      const changed = row.id === target.id ? { ...row, actor: 'someone-else' } : row;
      const hash = entryHash(previous, changed);
      await wb.workbench.storage.db.updateTable('audit_entries').set({ actor: changed.actor, prev_hash: previous, hash }).where('id', '=', row.id).execute();
      previous = hash;
    }
    const result = await verify();
    expect(result.intact).toBe(false);
    expect(result.firstBroken.id).toBe(target.id);
    // every relinked entry fails under the key, and the head no longer is the one on record
    expect(result.brokenLinks.map((l: { id: number }) => l.id)).toEqual([...chain.slice(4).map((r) => r.id), chain.at(-1)?.id]);
    expect(result.brokenLinks.at(-1).reason).toMatch(/chain was rewritten/);
  });

  it('reports the oldest entries deleted behind a forged anchor row', async () => {
    await writeEntries(10);
    const chain = await rows();
    const db = wb.workbench.storage.db;
    await db.deleteFrom('audit_entries').where('id', '<=', chain[3].id).execute();
    await db.insertInto('audit_anchor').values({ id: 1, last_pruned_id: chain[3].id, last_pruned_hash: chain[3].hash, pruned_at: new Date().toISOString(), pruned_total: 4 }).execute();
    const result = await verify();
    expect(result.intact).toBe(false);
    expect(result.brokenLinks[0].reason).toMatch(/pruning anchor in the database \(entry 4\) is not the one the checkpoint recorded \(none\)/);
    expect(result.brokenLinks[1]).toEqual({ id: chain[4].id, reason: expect.stringMatching(/entries 1\.\.4 are missing/) });
  });

  it('names every broken link, not just the first', async () => {
    await writeEntries(12);
    const chain = await rows();
    const db = wb.workbench.storage.db;
    for (const index of [2, 6, 9]) await db.updateTable('audit_entries').set({ outcome: 'failure' }).where('id', '=', chain[index].id).execute();
    const result = await verify();
    expect(result.brokenLinks.map((l: { id: number }) => l.id)).toEqual([chain[2].id, chain[6].id, chain[9].id]);
    expect(result.brokenTotal).toBe(3);
  });

  it('refuses a body holding a lone UTF-16 surrogate with 400, so the chain stays verifiable', async () => {
    for (const rawBody of ['{"userId":"\\ud800x","role":"MonitorViewer"}', '{"userId":"ok","role":"MonitorViewer","\\udc00":1}']) {
      const answer = await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', rawBody, headers: { 'content-type': 'application/json' } });
      expect(answer.status, rawBody).toBe(400);
      expect(answer.json.error.code).toBe('VALIDATION_FAILED');
      expect(answer.json.error.message).toMatch(/lone UTF-16 surrogate/);
    }
    // a well-formed pair is text like any other
    const paired = await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', rawBody: '{"userId":"\\ud83d\\ude00","role":"MonitorViewer"}', headers: { 'content-type': 'application/json' } });
    expect(paired.status, paired.text).toBe(200);
    const result = await verify();
    expect(result).toMatchObject({ intact: true, brokenTotal: 0 });
  });
});

describe('refused credentials on record', () => {
  it('records a valid key refused for its role under its holder, not anonymous', async () => {
    const refused = await wb.call('monitor', withBearer({ path: '/api/monitor/audit/verify', localAddress: '127.0.0.31' }, keys.viewer));
    expect(refused.status).toBe(403);
    const viewerPrefix = keys.viewer.split('_').slice(0, 2).join('_');
    const entry = await waitFor(async () => {
      const entries = (await asAdmin({ path: '/api/monitor/audit/?action=credential.refuse&limit=100' })).json.data.entries;
      return entries.find((e: { sourceAddress: string }) => e.sourceAddress === '127.0.0.31');
    }, 10_000, 'the refusal on record');
    expect(entry).toMatchObject({ actor: viewerPrefix, actorKind: 'api-key', outcome: 'denied', details: { status: 403 } });
  });

  it('collapses a flood of bogus keys from one source into one entry and a count per window', async () => {
    const flood = 300;
    const send = (i: number, localAddress: string) =>
      wb.call('monitor', withBearer({ path: '/api/monitor/audit/verify', localAddress }, `wbk_${String(i).padStart(12, 'x')}_${'Q'.repeat(43)}`));
    for (let start = 0; start < flood; start += 30) {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, k) => send(start + k, '127.0.0.41')));
      for (const answer of answers) expect(answer.status).toBe(401);
    }
    expect((await send(0, '127.0.0.42')).status).toBe(401);
    const fromFlood = async () =>
      ((await asAdmin({ path: '/api/monitor/audit/?limit=1000' })).json.data.entries as Array<{ action: string; sourceAddress: string; details: { repeated?: number } }>).filter(
        (e) => e.sourceAddress === '127.0.0.41',
      );
    // Once each window is over, its count is on record: every refusal is accounted for, in a handful of entries.
    const settled = await waitFor(async () => {
      const entries = await fromFlood();
      const single = entries.filter((e) => e.action === 'credential.refuse').length;
      const repeated = entries.filter((e) => e.action === 'credential.refuse-repeated').reduce((n, e) => n + (e.details.repeated ?? 0), 0);
      return single + repeated === flood ? entries : undefined;
    }, 20_000, 'every refusal counted');
    expect(settled.length).toBeLessThan(20);
    // the other source has its own first entry
    const other = (await asAdmin({ path: '/api/monitor/audit/?action=credential.refuse&limit=1000' })).json.data.entries;
    expect(other.some((e: { sourceAddress: string }) => e.sourceAddress === '127.0.0.42')).toBe(true);
    expect((await verify()).intact).toBe(true);
  });
});

describe('entries from before the key', () => {
  it('keeps plain links valid before the first keyed entry', () => {
    const fields: ChainedFields = { id: 1, at: '2026-01-01T00:00:00.000Z', actor: 'a', actor_kind: 'user', action: 'x.y', resource_type: 'x', resource_id: null, outcome: 'success', request_id: null, source_address: null, details: null };
    const plain = entryHash(GENESIS_HASH, fields);
    expect(plain).toBe(createHash('sha256').update(GENESIS_HASH).update('\n').update(JSON.stringify([1, fields.at, 'a', 'user', 'x.y', 'x', null, 'success', null, null, null])).digest('hex'));
    expect(entryHash(GENESIS_HASH, fields, Buffer.alloc(32, 1))).not.toBe(plain);
  });
});
