// The unparsable-file alert follows write times, not commit order, through the real HTTP interface on each store: a
// file whose last message is held open (not terminated) is judged only after its grace period, so it commits after a
// bad file written later than it. That late commit must not end the bad file's alert; a file written after the bad
// one does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

interface AlertView {
  rule: string;
  message: string;
  clearedAt: string | null;
}

/** Writes a file and sets its modification time `secondsAgo` seconds back. */
function writeAt(path: string, content: string, secondsAgo: number): void {
  writeFileSync(path, content);
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, at, at);
}

describe.each(storages())('a held file committing late on %s', (storage) => {
  let h: MonitorHarness;
  beforeAll(async () => {
    // long enough for the bad file to settle and commit while the held one waits
    h = await startMonitorHarness({ storage, monitor: { openTailGraceMs: 4_000 } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('leaves the alert of a bad file open when a file written before it commits after it, and ends it with a later file', async () => {
    const dir = h.folder();
    const created = await h.post('/api/monitor/interfaces', { name: `held ${storage}`, directoryPath: dir });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    const total = async () => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`)).json.data.messagesTotal as number;
    const unparsable = async () => ((await h.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as AlertView[]).filter((a) => a.rule === 'unparsable-file');

    // written first: a whole message, then one cut inside PID whose writer never finishes it
    const open = adtMessage('HELD2');
    writeAt(join(dir, 'a-held.hl7'), `${adtMessage('HELD1')}\r${open.slice(0, open.indexOf('PID|') + 12)}`, 60);
    await waitFor(async () => (await total()) === 1, 30_000, 'the whole message of the held file counted');

    // written after it: a file that is not a message at all
    writeAt(join(dir, 'b-bad.hl7'), 'this is not HL7', 30);
    const [raised] = await waitFor(async () => {
      const list = await unparsable();
      return list.length > 0 ? list : undefined;
    }, 30_000, 'the unparsable-file alert');
    expect(raised).toMatchObject({ clearedAt: null });
    expect(raised!.message).toContain('b-bad.hl7');

    // the grace period ends: the held file is judged as it is and commits, written before the bad one
    await waitFor(async () => (await total()) === 2, 30_000, 'the held message judged');
    await quiesceMonitor(h.wb.workbench);
    expect(await unparsable()).toEqual([expect.objectContaining({ clearedAt: null })]);

    // a file written after the bad one ends it
    writeAt(join(dir, 'c-good.hl7'), adtMessage('LATER1'), 0);
    await waitFor(async () => (await total()) === 3, 30_000, 'the later file counted');
    await quiesceMonitor(h.wb.workbench);
    const after = await unparsable();
    expect(after).toHaveLength(1);
    expect(after[0]!.clearedAt).not.toBeNull();
  });
});
