// A writer that stalls mid-message: through real HTTP on each store, a file whose last message is still open (no
// segment terminator after it, a JSON resource not closed, an NCPDP batch record without ETX) and fails is held
// back: its whole messages count, the open one waits for its writer. Completed, it counts once, judged whole (valid). Never completed, it is judged as it is
// once the grace period is over (failed, never ignored), and bytes that complete it later count nothing twice. Across
// a restart the ledger's shorter length brings a held file back: counted once, whole, or judged after the grace period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageRecord, type MonitorService } from '../../plugins/monitor/api.ts';
import { quiesceMonitor } from '../kit/monitor-activity.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { writeNcpdpBatch } from '../../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** An ADT message cut inside its PID segment, and the rest of it. */
function cutInPid(controlId: string): [string, string] {
  const message = adtMessage(controlId);
  const at = message.indexOf('PID|') + 12;
  return [message.slice(0, at), message.slice(at)];
}

async function createInterface(h: MonitorHarness, name: string, directoryPath: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await h.post('/api/monitor/interfaces', { name, directoryPath, ...extra });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.data.id;
}

async function metrics(h: MonitorHarness, id: string): Promise<{ messagesTotal: number; messagesFailed: number; messagesSuccessful: number }> {
  const response = await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`);
  expect(response.status).toBe(200);
  return response.json.data;
}

async function openAlerts(h: MonitorHarness, id: string): Promise<Array<{ rule: string }>> {
  const response = await h.get(`/api/monitor/alerts?interfaceId=${id}`);
  expect(response.status).toBe(200);
  return (response.json.data as Array<{ rule: string; clearedAt: string | null }>).filter((a) => a.clearedAt === null);
}

async function messagesOf(service: MonitorService, interfaceId: string): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  for await (const message of service.streamMessages({ interfaceIds: [interfaceId] })) found.push(message);
  return found.sort((a, b) => a.indexInFile - b.indexInFile);
}

describe.each(storages())('a writer that stalls mid-message on %s', (storage) => {
  describe('within the grace period', () => {
    let h: MonitorHarness;
    let service: MonitorService;
    beforeAll(async () => {
      // a grace period no test outlasts: a held message waits for its writer
      h = await startMonitorHarness({ storage, monitor: { openTailGraceMs: 600_000 } });
      service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    });
    afterAll(async () => {
      await h?.stop();
    });

    it('counts the whole messages, holds the open one and judges it whole once its writer finishes it', async () => {
      const dir = h.folder();
      const id = await createInterface(h, `stalled hl7 ${storage}`, dir);
      const path = join(dir, 'stalled.hl7');
      const [head, rest] = cutInPid('STALL2');
      writeFileSync(path, `${adtMessage('STALL1')}\r${head}`);
      // the first message counts once the file settled; the open second one does not, not even as failed
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 1, 30_000, 'the whole message counted');
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 1, messagesFailed: 0 });
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 1, failed: 0, files: 1 });

      appendFileSync(path, `${rest}\r`);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 2, 30_000, 'the finished message counted');
      await quiesceMonitor(h.wb.workbench);
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 2, messagesSuccessful: 2, messagesFailed: 0 });
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 2, failed: 0, files: 1 });
      const stored = await messagesOf(service, id);
      expect(stored.map((m) => [m.controlId, m.indexInFile, m.isValid])).toEqual([
        ['STALL1', 0, true],
        ['STALL2', 1, true],
      ]);
      expect(await openAlerts(h, id)).toEqual([]);

      // the next message appended counts on its own, after the finished one
      appendFileSync(path, `${adtMessage('STALL3')}\r`);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 3, 30_000, 'the appended message counted');
      await quiesceMonitor(h.wb.workbench);
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 3, failed: 0, files: 1 });
    });

    it('holds an NDJSON resource cut mid-line until its line is finished', async () => {
      const dir = h.folder();
      const id = await createInterface(h, `stalled ndjson ${storage}`, dir, { standard: 'fhir' });
      const path = join(dir, 'patients.ndjson');
      const patient = (n: number) => JSON.stringify({ resourceType: 'Patient', id: `p${n}`, identifier: [{ system: 'urn:oid:7.7', value: `ND${n}` }] });
      const second = patient(2);
      writeFileSync(path, `${patient(1)}\n${second.slice(0, 30)}`);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 1, 30_000, 'the whole resource counted');
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 1, messagesFailed: 0 });

      appendFileSync(path, `${second.slice(30)}\n`);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 2, 30_000, 'the finished resource counted');
      await quiesceMonitor(h.wb.workbench);
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 2, messagesFailed: 0 });
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 2, failed: 0, files: 1 });
    });
    it('holds an NCPDP batch record without its ETX until the record is closed', async () => {
      const dir = h.folder();
      const id = await createInterface(h, `stalled ncpdp ${storage}`, dir, { standard: 'ncpdp' });
      const claims = createNcpdpAdapter({ synthetic: createSyntheticDataService() }).generate({ messageType: 'B1', count: 3, seed: 11 });
      const batch = writeNcpdpBatch({
        senderId: 'SWITCH01',
        receiverId: 'PBM01',
        batchNumber: 7,
        creationDate: '20260301',
        creationTime: '0930',
        fileType: 'T',
        transactions: claims.map((transaction, i) => ({ reference: `REF${i + 1}`, transaction })),
      });
      // cut inside the third detail record: header and two details are whole
      const third = batch.indexOf('\x02G1REF3');
      const cut = third + 40;
      const path = join(dir, 'claims.dat');
      writeFileSync(path, batch.slice(0, cut));
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 2, 30_000, 'the two whole records counted');
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 2, messagesFailed: 0 });

      appendFileSync(path, batch.slice(cut));
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 3, 30_000, 'the closed record counted');
      await quiesceMonitor(h.wb.workbench);
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 3, messagesFailed: 0 });
      expect((await messagesOf(service, id)).map((m) => [m.controlId, m.isValid])).toEqual([
        ['REF1', true],
        ['REF2', true],
        ['REF3', true],
      ]);
    });
  });

  describe('past the grace period', () => {
    let h: MonitorHarness;
    let service: MonitorService;
    beforeAll(async () => {
      h = await startMonitorHarness({ storage, monitor: { openTailGraceMs: 300 } });
      service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
    });
    afterAll(async () => {
      await h?.stop();
    });

    it('judges a message never finished as it is, and counts nothing twice when it is finished later', async () => {
      const dir = h.folder();
      const id = await createInterface(h, `never finished ${storage}`, dir);
      const [head, rest] = cutInPid('CUT2');
      writeFileSync(join(dir, 'cut.hl7'), `${adtMessage('CUT1')}\r${head}`);
      const [alone] = cutInPid('ALONE');
      writeFileSync(join(dir, 'alone.hl7'), alone);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 3, 30_000, 'the open messages judged as they are');
      await quiesceMonitor(h.wb.workbench);
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 3, messagesSuccessful: 1, messagesFailed: 2 });
      const stored = await messagesOf(service, id);
      expect(stored.filter((m) => !m.isValid).map((m) => m.controlId).sort()).toEqual(['ALONE', 'CUT2']);

      // finished after it was judged: the message keeps its verdict, the file stays one delivery
      appendFileSync(join(dir, 'cut.hl7'), `${rest}\r${adtMessage('CUT3')}\r`);
      await waitFor(async () => (await metrics(h, id)).messagesTotal === 4, 30_000, 'the message after it counted');
      await quiesceMonitor(h.wb.workbench);
      expect(await metrics(h, id)).toMatchObject({ messagesTotal: 4, messagesSuccessful: 2, messagesFailed: 2 });
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 4, failed: 2, files: 2 });
    });
  });

  it('keeps counts exact across a restart: a message finished while the service was down counts once, whole', async () => {
    const dataDir = join(tmpdir(), `workbench-open-tail-${process.pid}-${Date.now()}`);
    const schema = storage === 'postgres' ? await freshPostgresSchema(testPostgresUrl!) : undefined;
    const config = { dataDir, ...(schema ? { storage: { url: schema.url } } : {}) };
    const first = await startMonitorHarness({ config, monitor: { openTailGraceMs: 600_000 } });
    let second: MonitorHarness | undefined;
    try {
      const dir = first.folder();
      const id = await createInterface(first, `restart ${storage}`, dir);
      const [finishedHead, finishedRest] = cutInPid('DOWN2');
      const [openHead] = cutInPid('OPEN2');
      writeFileSync(join(dir, 'finished.hl7'), `${adtMessage('DOWN1')}\r${finishedHead}`);
      writeFileSync(join(dir, 'open.hl7'), `${adtMessage('OPEN1')}\r${openHead}`);
      await waitFor(async () => (await metrics(first, id)).messagesTotal === 2, 30_000, 'the whole messages counted');
      await first.wb.stop();

      // one message is finished while nothing watches; the other never is, and is judged once its grace period is over
      appendFileSync(join(dir, 'finished.hl7'), `${finishedRest}\r`);
      second = await startMonitorHarness({ config, monitor: { openTailGraceMs: 300 } });
      await waitFor(async () => (await metrics(second!, id)).messagesTotal === 4, 30_000, 'both files read again');
      await quiesceMonitor(second.wb.workbench);
      expect(await metrics(second, id)).toMatchObject({ messagesTotal: 4, messagesSuccessful: 3, messagesFailed: 1 });
      const service = resolveService(second.wb.workbench.container, MONITOR_SERVICE);
      expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 4, failed: 1, files: 2 });
      const stored = await messagesOf(service, id);
      expect(stored.filter((m) => !m.isValid).map((m) => m.controlId)).toEqual(['OPEN2']);
      expect(stored.find((m) => m.controlId === 'DOWN2')).toMatchObject({ isValid: true, indexInFile: 1 });
    } finally {
      await second?.wb.stop();
      await first.stop();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
