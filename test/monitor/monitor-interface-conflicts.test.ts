// Interfaces a person can tell apart and that never count one file twice: names unique ignoring case, and a 409
// naming the other interface when a folder and pattern overlap one already watched (same folder, or a folder inside a
// recursive one), on create and on change.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMonitorHarness, type MonitorHarness } from './monitor-harness.ts';

describe('interface conflicts', () => {
  let h: MonitorHarness;
  beforeAll(async () => {
    h = await startMonitorHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const create = (body: Record<string, unknown>) => h.post('/api/monitor/interfaces', body);

  it('refuses a name that differs from another only in case, on create and on rename', async () => {
    expect((await create({ name: 'Lab Results', directoryPath: h.folder() })).status).toBe(201);
    const clash = await create({ name: 'lab results', directoryPath: h.folder() });
    expect(clash.status).toBe(409);
    expect(clash.json.error.code).toBe('INTERFACE_NAME_TAKEN');
    expect(clash.json.error.details[0].path).toBe('name');
    const other = (await create({ name: 'Radiology', directoryPath: h.folder() })).json.data;
    const rename = await h.put(`/api/monitor/interfaces/${other.id}`, { name: 'LAB RESULTS' });
    expect(rename.status).toBe(409);
    // renaming an interface to its own name in another case is its own name
    expect((await h.put(`/api/monitor/interfaces/${other.id}`, { name: 'RADIOLOGY' })).status).toBe(200);
  });

  it('refuses a second interface on the same folder with an overlapping pattern, naming the first', async () => {
    const dir = h.folder();
    const first = (await create({ name: 'ADT in', directoryPath: dir, filePattern: '*.hl7' })).json.data;
    for (const filePattern of ['*.hl7', '*.{hl7,txt}', '**/*', 'adt-*.hl7']) {
      const clash = await create({ name: `clash ${filePattern}`, directoryPath: dir, filePattern });
      expect(clash.status, filePattern).toBe(409);
      expect(clash.json.error.code).toBe('INTERFACE_FOLDER_TAKEN');
      expect(clash.json.error.message).toContain(`Interface "ADT in" (${first.id}) already watches ${dir}`);
    }
    // the same folder with patterns that share no file is fine
    expect((await create({ name: 'ORU in', directoryPath: dir, filePattern: '*.oru' })).status).toBe(201);
  });

  it('refuses a folder inside a recursive interface that matches the same files, and allows it beside a non-recursive one', async () => {
    const parent = h.folder();
    const child = join(parent, 'inbound');
    mkdirSync(child);
    const recursive = (await create({ name: 'Everything', directoryPath: parent, filePattern: '*.hl7', recursive: true })).json.data;
    const nested = await create({ name: 'Nested', directoryPath: child });
    expect(nested.status).toBe(409);
    expect(nested.json.error.message).toContain('"Everything"');
    expect((await h.put(`/api/monitor/interfaces/${recursive.id}`, { recursive: false })).status).toBe(200);
    expect((await create({ name: 'Nested', directoryPath: child })).status).toBe(201);
    // turning the parent recursive again would make it count the nested folder's files
    const again = await h.put(`/api/monitor/interfaces/${recursive.id}`, { recursive: true });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toContain('"Nested"');
  });

  it('refuses a change of pattern that overlaps another interface of the folder', async () => {
    const dir = h.folder();
    await create({ name: 'Orders', directoryPath: dir, filePattern: '*.orm' });
    const results = (await create({ name: 'Results', directoryPath: dir, filePattern: '*.oru' })).json.data;
    const changed = await h.put(`/api/monitor/interfaces/${results.id}`, { filePattern: '*.{oru,orm}' });
    expect(changed.status).toBe(409);
    expect(changed.json.error.message).toContain('"Orders"');
    expect((await h.get(`/api/monitor/interfaces/${results.id}`)).json.data.filePattern).toBe('*.oru');
  });
});
