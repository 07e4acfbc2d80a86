// The monitor's query contract (api.ts MonitorStore) as other plugins use it, on SQLite and PostgreSQL, over files
// dropped into watched folders: keyset pages that walk every message exactly once while files keep arriving, a
// cursor stored across a restart, the default projection without raw text, and every filter field.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageFilter, type MessageRecord, type MonitorService } from '../../plugins/monitor/api.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

async function createInterface(h: MonitorHarness, name: string, dir: string): Promise<string> {
  const response = await h.post('/api/monitor/interfaces', { name, directoryPath: dir });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.data.id;
}

function serviceOf(h: MonitorHarness): MonitorService {
  return resolveService(h.wb.workbench.container, MONITOR_SERVICE);
}

async function waitForCount(service: MonitorService, filter: MessageFilter, count: number): Promise<void> {
  await waitFor(async () => (await service.countMessages(filter)) === count, 30_000, `${count} messages`);
}

async function collect(service: MonitorService, filter: MessageFilter): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  for await (const message of service.streamMessages(filter)) found.push(message);
  return found;
}

/** An HL7 v2.5 message with the header and patient fields given. */
function hl7(options: {
  control: string;
  type?: string;
  app?: string;
  facility?: string;
  pid3?: string;
  account?: string;
}): string {
  return [
    `MSH|^~\\&|${options.app ?? 'APP'}|${options.facility ?? 'FAC'}|RECV|RFAC|20260101120000||${options.type ?? 'ADT^A01^ADT_A01'}|${options.control}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||${options.pid3 ?? `P${options.control}^^^HOSP^MR`}||DOE^JANE||19800101|F${'|'.repeat(10)}${options.account ?? `ACC${options.control}`}`,
    ...((options.type ?? 'ADT').startsWith('ADT') ? ['PV1|1|I'] : []),
  ].join('\r');
}

describe.each(storages())('monitor query contract on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = serviceOf(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('walks every message exactly once, page by page, while files keep arriving', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `paging ${storage}`, dir);
    for (let i = 0; i < 25; i++) writeFileSync(join(dir, `a${i}.hl7`), `${adtMessage(`PG${i}a`)}\r${adtMessage(`PG${i}b`)}`);
    await waitForCount(service, { interfaceIds: [id] }, 50);
    const seen: string[] = [];
    let cursor: string | null = null;
    const readPage = async (): Promise<string | null> => {
      const page = await service.queryMessages({ interfaceIds: [id] }, { limit: 7, after: cursor });
      expect(page.messages.length).toBeLessThanOrEqual(7);
      for (const message of page.messages) seen.push(message.controlId ?? '');
      if (page.messages.length > 0) cursor = page.messages[page.messages.length - 1].cursor;
      // a next page, when there is one, starts after the last message of this one
      expect(page.next ?? cursor).toBe(cursor);
      return page.next;
    };
    // read 7 at a time; after each page another file arrives, until 20 more have
    for (let written = 0; written < 20; written++) {
      await readPage();
      writeFileSync(join(dir, `b${written}.hl7`), adtMessage(`PGB${written}`));
    }
    await waitForCount(service, { interfaceIds: [id] }, 70);
    while ((await readPage()) !== null);
    const expected = [...Array.from({ length: 25 }, (_, i) => [`PG${i}a`, `PG${i}b`]).flat(), ...Array.from({ length: 20 }, (_, i) => `PGB${i}`)];
    expect(seen).toHaveLength(70);
    expect(new Set(seen).size).toBe(70);
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it('pages in the stable order (received time, file, index) with a default of 100 and a limit of 1 to 1,000', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `order ${storage}`, dir);
    writeFileSync(join(dir, 'batch.hl7'), Array.from({ length: 130 }, (_, i) => adtMessage(`ORD${i}`)).join('\r'));
    await waitForCount(service, { interfaceIds: [id] }, 130);
    const first = await service.queryMessages({ interfaceIds: [id] });
    expect(first.messages).toHaveLength(100);
    expect(first.messages.map((m) => m.indexInFile)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const rest = await service.queryMessages({ interfaceIds: [id] }, { after: first.next, limit: 1000 });
    expect(rest.messages.map((m) => m.controlId)).toEqual(Array.from({ length: 30 }, (_, i) => `ORD${i + 100}`));
    expect(rest.next).toBeNull();
    await expect(service.queryMessages({}, { limit: 0 })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID', status: 400 });
    await expect(service.queryMessages({}, { limit: 1001 })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID' });
    await expect(service.queryMessages({}, { after: 'not-a-cursor' })).rejects.toMatchObject({ code: 'MESSAGE_CURSOR_INVALID', status: 400 });
    await expect(service.queryMessages({ since: 'yesterday' })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID' });
    expect(() => service.streamMessages({}, { after: 'AAAA' })).toThrow(/Cursor/);
  });

  it('leaves the raw text out unless asked for, in pages, streams and single reads', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `projection ${storage}`, dir);
    writeFileSync(join(dir, 'one.hl7'), adtMessage('RAW1'));
    await waitForCount(service, { interfaceIds: [id] }, 1);
    const [message] = (await service.queryMessages({ interfaceIds: [id] })).messages;
    expect(message).not.toHaveProperty('raw');
    expect(message).toMatchObject({ controlId: 'RAW1', standard: 'hl7', patientIds: [{ id: 'PRAW1', assigningAuthority: 'HOSP' }] });
    const [streamed] = await collect(service, { interfaceIds: [id] });
    expect(streamed).not.toHaveProperty('raw');
    expect(await service.getMessage(message.id)).not.toHaveProperty('raw');
    const withRaw = await service.getMessage(message.id, { include: ['raw'] });
    expect(withRaw?.raw).toBe(adtMessage('RAW1'));
    const [paged] = (await service.queryMessages({ interfaceIds: [id] }, { include: ['raw'] })).messages;
    expect(paged.raw).toBe(adtMessage('RAW1'));
    expect(await service.getMessage('999999.0')).toBeUndefined();
    expect(await service.getMessage('nonsense')).toBeUndefined();
  });

  it('reads only the facts named in fields (id and cursor always), keeps a digest of the text, and refuses unknown names', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `fields ${storage}`, dir);
    writeFileSync(join(dir, 'a.hl7'), adtMessage('FLD1'));
    writeFileSync(join(dir, 'b.hl7'), adtMessage('FLD2'));
    await waitForCount(service, { interfaceIds: [id] }, 2);
    const full = await collect(service, { interfaceIds: [id] });
    const fields = ['controlId', 'receivedAt', 'contentDigest'] as const;
    const narrowed = [];
    for await (const message of service.streamMessages({ interfaceIds: [id] }, { fields: [...fields] })) narrowed.push(message);
    expect(narrowed.map((m) => Object.keys(m).sort())).toEqual(full.map(() => ['contentDigest', 'controlId', 'cursor', 'id', 'receivedAt']));
    expect(narrowed).toEqual(full.map((m) => ({ id: m.id, cursor: m.cursor, controlId: m.controlId, receivedAt: m.receivedAt, contentDigest: m.contentDigest })));
    expect(full.map((m) => m.contentDigest)).toEqual(full.map((m) => createHash('sha256').update(adtMessage(m.controlId!)).digest('hex')));
    // a page with a projection and raw: the cursor resumes as the default page's does
    const page = await service.queryMessages({ interfaceIds: [id] }, { limit: 1, fields: ['isValid'], include: ['raw'] });
    expect(page.messages).toEqual([{ id: full[0].id, cursor: full[0].cursor, isValid: true, raw: adtMessage(full[0].controlId!) }]);
    const rest = await service.queryMessages({ interfaceIds: [id] }, { after: page.next, fields: [] });
    expect(rest.messages).toEqual([{ id: full[1].id, cursor: full[1].cursor }]);
    await expect(service.queryMessages({ interfaceIds: [id] }, { fields: ['controlId', 'nope' as 'controlId'] })).rejects.toMatchObject({
      code: 'MESSAGE_FILTER_INVALID',
    });
    expect(() => service.streamMessages({}, { fields: 'controlId' as unknown as ['controlId'] })).toThrow(/fields/);
  });

  it('narrows by every filter field, each alone and together', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `filters ${storage}`, dir);
    const other = await createInterface(h, `filters other ${storage}`, h.folder());
    writeFileSync(join(dir, 'f1.hl7'), hl7({ control: 'F1', pid3: 'PX^^^HOSP^MR~PX^^^STATE^SS', account: 'AC1' }));
    writeFileSync(join(dir, 'f2.hl7'), hl7({ control: 'F2', pid3: 'PX^^^STATE^SS', type: 'ADT^A08^ADT_A01', app: 'LAB', account: 'AC2' }));
    writeFileSync(join(dir, 'f3.hl7'), hl7({ control: 'F3', pid3: 'PY^^^HOSP^MR', type: 'ORU^R01^ORU_R01', facility: 'EAST', account: 'AC1' }));
    writeFileSync(join(dir, 'f4.hl7'), 'this is not HL7 at all');
    await waitForCount(service, { interfaceIds: [id] }, 4);
    const controls = async (filter: MessageFilter) =>
      (await collect(service, { interfaceIds: [id], ...filter })).map((m) => m.controlId ?? 'none').sort();
    expect(await controls({})).toEqual(['F1', 'F2', 'F3', 'none']);
    // an identifier under two authorities in one message is still one message
    expect(await controls({ patientId: 'PX' })).toEqual(['F1', 'F2']);
    expect(await controls({ patientId: 'PX', assigningAuthority: 'HOSP' })).toEqual(['F1']);
    expect(await controls({ patientId: 'PX', assigningAuthority: 'STATE' })).toEqual(['F1', 'F2']);
    expect(await controls({ patientId: 'PX', assigningAuthority: 'NOPE' })).toEqual([]);
    expect(await controls({ accountNumber: 'AC1' })).toEqual(['F1', 'F3']);
    expect(await controls({ accountNumber: 'AC1', patientId: 'PY' })).toEqual(['F3']);
    expect(await controls({ controlId: 'F2' })).toEqual(['F2']);
    expect(await controls({ messageTypes: ['ADT'] })).toEqual(['F1', 'F2']);
    expect(await controls({ messageTypes: ['ADT^A08', 'ORU'] })).toEqual(['F2', 'F3']);
    // the ORU lacks its required segments
    expect(await controls({ isValid: false })).toEqual(['F3', 'none']);
    expect(await controls({ isValid: true })).toEqual(['F1', 'F2']);
    expect(await controls({ errorCodes: ['PARSE_ERROR'] })).toEqual(['none']);
    expect(await controls({ errorCodes: ['SEGMENT_MISSING', 'PARSE_ERROR'] })).toEqual(['F3', 'none']);
    expect(await controls({ errorCodes: ['PARSE_ERRO'] })).toEqual([]);
    expect(await controls({ sendingApplication: 'LAB' })).toEqual(['F2']);
    expect(await controls({ sendingFacility: 'EAST' })).toEqual(['F3']);
    expect(await controls({ standards: ['fhir'] })).toEqual([]);
    expect(await controls({ standards: ['hl7'], messageTypes: ['ADT'], sendingApplication: 'APP' })).toEqual(['F1']);
    expect(await service.countMessages({ interfaceIds: [other] })).toBe(0);
    expect(await service.countMessages({ interfaceIds: [id], patientId: 'PX' })).toBe(2);
    const [first] = await collect(service, { interfaceIds: [id] });
    expect(await service.countMessages({ interfaceIds: [id], since: first.receivedAt })).toBe(4);
    expect(await service.countMessages({ interfaceIds: [id], until: first.receivedAt })).toBe(0);
    await expect(service.countMessages({ assigningAuthority: 'HOSP' })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID' });
    await expect(service.countMessages({ errorCodes: ['PARSE%ERROR'] })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID' });
    await expect(service.countMessages({ messageTypes: ['ADT^'] })).rejects.toMatchObject({ code: 'MESSAGE_FILTER_INVALID' });
  });
});

describe.each(storages())('a stored cursor on %s', (storage) => {
  it('resumes after a restart with nothing missed and nothing repeated', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workbench-cursor-'));
    const schema = storage === 'postgres' && testPostgresUrl ? await freshPostgresSchema(testPostgresUrl) : undefined;
    const config = { dataDir, ...(schema ? { storage: { url: schema.url } } : {}) };
    const dir = mkdtempSync(join(tmpdir(), 'workbench-cursor-folder-'));
    try {
      let h = await startMonitorHarness({ config });
      const id = await createInterface(h, 'resume', dir);
      for (let i = 0; i < 12; i++) writeFileSync(join(dir, `r${i}.hl7`), adtMessage(`RES${i}`));
      await waitForCount(serviceOf(h), { interfaceIds: [id] }, 12);
      const seen: string[] = [];
      let stored: string | null = null;
      for await (const message of serviceOf(h).streamMessages({ interfaceIds: [id] })) {
        seen.push(message.controlId ?? '');
        stored = message.cursor;
        if (seen.length === 5) break;
      }
      await h.stop();
      for (let i = 12; i < 20; i++) writeFileSync(join(dir, `r${i}.hl7`), adtMessage(`RES${i}`));
      h = await startMonitorHarness({ config });
      try {
        await waitForCount(serviceOf(h), { interfaceIds: [id] }, 20);
        for await (const message of serviceOf(h).streamMessages({ interfaceIds: [id] }, { after: stored })) seen.push(message.controlId ?? '');
      } finally {
        await h.stop();
      }
      expect(seen).toHaveLength(20);
      expect([...seen].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `RES${i}`).sort());
    } finally {
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
