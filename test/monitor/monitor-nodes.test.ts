// The nodes of the store through the HTTP interface, on either store: the answering node is listed live with the
// interfaces it watches; interfaces answer their placement and owner; a dead node is removed by an administrator, a
// live one is refused (409 NODE_ALIVE); both routes are in the OpenAPI document with their schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMonitorHarness, storages, type MonitorHarness } from './monitor-harness.ts';
import { createRoleKeys, expectAdminOnly, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';

describe.each(storages())('nodes on %s', (storage) => {
  let h: MonitorHarness;
  let keys: RoleKeys;

  beforeAll(async () => {
    h = await startMonitorHarness({ storage, config: { node: { name: `solo-${storage}` } } });
    keys = await createRoleKeys(h.wb);
  });
  afterAll(async () => h.stop());

  it('lists this node live with the interfaces it watches; an interface answers its placement and owner', async () => {
    const pinned = await h.post('/api/monitor/interfaces', { name: 'pinned here', directoryPath: h.folder() });
    expect(pinned.status).toBe(201);
    expect(pinned.json.data).toMatchObject({ placement: 'pinned', pinnedNode: `solo-${storage}`, owner: { node: `solo-${storage}` }, ownerProblem: null });
    const shared = await h.post('/api/monitor/interfaces', { name: 'shared', directoryPath: h.folder(), placement: 'any' });
    expect(shared.json.data).toMatchObject({ placement: 'any', pinnedNode: null, owner: { node: `solo-${storage}` } });
    const changed = await h.put(`/api/monitor/interfaces/${shared.json.data.id}`, { placement: 'pinned' });
    expect(changed.json.data).toMatchObject({ placement: 'pinned', pinnedNode: `solo-${storage}` });
    const bad = await h.post('/api/monitor/interfaces', { name: 'bad', directoryPath: h.folder(), placement: 'everywhere' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.error)).toContain('placement');

    const nodes = await h.get('/api/monitor/nodes');
    expect(nodes.status).toBe(200);
    const self = nodes.json.data.find((node: { self: boolean }) => node.self);
    expect(self).toMatchObject({ name: `solo-${storage}`, live: true, pid: process.pid });
    expect([...self.interfaces].sort()).toEqual([pinned.json.data.id, shared.json.data.id].sort());
  });

  it('removes a dead node for an administrator and refuses a live one', async () => {
    const store = resolveService(h.wb.workbench.container, TOKENS.Storage);
    // a node that stopped beating an hour ago
    const hourAgo = Date.now() - 3_600_000;
    await store.db
      .insertInto('kernel_nodes')
      .values({ name: 'gone-node', instance: 'x', version: '0.0.1', host: 'elsewhere', pid: 1, started_at_ms: hourAgo, heartbeat_ms: hourAgo })
      .execute();
    const listed = await h.get('/api/monitor/nodes');
    expect(listed.json.data.find((node: { name: string }) => node.name === 'gone-node')).toMatchObject({ live: false, interfaces: [] });
    const removed = await expectAdminOnly(h.wb, keys, { method: 'DELETE', path: '/api/monitor/nodes/gone-node' });
    expect(removed.status).toBe(200);
    expect(removed.json.data).toEqual({ name: 'gone-node', removed: true });
    const live = await h.wb.call('monitor', withBearer({ method: 'DELETE', path: `/api/monitor/nodes/solo-${storage}` }, keys.admin));
    expect(live.status).toBe(409);
    expect(live.json.error.code).toBe('NODE_ALIVE');
    const unknown = await h.wb.call('monitor', withBearer({ method: 'DELETE', path: '/api/monitor/nodes/gone-node' }, keys.admin));
    expect(unknown.status).toBe(404);
  });

  it('documents the routes and the interface owner in the OpenAPI document', async () => {
    const doc = (await h.get('/openapi.json')).json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/monitor/nodes', '/api/monitor/nodes/{name}']));
    const text = JSON.stringify(doc);
    expect(text).toContain('lastHeartbeatAt');
    expect(text).toContain('pinnedNode');
  });
});
