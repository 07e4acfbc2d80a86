// A file is one delivery whatever happens to its name: through real HTTP on each store, a counted file renamed to
// another matching name (live, or while the interface is not watched) is not counted again and keeps its ledger row
// (an append to it counts only the new message); a copy beside the original is a new delivery; a file whose name is
// not valid UTF-8 raises an alert naming it (never silence), cleared once it is renamed and counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MonitorService } from '../../plugins/monitor/api.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

describe.each(storages())('file identity on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function createInterface(name: string, directoryPath: string): Promise<string> {
    const response = await h.post('/api/monitor/interfaces', { name, directoryPath });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    return response.json.data.id;
  }

  const total = async (id: string): Promise<number> => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`)).json.data.messagesTotal;

  it('keeps a renamed file one delivery, live and while not watched, and counts a copy as a new one', async () => {
    const dir = h.folder();
    const id = await createInterface(`renames ${storage}`, dir);
    writeFileSync(join(dir, 'r1.hl7'), `${adtMessage('REN1')}\r`);
    await waitFor(async () => (await total(id)) === 1, 30_000, 'r1 counted');

    // renamed while watched
    renameSync(join(dir, 'r1.hl7'), join(dir, 'r2.hl7'));
    await quiesceMonitor(h.wb.workbench);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 1, files: 1 });

    // the ledger row moved with it: an append to the new name counts only the new message
    appendFileSync(join(dir, 'r2.hl7'), `${adtMessage('REN2')}\r`);
    await waitFor(async () => (await total(id)) === 2, 30_000, 'the appended message counted');
    await quiesceMonitor(h.wb.workbench);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 2, files: 1 });

    // renamed while the interface was not watched
    expect((await h.put(`/api/monitor/interfaces/${id}`, { enabled: false })).status).toBe(200);
    renameSync(join(dir, 'r2.hl7'), join(dir, 'r3.hl7'));
    expect((await h.put(`/api/monitor/interfaces/${id}`, { enabled: true })).status).toBe(200);
    // a file dropped after it proves the folder was read again
    writeFileSync(join(dir, 'other.hl7'), adtMessage('OTHER1'));
    await waitFor(async () => (await total(id)) >= 3, 30_000, 'the other file counted');
    await quiesceMonitor(h.wb.workbench);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 3, files: 2 });

    // a copy beside the original is another delivery of the same content
    copyFileSync(join(dir, 'r3.hl7'), join(dir, 'r3-copy.hl7'));
    await waitFor(async () => (await total(id)) === 5, 30_000, 'the copy counted');
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 5, files: 3 });
  });

  it('raises an alert naming a file whose name is not UTF-8, and clears it once the file is renamed and counted', async () => {
    const dir = h.folder();
    const id = await createInterface(`latin-1 names ${storage}`, dir);
    // "Müller.hl7" written by a Latin-1 system: the ü is the single byte 0xFC
    const latin1 = Buffer.concat([Buffer.from(`${dir}/M`), Buffer.from([0xfc]), Buffer.from('ller.hl7')]);
    writeFileSync(latin1, adtMessage('LATIN1'));
    expect(existsSync(latin1)).toBe(true);
    type Listed = { rule: string; message: string; clearedAt: string | null; severity: string };
    const alerts = async () => (await h.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as Listed[];
    const raised = await waitFor(async () => (await alerts()).find((a) => a.rule === 'file-name-not-utf8' && a.clearedAt === null), 30_000, 'the alert');
    expect(raised.severity).toBe('warning');
    expect(raised.message).toContain('M\uFFFDller.hl7');
    expect(raised.message).toContain('UTF-8');
    expect(await total(id)).toBe(0);

    renameSync(latin1, join(dir, 'Mueller.hl7'));
    await waitFor(async () => (await total(id)) === 1, 30_000, 'the renamed file counted');
    await quiesceMonitor(h.wb.workbench);
    const after = (await alerts()).find((a) => a.rule === 'file-name-not-utf8');
    expect(after?.clearedAt).not.toBeNull();
  });

  it('counts every name that is not UTF-8 in a folder full of them, while keeping only a few of the names', async () => {
    const dir = h.folder();
    const many = 150;
    for (let i = 0; i < many; i++) {
      writeFileSync(Buffer.concat([Buffer.from(`${dir}/M`), Buffer.from([0xfc]), Buffer.from(`ller-${i}.hl7`)]), adtMessage(`LATIN${i}`));
    }
    const id = await createInterface(`many latin-1 names ${storage}`, dir);
    type Listed = { rule: string; title: string; message: string; clearedAt: string | null };
    const alerts = async () => (await h.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as Listed[];
    const raised = await waitFor(async () => (await alerts()).find((a) => a.rule === 'file-name-not-utf8' && a.clearedAt === null), 30_000, 'the alert');
    expect(raised.title).toBe(`${many} file names are not valid UTF-8`);
    expect(raised.message).toContain(`and ${many - 5} more`);
    expect(await total(id)).toBe(0);
  });
});
