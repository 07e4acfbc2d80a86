// Files the pattern skips are not invisible: an interface created with no standard watches `*.hl7`, and FHIR and
// NCPDP files dropped beside its messages are counted and named in its status (an info alert: the interface stays
// healthy), the alert clearing once they are gone; an `auto` interface's pattern covers the three standards' files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adtMessage, createWatchedInterface, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

describe('files the pattern does not match', () => {
  let h: MonitorHarness;
  beforeAll(async () => {
    h = await startMonitorHarness({ monitor: { settleMs: 200, rescanIntervalMs: 500 } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  type Status = { interfaceId: string; state: string; openAlerts: Array<{ rule: string; title: string; message: string; severity: string }> };
  const statusOf = async (id: string): Promise<Status> =>
    ((await h.get('/api/monitor/status')).json.data.interfaces as Status[]).find((s) => s.interfaceId === id)!;

  it('counts and names them in the status without degrading the interface, and clears once they are gone', async () => {
    const folder = h.folder('mixed');
    const id = await createWatchedInterface(h, 'mixed', folder);
    expect((await h.get(`/api/monitor/interfaces/${id}`)).json.data.filePattern).toBe('*.hl7');
    writeFileSync(join(folder, 'adt.hl7'), `${adtMessage('S1')}\r`);
    writeFileSync(join(folder, 'patient.json'), JSON.stringify({ resourceType: 'Patient', id: 'p1' }));
    writeFileSync(join(folder, 'claim.xml'), '<Message/>');
    writeFileSync(join(folder, '.hidden'), 'x');
    const status = await waitFor(async () => {
      const current = await statusOf(id);
      return current.openAlerts.some((a) => a.rule === 'files-not-matched') && current.state !== 'idle' ? current : undefined;
    }, 30_000, 'the skipped files named in the status');
    const alert = status.openAlerts.find((a) => a.rule === 'files-not-matched')!;
    expect(alert.severity).toBe('info');
    expect(alert.title).toBe('2 files not matching *.hl7');
    expect(alert.message).toContain('"claim.xml"');
    expect(alert.message).toContain('"patient.json"');
    expect(alert.message).not.toContain('.hidden');
    expect(status.state).toBe('healthy');
    rmSync(join(folder, 'patient.json'));
    rmSync(join(folder, 'claim.xml'));
    await waitFor(async () => !(await statusOf(id)).openAlerts.some((a) => a.rule === 'files-not-matched'), 30_000, 'the alert cleared');
  }, 90_000);

  it('gives an auto interface a pattern covering HL7, FHIR and NCPDP files', async () => {
    const created = await h.post('/api/monitor/interfaces', { name: 'auto', directoryPath: h.folder('auto'), standard: 'auto' });
    expect(created.status).toBe(201);
    const pattern = created.json.data.filePattern as string;
    for (const extension of ['hl7', 'json', 'ndjson', 'xml']) expect(pattern).toContain(extension);
  });
});
