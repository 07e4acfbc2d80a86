// Which folders an interface may watch and what a recursive one counts: the root and the system folders (/proc,
// /sys, /dev), also reached through a link, are refused with 400 naming the reason; a recursive interface with the
// default pattern counts files at any depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

let h: MonitorHarness;

beforeAll(async () => {
  h = await startMonitorHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('folders an interface may watch', () => {
  it('refuses the root and the system folders with 400 naming the reason, also through a link', async () => {
    const linked = join(h.folder('links'), 'to-proc');
    symlinkSync('/proc', linked);
    for (const directoryPath of ['/', '/proc', '/proc/self', '/sys', '/dev', linked]) {
      const answer = await h.post('/api/monitor/interfaces', { name: `sys-${directoryPath}`, directoryPath });
      expect(answer.status, directoryPath).toBe(400);
      expect(answer.json.error.code).toBe('DIRECTORY_UNREADABLE');
      expect(answer.json.error.message).toMatch(/root folder|system folder/);
    }
    const created = await h.post('/api/monitor/interfaces', { name: 'fine', directoryPath: h.folder('fine') });
    expect(created.status).toBe(201);
    const moved = await h.put(`/api/monitor/interfaces/${created.json.data.id}`, { directoryPath: '/dev' });
    expect(moved.status).toBe(400);
    expect(moved.json.error.message).toMatch(/system folder/);
  });

  it('counts files in subfolders of a recursive interface with the default pattern', async () => {
    const root = h.folder('recursive');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'top.hl7'), adtMessage('R1'));
    writeFileSync(join(root, 'a', 'one.hl7'), adtMessage('R2'));
    writeFileSync(join(root, 'a', 'b', 'two.hl7'), adtMessage('R3'));
    writeFileSync(join(root, 'a', 'b', 'skip.txt'), adtMessage('R4'));
    const created = await h.post('/api/monitor/interfaces', { name: 'deep', directoryPath: root, recursive: true });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    const total = async () => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`)).json.data.messagesTotal;
    await waitFor(async () => (await total()) === 3, 30_000, 'three messages from three depths');
    // one arriving later, deeper still
    mkdirSync(join(root, 'a', 'b', 'c'));
    writeFileSync(join(root, 'a', 'b', 'c', 'late.hl7'), adtMessage('R5'));
    await waitFor(async () => (await total()) === 4, 30_000, 'the late deep file');
  });
});
