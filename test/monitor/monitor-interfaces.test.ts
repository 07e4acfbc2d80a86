// Interfaces through real HTTP: create with every check (folder, glob, profile, duplicate name), read, update,
// delete, tiers and bad input naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMonitorHarness, type MonitorHarness } from './monitor-harness.ts';

describe('monitored interfaces', () => {
  let h: MonitorHarness;
  beforeAll(async () => {
    h = await startMonitorHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('creates an interface enabled with the spec defaults, then reads, lists, updates and deletes it', async () => {
    const dir = h.folder();
    const created = await h.post('/api/monitor/interfaces', { name: 'ADT feed', directoryPath: dir });
    expect(created.status).toBe(201);
    expect(created.json.success).toBe(true);
    const monitored = created.json.data;
    expect(monitored).toMatchObject({
      name: 'ADT feed',
      directoryPath: dir,
      filePattern: '*.hl7',
      profileName: null,
      validationMode: 'compatibility',
      enabled: true,
      recursive: false,
      usePolling: false,
    });
    expect((await h.get(`/api/monitor/interfaces/${monitored.id}`)).json.data).toEqual(monitored);
    const list = await h.get('/api/monitor/interfaces');
    expect(list.json.data.map((i: { id: string }) => i.id)).toContain(monitored.id);

    const updated = await h.put(`/api/monitor/interfaces/${monitored.id}`, { enabled: false, filePattern: '**/*.txt' });
    expect(updated.status).toBe(200);
    expect(updated.json.data).toMatchObject({ enabled: false, filePattern: '**/*.txt', name: 'ADT feed' });

    const removed = await h.del(`/api/monitor/interfaces/${monitored.id}`);
    expect(removed.status).toBe(200);
    expect(removed.json.data).toEqual({ id: monitored.id, removed: true });
    expect((await h.get(`/api/monitor/interfaces/${monitored.id}`)).status).toBe(404);
    expect((await h.del(`/api/monitor/interfaces/${monitored.id}`)).status).toBe(404);
    expect((await h.put(`/api/monitor/interfaces/${monitored.id}`, { enabled: true })).status).toBe(404);
  });

  it('refuses a folder that is missing or a file, naming directoryPath', async () => {
    const dir = h.folder();
    const file = join(dir, 'not-a-folder.hl7');
    writeFileSync(file, 'x');
    for (const directoryPath of [join(dir, 'missing'), file]) {
      const response = await h.post('/api/monitor/interfaces', { name: `bad ${directoryPath}`, directoryPath });
      expect(response.status).toBe(400);
      expect(response.json.error.code).toBe('DIRECTORY_UNREADABLE');
      expect(response.json.error.details[0].path).toBe('directoryPath');
    }
  });

  // root reads any folder whatever its mode
  it.skipIf(process.getuid?.() === 0)('refuses an unreadable folder', async () => {
    const locked = h.folder('locked');
    chmodSync(locked, 0o000);
    const response = await h.post('/api/monitor/interfaces', { name: 'locked', directoryPath: locked });
    chmodSync(locked, 0o755);
    expect(response.status).toBe(400);
    expect(response.json.error.message).toContain('not readable');
  });

  it('refuses a pattern that is not a glob, naming filePattern', async () => {
    for (const filePattern of ['*.[hl7', 'a(b', '../*.hl7', '/abs/*.hl7', '']) {
      const response = await h.post('/api/monitor/interfaces', { name: `p ${filePattern}`, directoryPath: h.folder(), filePattern });
      expect(response.status, filePattern).toBe(400);
      expect(JSON.stringify(response.json.error)).toContain('filePattern');
    }
  });

  it('refuses a profile no pack loaded, listing the loaded ones', async () => {
    const response = await h.post('/api/monitor/interfaces', { name: 'profiled', directoryPath: h.folder(), profileName: 'nope' });
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe('PROFILE_NOT_FOUND');
    expect(response.json.error.message).toContain('acme-adt');
    const ok = await h.post('/api/monitor/interfaces', { name: 'profiled', directoryPath: h.folder(), profileName: 'acme-adt' });
    expect(ok.status).toBe(201);
    expect(ok.json.data.profileName).toBe('acme-adt');
  });

  it('answers 409 for a duplicate name, on create and on rename', async () => {
    const first = await h.post('/api/monitor/interfaces', { name: 'dup', directoryPath: h.folder() });
    expect(first.status).toBe(201);
    const second = await h.post('/api/monitor/interfaces', { name: 'dup', directoryPath: h.folder() });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe('INTERFACE_NAME_TAKEN');
    const other = await h.post('/api/monitor/interfaces', { name: 'other', directoryPath: h.folder() });
    expect((await h.put(`/api/monitor/interfaces/${other.json.data.id}`, { name: 'dup' })).status).toBe(409);
  });

  it('names the field of every malformed body', async () => {
    const response = await h.post('/api/monitor/interfaces', { name: '', directoryPath: 5, enabled: 'yes', extra: 1 });
    expect(response.status).toBe(400);
    const paths = response.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'directoryPath']));
    const put = await h.put('/api/monitor/interfaces/whatever', { enabled: 'no' });
    expect(put.status).toBe(400);
    expect(put.json.error.details[0].path).toBe('enabled');
  });
});

describe('monitor tiers', () => {
  it('answers 402 TIER_REQUIRED on the free tier', async () => {
    const h = await startMonitorHarness({ config: { tier: 'free' } });
    try {
      for (const path of ['/api/monitor/interfaces', '/api/monitor/alerts']) {
        const response = await h.get(path);
        expect(response.status, path).toBe(402);
        expect(response.json.error.code).toBe('TIER_REQUIRED');
      }
    } finally {
      await h.stop();
    }
  });
});
