// The monitor reads FHIR and NCPDP folders as well as HL7 ones, through each standard adapter's reading capability,
// on SQLite and PostgreSQL: exact counts over the shared corpus (skipped with a notice when absent) and generated
// files, the facts each standard gives, per-file detection for `auto`, and profiles that must match the standard.
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageFilter, type MessageRecord, type MonitorService } from '../../plugins/monitor/api.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { writeNcpdpBatch } from '../../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

const CORPUS = '/work/shared/corpus';
const corpusPresent = existsSync(join(CORPUS, 'fhir')) && existsSync(join(CORPUS, 'ncpdp'));
if (!corpusPresent) console.warn(`[notice] ${CORPUS} is absent: the corpus folders of the standards test are skipped.`);

function corpusFiles(standard: 'fhir' | 'ncpdp', extension: RegExp): string[] {
  return corpusPresent ? readdirSync(join(CORPUS, standard)).filter((name) => extension.test(name)).sort() : [];
}

async function collect(service: MonitorService, filter: MessageFilter): Promise<MessageRecord[]> {
  const found: MessageRecord[] = [];
  for await (const message of service.streamMessages(filter)) found.push(message);
  return found;
}

/** A FHIR message Bundle: MessageHeader, Patient with two identifiers, Encounter. */
function fhirMessage(id: string): string {
  return JSON.stringify({
    resourceType: 'Bundle',
    id,
    type: 'message',
    timestamp: '2026-03-01T10:00:00Z',
    entry: [
      {
        fullUrl: 'urn:uuid:0b6e9b8a-0000-4000-8000-000000000001',
        resource: {
          resourceType: 'MessageHeader',
          id: `${id}-h`,
          eventCoding: { system: 'http://example.org/events', code: 'admit-notification' },
          source: { name: 'EHR-SENDER', software: 'CareSuite', version: '9.1', endpoint: 'http://sender.example.org' },
          sender: { display: 'General Hospital' },
          destination: [{ name: 'HIE', endpoint: 'http://hie.example.org', receiver: { display: 'Regional HIE' } }],
          response: { identifier: 'ORIG-42', code: 'ok' },
        },
      },
      {
        fullUrl: 'urn:uuid:0b6e9b8a-0000-4000-8000-000000000002',
        resource: {
          resourceType: 'Patient',
          id: 'p1',
          identifier: [
            { system: 'urn:oid:1.2.3', value: `MRN-${id}` },
            { system: 'urn:oid:9.9.9', value: `MRN-${id}` },
          ],
        },
      },
      {
        fullUrl: 'urn:uuid:0b6e9b8a-0000-4000-8000-000000000003',
        resource: { resourceType: 'Encounter', id: 'e1', status: 'in-progress', class: { code: 'IMP' }, identifier: [{ value: `VISIT-${id}` }] },
      },
    ],
  });
}

describe.each(storages())('monitored standards on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function create(body: Record<string, unknown>): Promise<{ id: string; filePattern: string; standard: string }> {
    const response = await h.post('/api/monitor/interfaces', body);
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    return response.json.data;
  }

  it('reads a FHIR folder (JSON resources, Bundles, NDJSON) with exact counts and the MessageHeader, Patient and Encounter facts', async () => {
    const dir = h.folder();
    const created = await create({ name: `fhir ${storage}`, directoryPath: dir, standard: 'fhir' });
    expect(created).toMatchObject({ standard: 'fhir', filePattern: '*.{json,ndjson}' });
    const corpus = corpusFiles('fhir', /\.json$/);
    for (const name of corpus) copyFileSync(join(CORPUS, 'fhir', name), join(dir, name));
    writeFileSync(join(dir, 'message.json'), fhirMessage('MSG1'));
    const patients = [1, 2, 3].map((i) => JSON.stringify({ resourceType: 'Patient', id: `n${i}`, identifier: [{ system: 'urn:oid:7.7', value: `ND${i}` }] }));
    writeFileSync(join(dir, 'patients.ndjson'), `${patients.join('\n')}\n`);
    writeFileSync(join(dir, 'ignored.hl7'), adtMessage('NOT-FHIR'));
    const expected = corpus.length + 1 + 3;
    await waitFor(async () => (await service.countMessages({ interfaceIds: [created.id] })) === expected, 60_000, `${expected} FHIR messages`);
    expect(await service.countMessages({ interfaceIds: [created.id], standards: ['fhir'] })).toBe(expected);
    const [message] = await collect(service, { interfaceIds: [created.id], controlId: 'MSG1' });
    expect(message).toMatchObject({
      standard: 'fhir',
      messageType: 'admit-notification',
      messageTime: '2026-03-01T10:00:00.000Z',
      sendingApplication: 'EHR-SENDER',
      sendingFacility: 'General Hospital',
      receivingApplication: 'HIE',
      receivingFacility: 'Regional HIE',
      acknowledgedControlId: 'ORIG-42',
      software: { vendor: null, version: '9.1', product: 'CareSuite', installDate: null },
      segmentIds: ['Bundle', 'MessageHeader', 'Patient', 'Encounter'],
      patientIds: [
        { id: 'MRN-MSG1', assigningAuthority: 'urn:oid:1.2.3' },
        { id: 'MRN-MSG1', assigningAuthority: 'urn:oid:9.9.9' },
      ],
      visitNumber: 'VISIT-MSG1',
    });
    expect((await collect(service, { patientId: 'MRN-MSG1', assigningAuthority: 'urn:oid:9.9.9' })).map((m) => m.id)).toEqual([message.id]);
    const lines = await collect(service, { interfaceIds: [created.id], messageTypes: ['Patient'] });
    expect(lines.filter((m) => m.patientIds[0]?.id.startsWith('ND')).map((m) => [m.indexInFile, m.patientIds[0].id])).toEqual([
      [0, 'ND1'],
      [1, 'ND2'],
      [2, 'ND3'],
    ]);
    // a malformed file of the corpus is stored as invalid
    const invalid = await service.countMessages({ interfaceIds: [created.id], isValid: false });
    expect(!corpus.some((name) => name.startsWith('MALFORMED_')) || invalid > 0, `${invalid} invalid messages`).toBe(true);
  });

  it('reads an NCPDP folder (SCRIPT XML, Telecommunication D.0 and batch files) with exact counts and header facts', async () => {
    const dir = h.folder();
    const created = await create({ name: `ncpdp ${storage}`, directoryPath: dir, standard: 'ncpdp' });
    expect(created.filePattern).toBe('*.{xml,ncpdp,d0,dat}');
    const corpus = corpusFiles('ncpdp', /\.xml$/);
    for (const name of corpus) copyFileSync(join(CORPUS, 'ncpdp', name), join(dir, name));
    const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
    const claims = adapter.generate({ messageType: 'B1', count: 4, seed: 7 });
    writeFileSync(join(dir, 'claim.d0'), claims[0]);
    writeFileSync(
      join(dir, 'claims.dat'),
      writeNcpdpBatch({
        senderId: 'SWITCH01',
        receiverId: 'PBM01',
        batchNumber: 12,
        creationDate: '20260301',
        creationTime: '0930',
        fileType: 'T',
        transactions: claims.slice(1).map((transaction, i) => ({ reference: `REF${i + 1}`, transaction })),
      }),
    );
    const expected = corpus.length + 1 + 3;
    await waitFor(async () => (await service.countMessages({ interfaceIds: [created.id] })) === expected, 60_000, `${expected} NCPDP messages`);
    const batch = await collect(service, { interfaceIds: [created.id], messageTypes: ['B1'] });
    expect(batch).toHaveLength(4);
    const fromBatch = batch.filter((m) => m.controlId?.startsWith('REF'));
    expect(fromBatch.map((m) => [m.controlId, m.indexInFile, m.messageTime, m.version, m.standard])).toEqual([
      ['REF1', 0, '2026-03-01T09:30:00.000Z', 'D0', 'ncpdp'],
      ['REF2', 1, '2026-03-01T09:30:00.000Z', 'D0', 'ncpdp'],
      ['REF3', 2, '2026-03-01T09:30:00.000Z', 'D0', 'ncpdp'],
    ]);
    expect(batch.every((m) => m.isValid)).toBe(true);
    // the corpus's CancelRx, when it has it, with its header facts
    const cancels = await collect(service, { interfaceIds: [created.id], controlId: 'SYNTH-MSG-0401' });
    expect(cancels).toHaveLength(corpus.includes('SCRIPT_CancelRx__cosyte.xml') ? 1 : 0);
    for (const cancel of cancels) {
      expect(cancel).toMatchObject({
        standard: 'ncpdp',
        messageType: 'CancelRx',
        messageTime: '2026-02-03T08:00:00.000Z',
        sendingFacility: 'SurescriptsTestPrescriber',
        receivingFacility: 'SurescriptsTestPharmacy',
        version: '2017071',
      });
      expect(cancel.segmentIds).toContain('Patient');
    }
  });

  it('detects the standard of each file on an auto interface', async () => {
    const dir = h.folder();
    const created = await create({ name: `auto ${storage}`, directoryPath: dir, standard: 'auto', filePattern: '*' });
    expect(created.standard).toBe('auto');
    const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
    writeFileSync(join(dir, 'a'), adtMessage('AUTO-HL7'));
    writeFileSync(join(dir, 'b'), fhirMessage('AUTO-FHIR'));
    writeFileSync(join(dir, 'c'), adapter.generate({ messageType: 'B1', count: 1, seed: 3 })[0]);
    writeFileSync(join(dir, 'd'), 'neither of them');
    await waitFor(async () => (await service.countMessages({ interfaceIds: [created.id] })) === 4, 30_000, 'four messages');
    const read = await collect(service, { interfaceIds: [created.id] });
    expect(read.map((m) => m.standard).sort()).toEqual(['fhir', 'hl7', 'hl7', 'ncpdp']);
    const unreadable = read.find((m) => !m.isValid && m.errors[0].code === 'PARSE_ERROR');
    expect(unreadable?.errors[0].message).toMatch(/no standard the monitor reads/);
  });

  it('refuses a profile of another standard with 400 listing the profiles of the interface standard', async () => {
    const profiles = (await h.wb.call('bridge', { method: 'GET', path: '/api/profiles' })).json.data as Array<{ name: string; standard: string }>;
    const fhirProfile = profiles.find((p) => p.standard === 'fhir');
    const hl7Profiles = profiles.filter((p) => p.standard === 'hl7').map((p) => p.name);
    expect(fhirProfile).toBeDefined();
    expect(hl7Profiles.length).toBeGreaterThan(0);
    const refused = await h.post('/api/monitor/interfaces', { name: `mismatch ${storage}`, directoryPath: h.folder(), standard: 'hl7', profileName: fhirProfile!.name });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('PROFILE_NOT_FOUND');
    for (const name of hl7Profiles) expect(refused.json.error.message).toContain(name);
    expect(refused.json.error.message).not.toContain(fhirProfile!.name + ',');
    // without a declared standard the profile decides it
    const taken = await create({ name: `profiled ${storage}`, directoryPath: h.folder(), profileName: fhirProfile!.name });
    expect(taken.standard).toBe('fhir');
    // and changing the standard under a kept profile is refused the same way
    const changed = await h.put(`/api/monitor/interfaces/${taken.id}`, { standard: 'hl7' });
    expect(changed.status).toBe(400);
    expect(changed.json.error.code).toBe('PROFILE_NOT_FOUND');
    const unknown = await h.post('/api/monitor/interfaces', { name: `bad standard ${storage}`, directoryPath: h.folder(), standard: 'x12' });
    expect(unknown.status).toBe(400);
  });
});
