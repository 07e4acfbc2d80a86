// Admin roles, workspaces and feature-flag writes through real HTTP: 401/403/200 on every route, validation,
// conflicts, the last-admin guard, and an audit entry for every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, expectAdminOnly, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import type { TestRequest } from '../helpers/http-client.ts';

const SECRET = 'admin-test-secret-of-at-least-32-characters';
let wb: TestWorkbench;
let keys: RoleKeys;
let folder: string;
let interfaceId: string;

const asAdmin = (request: TestRequest) => wb.call('monitor', withBearer(request, keys.admin));
const token = (sub: string, claims: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));

async function auditActions(filter = ''): Promise<string[]> {
  const answer = await asAdmin({ path: `/api/monitor/audit/?limit=1000${filter}` });
  expect(answer.status).toBe(200);
  return answer.json.data.entries.map((e: { action: string }) => e.action);
}

beforeAll(async () => {
  wb = await startTestWorkbench({ config: { auth: { jwt: { hs256Secret: SECRET } } } });
  keys = await createRoleKeys(wb);
  folder = mkdtempSync(join(tmpdir(), 'admin-watched-'));
  const created = await wb.call('monitor', { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'ADT feed', directoryPath: folder } });
  expect(created.status).toBe(201);
  interfaceId = created.json.data.id;
});
afterAll(async () => {
  await wb.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('roles', () => {
  it('lists, assigns, replaces and revokes, admin only', async () => {
    const assigned = await expectAdminOnly(wb, keys, {
      method: 'POST',
      path: '/api/monitor/admin/roles',
      body: { userId: 'olivia', role: 'MonitorOperator' },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.json.data).toMatchObject({ userId: 'olivia', role: 'MonitorOperator', previousRole: null });
    const replaced = await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'olivia', role: 'MonitorViewer' } });
    expect(replaced.json.data).toMatchObject({ role: 'MonitorViewer', previousRole: 'MonitorOperator' });

    const listed = await expectAdminOnly(wb, keys, { path: '/api/monitor/admin/roles' });
    expect(listed.status).toBe(200);
    expect(listed.json.data.assignments).toContainEqual(expect.objectContaining({ userId: 'olivia', role: 'MonitorViewer' }));
    expect(listed.json.data.validRoles).toEqual(['MonitorAdmin', 'MonitorOperator', 'MonitorViewer']);

    const revoked = await expectAdminOnly(wb, keys, { method: 'DELETE', path: '/api/monitor/admin/roles/olivia' });
    expect(revoked.status).toBe(200);
    expect(revoked.json.data).toEqual({ userId: 'olivia', revokedRole: 'MonitorViewer' });
    expect(await auditActions('&resourceType=role')).toEqual(['role.revoke', 'role.assign', 'role.assign']);
  });

  it('400 for an unknown role listing the valid ones, 400 for a missing user id, 404 for an unknown user', async () => {
    const unknown = await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'x', role: 'Root' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('ROLE_UNKNOWN');
    expect(unknown.json.error.message).toContain('MonitorAdmin, MonitorOperator, MonitorViewer');
    const missing = await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { role: 'MonitorViewer' } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details[0].path).toBe('userId');
    const nobody = await asAdmin({ method: 'DELETE', path: '/api/monitor/admin/roles/nobody' });
    expect(nobody.status).toBe(404);
  });

  it('a JWT user gets the role assigned to it, and the last MonitorAdmin can be neither removed nor demoted (409)', async () => {
    const alice = await token('alice');
    expect((await wb.call('monitor', withBearer({ path: '/api/monitor/admin/roles' }, alice))).status).toBe(403);
    await asAdmin({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'alice', role: 'MonitorAdmin' } });
    const asAlice = (request: TestRequest) => wb.call('monitor', withBearer(request, alice));
    expect((await asAlice({ path: '/api/monitor/admin/roles' })).status).toBe(200);

    const removeSelf = await asAlice({ method: 'DELETE', path: '/api/monitor/admin/roles/alice' });
    expect(removeSelf.status).toBe(409);
    expect(removeSelf.json.error.code).toBe('LAST_ADMIN');
    const demote = await asAlice({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'alice', role: 'MonitorViewer' } });
    expect(demote.status).toBe(409);

    // With a second admin the first may go.
    await asAlice({ method: 'POST', path: '/api/monitor/admin/roles', body: { userId: 'bob', role: 'MonitorAdmin' } });
    expect((await asAlice({ method: 'DELETE', path: '/api/monitor/admin/roles/alice' })).status).toBe(200);
    expect((await asAlice({ path: '/api/monitor/admin/roles' })).status).toBe(403);
    const entries = (await asAdmin({ path: '/api/monitor/audit/?action=role.revoke&limit=1' })).json.data.entries;
    expect(entries[0]).toMatchObject({ actor: 'alice', actorKind: 'user', resourceId: 'alice', outcome: 'success' });
  });
});

describe('workspaces', () => {
  it('create, get, list, members, interfaces, delete: admin only, with conflicts and 404s', async () => {
    const created = await expectAdminOnly(wb, keys, {
      method: 'POST',
      path: '/api/monitor/admin/workspaces',
      body: { name: 'North Lab', description: 'Laboratory feeds' },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    expect(id).toBe('north-lab');
    const duplicate = await asAdmin({ method: 'POST', path: '/api/monitor/admin/workspaces', body: { name: 'north LAB' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.error.code).toBe('WORKSPACE_EXISTS');
    expect((await asAdmin({ method: 'POST', path: '/api/monitor/admin/workspaces', body: { name: '  ' } })).status).toBe(400);

    const member = await expectAdminOnly(wb, keys, {
      method: 'POST',
      path: `/api/monitor/admin/workspaces/${id}/members`,
      body: { userId: 'vera', role: 'MonitorViewer' },
    });
    expect(member.status).toBe(201);
    const again = await asAdmin({ method: 'POST', path: `/api/monitor/admin/workspaces/${id}/members`, body: { userId: 'vera', role: 'MonitorViewer' } });
    expect(again.status).toBe(409);
    const badRole = await asAdmin({ method: 'POST', path: `/api/monitor/admin/workspaces/${id}/members`, body: { userId: 'x', role: 'Chief' } });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.code).toBe('ROLE_UNKNOWN');

    const linked = await expectAdminOnly(wb, keys, {
      method: 'POST',
      path: `/api/monitor/admin/workspaces/${id}/interfaces`,
      body: { interfaceId },
    });
    expect(linked.status).toBe(201);
    const ghost = await asAdmin({ method: 'POST', path: `/api/monitor/admin/workspaces/${id}/interfaces`, body: { interfaceId: 'no-such-interface' } });
    expect(ghost.status).toBe(404);
    expect(ghost.json.error.message).toContain('no-such-interface');
    const twice = await asAdmin({ method: 'POST', path: `/api/monitor/admin/workspaces/${id}/interfaces`, body: { interfaceId } });
    expect(twice.status).toBe(409);

    const one = await expectAdminOnly(wb, keys, { path: `/api/monitor/admin/workspaces/${id}` });
    expect(one.json.data).toMatchObject({
      id,
      name: 'North Lab',
      description: 'Laboratory feeds',
      members: [expect.objectContaining({ userId: 'vera', role: 'MonitorViewer' })],
      interfaceIds: [interfaceId],
    });
    const all = await expectAdminOnly(wb, keys, { path: '/api/monitor/admin/workspaces' });
    expect(all.json.data.map((w: { id: string }) => w.id)).toContain(id);
    expect((await asAdmin({ path: '/api/monitor/admin/workspaces/nowhere' })).status).toBe(404);
    expect((await asAdmin({ method: 'POST', path: '/api/monitor/admin/workspaces/nowhere/members', body: { userId: 'a', role: 'MonitorViewer' } })).status).toBe(404);

    const unlinked = await expectAdminOnly(wb, keys, { method: 'DELETE', path: `/api/monitor/admin/workspaces/${id}/interfaces/${interfaceId}` });
    expect(unlinked.status).toBe(200);
    expect((await asAdmin({ method: 'DELETE', path: `/api/monitor/admin/workspaces/${id}/interfaces/${interfaceId}` })).status).toBe(404);
    const removed = await expectAdminOnly(wb, keys, { method: 'DELETE', path: `/api/monitor/admin/workspaces/${id}/members/vera` });
    expect(removed.status).toBe(200);
    expect((await asAdmin({ method: 'DELETE', path: `/api/monitor/admin/workspaces/${id}/members/vera` })).status).toBe(404);

    const deleted = await expectAdminOnly(wb, keys, { method: 'DELETE', path: `/api/monitor/admin/workspaces/${id}` });
    expect(deleted.status).toBe(200);
    expect((await asAdmin({ path: `/api/monitor/admin/workspaces/${id}` })).status).toBe(404);
    expect(await auditActions('&resourceType=workspace')).toEqual([
      'workspace.delete',
      'workspace.member-remove',
      'workspace.interface-remove',
      'workspace.interface-add',
      'workspace.member-add',
      'workspace.create',
    ]);
  });
});

describe('feature flags', () => {
  it('admins set flags globally and per workspace; GET /api/features keeps its contract', async () => {
    const ws = (await asAdmin({ method: 'POST', path: '/api/monitor/admin/workspaces', body: { name: 'Flags Org' } })).json.data.id;
    const global = await expectAdminOnly(wb, keys, { method: 'PUT', path: '/api/monitor/admin/features/newDashboard', body: { enabled: true } });
    expect(global.status).toBe(200);
    expect(global.json.data).toMatchObject({ name: 'newDashboard', workspaceId: null, enabled: true });
    const scoped = await asAdmin({ method: 'PUT', path: '/api/monitor/admin/features/newDashboard', body: { enabled: false, workspaceId: ws } });
    expect(scoped.status).toBe(200);
    const noWorkspace = await asAdmin({ method: 'PUT', path: '/api/monitor/admin/features/newDashboard', body: { enabled: false, workspaceId: 'ghost' } });
    expect(noWorkspace.status).toBe(404);
    expect((await asAdmin({ method: 'PUT', path: '/api/monitor/admin/features/1bad', body: { enabled: true } })).status).toBe(400);

    const anonymous = await wb.call('monitor', { path: '/api/features' });
    expect(anonymous.json.data).toEqual({ scope: 'global', organizationId: null, flags: { newDashboard: true } });
    const member = await token('carol', { org: ws });
    const orgView = await wb.call('monitor', withBearer({ path: '/api/features' }, member));
    expect(orgView.json.data).toEqual({ scope: 'organization', organizationId: ws, flags: { newDashboard: false } });

    const listed = await expectAdminOnly(wb, keys, { path: '/api/monitor/admin/features' });
    expect(listed.json.data.stored).toHaveLength(2);
    const unset = await expectAdminOnly(wb, keys, { method: 'DELETE', path: `/api/monitor/admin/features/newDashboard?workspaceId=${ws}` });
    expect(unset.status).toBe(200);
    expect((await wb.call('monitor', withBearer({ path: '/api/features' }, member))).json.data.flags).toEqual({ newDashboard: true });
    expect((await asAdmin({ method: 'DELETE', path: `/api/monitor/admin/features/newDashboard?workspaceId=${ws}` })).status).toBe(404);
    expect(await auditActions('&resourceType=feature-flag')).toEqual(['flag.unset', 'flag.set', 'flag.set']);
  });
});

describe('roles on operator routes', () => {
  it('anonymous local callers and operators may edit an interface; an identified viewer may not', async () => {
    const path = `/api/monitor/interfaces/${interfaceId}`;
    const viewer = await wb.call('monitor', withBearer({ method: 'PUT', path, body: { enabled: false } }, keys.viewer));
    expect(viewer.status).toBe(403);
    expect(viewer.json.error.code).toBe('FORBIDDEN');
    const badKey = await wb.call('monitor', withBearer({ method: 'PUT', path, body: { enabled: false } }, `wbk_bbbbbbbbbbbb_${'B'.repeat(43)}`));
    expect(badKey.status).toBe(401);
    expect((await wb.call('monitor', withBearer({ method: 'PUT', path, body: { enabled: false } }, keys.operator))).status).toBe(200);
    expect((await wb.call('monitor', { method: 'PUT', path, body: { enabled: true } })).status).toBe(200);
    // A viewer still reads.
    expect((await wb.call('monitor', withBearer({ path }, keys.viewer))).status).toBe(200);
  });
});

describe('tier', () => {
  it('below enterprise the admin routes answer 402, never 403', async () => {
    const pro = await startTestWorkbench({ config: { tier: 'professional' } });
    try {
      const answer = await pro.call('monitor', { path: '/api/monitor/admin/roles' });
      expect(answer.status).toBe(402);
      expect(answer.json.error.code).toBe('TIER_REQUIRED');
    } finally {
      await pro.stop();
    }
  });
});
