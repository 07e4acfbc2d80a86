// The message routes of the monitor base over real HTTP, on SQLite and PostgreSQL: files dropped into a watched
// folder, then the list (every filter, the full-text q search, keyset pages), one message's view (raw text, findings
// placed in it, the file), retention, bad input, and the audit record of each raw view.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { pruneRawContent } from '../../plugins/monitor/messages/raw-retention.ts';
import { createRoleKeys, withBearer } from '../helpers/admin-access.ts';
import { adtMessage, createWatchedInterface, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** An ADT^A01 whose PID.5 (patient name) is empty: it fails with REQUIRED_FIELD_MISSING at PID.5. */
function namelessAdt(controlId: string, patientId: string, word: string): string {
  return [
    `MSH|^~\\&|SENDAPP|SENDFAC|RECVAPP|RECVFAC|20260101120000||ADT^A01^ADT_A01|${controlId}|P|2.5`,
    'EVN|A01|20260101120000',
    `PID|1||${patientId}^^^HOSP^MR||||19800101|F|||1 ${word} ST^^BOSTON^MA^02110|||||||ACC${controlId}`,
    'PV1|1|I|WARD^101^1',
  ].join('\r');
}

describe.each(storages())('message routes on %s', (storage) => {
  let h: MonitorHarness;
  let interfaceId: string;
  let folder: string;
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    folder = h.folder();
    interfaceId = await createWatchedInterface(h, `messages ${storage}`, folder);
    writeFileSync(join(folder, 'good.hl7'), adtMessage('GOOD1', { patientId: 'MRN100' }));
    writeFileSync(join(folder, 'bad.hl7'), namelessAdt('BAD1', 'MRN200', 'ZEBRAFISH'));
    writeFileSync(join(folder, 'batch.hl7'), [adtMessage('B1', { patientId: 'MRN300' }), adtMessage('B2', { patientId: 'MRN300' }), adtMessage('B3')].join('\r'));
    await waitFor(async () => (await h.get(`/api/monitor/messages?interfaceId=${interfaceId}`)).json.data.items.length === 5, 30_000, '5 messages');
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  const list = async (query: string) => {
    const response = await h.get(`/api/monitor/messages?interfaceId=${interfaceId}&${query}`);
    expect(response.status, response.text).toBe(200);
    return response.json.data as { items: Array<Record<string, any>>; next: string | null };
  };

  it('lists summaries without raw text, each with its interface, status, first finding and file name', async () => {
    const page = await list('');
    expect(page.next).toBeNull();
    expect(page.items.map((m) => m.controlId).sort()).toEqual(['B1', 'B2', 'B3', 'BAD1', 'GOOD1']);
    const bad = page.items.find((m) => m.controlId === 'BAD1')!;
    expect(bad).toMatchObject({
      interfaceId,
      interfaceName: `messages ${storage}`,
      standard: 'hl7',
      status: 'failed',
      messageType: 'ADT^A01',
      patientId: 'MRN200',
      accountNumber: 'ACCBAD1',
      fileName: 'bad.hl7',
      firstFinding: { severity: 'error', code: 'REQUIRED_FIELD_MISSING', path: 'PID.5' },
    });
    expect(bad.errorCount).toBeGreaterThan(0);
    expect(JSON.stringify(page)).not.toContain('ZEBRAFISH');
    expect(page.items.find((m) => m.controlId === 'GOOD1')).toMatchObject({ status: 'valid', firstFinding: null, fileName: 'good.hl7' });
  });

  it('narrows by status, control id, patient, account, message type, error code, file name and window', async () => {
    const ids = async (query: string) => (await list(query)).items.map((m) => m.controlId).sort();
    expect(await ids('status=failed')).toEqual(['BAD1']);
    expect(await ids('status=valid')).toEqual(['B1', 'B2', 'B3', 'GOOD1']);
    expect(await ids('controlId=B2')).toEqual(['B2']);
    expect(await ids('patientId=MRN300')).toEqual(['B1', 'B2']);
    expect(await ids('accountNumber=ACCGOOD1')).toEqual(['GOOD1']);
    expect(await ids('messageType=ADT%5EA01&errorCode=REQUIRED_FIELD_MISSING')).toEqual(['BAD1']);
    expect(await ids('messageType=ORU,MDM')).toEqual([]);
    expect(await ids('fileName=batch.hl7')).toEqual(['B1', 'B2', 'B3']);
    expect(await ids('fileName=BAT*')).toEqual(['B1', 'B2', 'B3']);
    expect(await ids('fileName=nothing.hl7')).toEqual([]);
    expect(await ids(`since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).toHaveLength(5);
    expect(await ids(`until=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).toEqual([]);
  });

  it('finds a message by any of its error codes and never by a warning, at the same page walk', async () => {
    const own = h.folder();
    const ownId = await createWatchedInterface(h, `error codes ${storage}`, own);
    // PID.5 empty, PID.7 no date, PID.8 out of its table: a failed message with more than one error code
    const several = namelessAdt('MANY1', 'MRN900', 'OTTER').replace('||19800101|F|', '||1980XX01|Q|');
    writeFileSync(join(own, 'many.hl7'), [several, namelessAdt('ONE1', 'MRN901', 'HERON'), adtMessage('CLEAN1'), adtMessage('CLEAN2')].join('\r'));
    const ownList = async (query: string) => {
      const response = await h.get(`/api/monitor/messages?interfaceId=${ownId}&${query}`);
      expect(response.status, response.text).toBe(200);
      return response.json.data as { items: Array<Record<string, any>>; next: string | null };
    };
    await waitFor(async () => (await ownList('')).items.length === 4, 30_000, '4 messages');
    const many = (await ownList('controlId=MANY1')).items[0];
    const view = (await h.get(`/api/monitor/messages/${many.id}`)).json.data;
    const errorCodes = [...new Set<string>(view.findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { code: string }) => f.code))];
    expect(errorCodes.length).toBeGreaterThan(1);
    const ids = async (query: string) => (await ownList(query)).items.map((m) => m.controlId).sort();
    // each error code finds it, the first or a later one
    for (const code of errorCodes) expect(await ids(`errorCode=${code}`)).toContain('MANY1');
    expect(await ids('errorCode=REQUIRED_FIELD_MISSING')).toEqual(['MANY1', 'ONE1']);
    expect(await ids(`errorCode=${errorCodes.filter((code) => code !== 'REQUIRED_FIELD_MISSING').join(',')}`)).toEqual(['MANY1']);
    expect(await ids('errorCode=REQUIRED_FIELD_MISSING&status=failed')).toEqual(['MANY1', 'ONE1']);
    expect(await ids('errorCode=REQUIRED_FIELD_MISSING&status=valid')).toEqual([]);
    expect(await ids('errorCode=NO_SUCH_CODE')).toEqual([]);
    // a warning's code is no error code: clean messages and warnings never match
    const warningCodes = view.findings.filter((f: { severity: string }) => f.severity === 'warning').map((f: { code: string }) => f.code);
    for (const code of warningCodes.filter((code: string) => !errorCodes.includes(code))) expect(await ids(`errorCode=${code}`)).toEqual([]);
    // keyset pages of an error code walk each match once, in the stable order
    const first = await ownList('errorCode=REQUIRED_FIELD_MISSING&limit=1');
    expect(first.next).not.toBeNull();
    const second = await ownList(`errorCode=REQUIRED_FIELD_MISSING&limit=1&cursor=${first.next}`);
    expect([...first.items, ...second.items].map((m) => m.controlId)).toEqual(['MANY1', 'ONE1']);
    expect(second.next).toBeNull();
  });

  it('searches retained raw text by words through the full-text index, in any letter case', async () => {
    const ids = async (query: string) => (await list(query)).items.map((m) => m.controlId).sort();
    expect(await ids('q=zebrafish')).toEqual(['BAD1']);
    expect(await ids('q=ZEBRAFISH%20boston')).toEqual(['BAD1']);
    expect(await ids('q=zebrafish%20nowhere')).toEqual([]);
    expect(await ids('q=MRN300')).toEqual(['B1', 'B2']);
    // punctuation separates words: a component separator is not part of a word
    expect(await ids('q=DOE%5EJANE&status=valid')).toEqual(['B1', 'B2', 'B3', 'GOOD1']);
  });

  it('walks every message once in pages of the limit with the next cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: { items: Array<Record<string, any>>; next: string | null } = await list(`limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((m) => m.controlId));
      cursor = page.next;
      if (!cursor) break;
    }
    expect(seen.sort()).toEqual(['B1', 'B2', 'B3', 'BAD1', 'GOOD1']);
  });

  it('shows a message: raw text, the finding placed at PID.5, and the file with its place in a batch', async () => {
    const bad = (await list('controlId=BAD1')).items[0];
    const response = await h.get(`/api/monitor/messages/${bad.id}`);
    expect(response.status, response.text).toBe(200);
    const view = response.json.data;
    expect(view.raw).toBe(namelessAdt('BAD1', 'MRN200', 'ZEBRAFISH'));
    expect(view.rawState).toBe('retained');
    expect(view.rawNote).toBeNull();
    expect(view.message).toMatchObject({ id: bad.id, controlId: 'BAD1', sendingApplication: 'SENDAPP', version: '2.5', segmentIds: ['MSH', 'EVN', 'PID', 'PV1'] });
    const finding = view.findings.find((f: { path: string }) => f.path === 'PID.5');
    expect(finding).toMatchObject({ code: 'REQUIRED_FIELD_MISSING', expected: 'a value', actual: 'empty', position: { segmentIndex: 2, segment: 'PID', field: 5, exact: true } });
    // PID.5 is empty: its place is just after the separator that opens it
    const pidStart = view.raw.indexOf('PID|');
    expect(finding.position.start).toBe(pidStart + 'PID|1||MRN200^^^HOSP^MR||'.length);
    expect(finding.position.end).toBe(finding.position.start);
    expect(view.file).toMatchObject({ path: join(folder, 'bad.hl7'), name: 'bad.hl7', indexInFile: 0, messagesInFile: 1 });
    expect(view.file.size).toBe(Buffer.byteLength(namelessAdt('BAD1', 'MRN200', 'ZEBRAFISH')));

    const b3 = (await list('controlId=B3')).items[0];
    const batch = (await h.get(`/api/monitor/messages/${b3.id}`)).json.data;
    expect(batch.file).toMatchObject({ name: 'batch.hl7', indexInFile: 2, messagesInFile: 3 });
    expect(batch.findings).toEqual([]);
  });

  it('records every raw view in the audit trail: who, which message, when', async () => {
    const bad = (await list('controlId=BAD1')).items[0];
    const before = Date.now();
    expect((await h.get(`/api/monitor/messages/${bad.id}`)).status).toBe(200);
    const keys = await createRoleKeys(h.wb);
    const trail = await h.wb.call('monitor', withBearer({ method: 'GET', path: '/api/monitor/audit?action=message.raw-view' }, keys.admin));
    expect(trail.status, trail.text).toBe(200);
    const entry = trail.json.data.entries.find((e: { resourceId: string }) => e.resourceId === bad.id);
    expect(entry).toMatchObject({ action: 'message.raw-view', resourceType: 'message', outcome: 'success', actor: 'anonymous' });
    expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers 404 for an unknown id and 400 naming bad ids, cursors, windows, searches and limits', async () => {
    const unknown = await h.get('/api/monitor/messages/999999.0');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    for (const [path, words] of [
      ['/api/monitor/messages/abc', 'is not a message id'],
      ['/api/monitor/messages/1.0%0A', 'control character'],
      ['/api/monitor/messages?cursor=bogus', 'Cursor'],
      ['/api/monitor/messages?since=yesterday', 'since'],
      ['/api/monitor/messages?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z', 'must be before until'],
      ['/api/monitor/messages?q=%5E%7C%5E', 'q must hold at least one letter or digit'],
      ['/api/monitor/messages?controlId=A%01B', 'control character'],
      ['/api/monitor/messages?limit=0', 'limit'],
      ['/api/monitor/messages?status=broken', 'status'],
      ['/api/monitor/messages?colour=red', 'colour'],
    ] as const) {
      const response = await h.get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(400);
      expect(response.text, path).toContain(words);
    }
  });

  it('says expired once retention removed the raw text, and q no longer finds it', async () => {
    const bad = (await list('controlId=BAD1')).items[0];
    await pruneRawContent(h.wb.workbench.storage.db as Kysely<MonitorDatabase>, Date.now() + 60_000);
    const view = (await h.get(`/api/monitor/messages/${bad.id}`)).json.data;
    expect(view).toMatchObject({ raw: null, rawState: 'expired' });
    expect(view.rawNote).toContain('retention');
    expect(view.findings[0]).toMatchObject({ path: 'PID.5', position: null });
    expect((await list('q=zebrafish')).items).toEqual([]);
    expect((await list('status=failed')).items.map((m) => m.controlId)).toEqual(['BAD1']);
  });
});

describe('rawAccess', () => {
  let h: MonitorHarness;
  let id: string;
  let interfaceId: string;
  beforeAll(async () => {
    h = await startMonitorHarness({ monitor: { rawAccess: 'admin' } });
    const folder = h.folder();
    interfaceId = await createWatchedInterface(h, 'admin only', folder);
    writeFileSync(join(folder, 'one.hl7'), namelessAdt('ADM1', 'MRN900', 'OKAPI'));
    id = await waitFor(async () => (await h.get(`/api/monitor/messages?interfaceId=${interfaceId}`)).json.data.items[0]?.id as string | undefined, 30_000, 'a message');
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('admin: withholds raw text and refuses q without the MonitorAdmin bearer, and answers both with it', async () => {
    const keys = await createRoleKeys(h.wb);
    const anonymous = (await h.get(`/api/monitor/messages/${id}`)).json.data;
    expect(anonymous).toMatchObject({ raw: null, rawState: 'withheld' });
    expect(anonymous.rawNote).toContain('MonitorAdmin');
    expect(anonymous.findings[0].path).toBe('PID.5');
    const viewer = await h.wb.call('monitor', withBearer({ method: 'GET', path: `/api/monitor/messages/${id}` }, keys.viewer));
    expect(viewer.json.data.rawState).toBe('withheld');
    const search = await h.get(`/api/monitor/messages?q=okapi`);
    expect(search.status).toBe(403);
    expect(search.text).toContain('rawAccess');

    const admin = await h.wb.call('monitor', withBearer({ method: 'GET', path: `/api/monitor/messages/${id}` }, keys.admin));
    expect(admin.json.data).toMatchObject({ rawState: 'retained', raw: namelessAdt('ADM1', 'MRN900', 'OKAPI') });
    const adminSearch = await h.wb.call('monitor', withBearer({ method: 'GET', path: '/api/monitor/messages?q=okapi' }, keys.admin));
    expect(adminSearch.json.data.items.map((m: { id: string }) => m.id)).toEqual([id]);

    const trail = await h.wb.call('monitor', withBearer({ method: 'GET', path: '/api/monitor/audit?action=message.raw-view' }, keys.admin));
    const outcomes = trail.json.data.entries.filter((e: { resourceId: string }) => e.resourceId === id).map((e: { outcome: string; actor: string }) => `${e.outcome} ${e.actor.startsWith('wbk_') ? 'key' : e.actor}`);
    expect(outcomes.sort()).toEqual(['denied anonymous', 'denied key', 'success key']);
  });

  it('off: never shows raw text, even to an admin', async () => {
    const off = await startMonitorHarness({ monitor: { rawAccess: 'off' } });
    try {
      const folder = off.folder();
      const offInterface = await createWatchedInterface(off, 'off', folder);
      writeFileSync(join(folder, 'one.hl7'), adtMessage('OFF1'));
      const offId = await waitFor(async () => (await off.get(`/api/monitor/messages?interfaceId=${offInterface}`)).json.data.items[0]?.id as string | undefined, 30_000, 'a message');
      const keys = await createRoleKeys(off.wb);
      const admin = await off.wb.call('monitor', withBearer({ method: 'GET', path: `/api/monitor/messages/${offId}` }, keys.admin));
      expect(admin.json.data).toMatchObject({ raw: null, rawState: 'withheld' });
      expect(admin.json.data.rawNote).toContain('off');
    } finally {
      await off.stop();
    }
  }, 60_000);
});

describe('message view of FHIR and NCPDP messages', () => {
  let h: MonitorHarness;
  beforeAll(async () => {
    h = await startMonitorHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('places each finding of a FHIR resource and an NCPDP SCRIPT message on its element', async () => {
    const folder = h.folder();
    // `auto`: each file's standard detected, every standard's file names watched
    const created = await h.post('/api/monitor/interfaces', { name: 'mixed', directoryPath: folder, standard: 'auto' });
    expect(created.status, created.text).toBe(201);
    const interfaceId = created.json.data.id as string;
    const patient = JSON.stringify({ resourceType: 'Patient', id: 'p1', gender: 'robot', birthDate: 'yesterday', name: [{ family: 'Doe' }] }, null, 2);
    const script = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Message xmlns="http://www.ncpdp.org/schema/SCRIPT" version="2017071">',
      '<Header><MessageID>SCRIPT1</MessageID><SentTime>2026-01-15T09:12:04Z</SentTime></Header>',
      '<Body><NewRx><Patient><HumanPatient><Name><LastName>DOE</LastName></Name></HumanPatient></Patient></NewRx></Body>',
      '</Message>',
    ].join('\n');
    writeFileSync(join(folder, 'patient.json'), patient);
    writeFileSync(join(folder, 'newrx.xml'), script);
    const items = await waitFor(async () => {
      const page = (await h.get(`/api/monitor/messages?interfaceId=${interfaceId}`)).json.data.items as Array<{ id: string; standard: string }>;
      return page.length === 2 ? page : undefined;
    }, 30_000, 'the FHIR and NCPDP messages');
    expect(items.map((item) => item.standard).sort()).toEqual(['fhir', 'ncpdp']);
    interface Placed {
      path: string;
      position: { start: number; end: number; exact: boolean; element: unknown; segment: unknown };
    }
    // the stored text of the message of a standard, and its findings placed in it (at least one each)
    const placedOf = async (standard: string, raw: string) => {
      const view = (await h.get(`/api/monitor/messages/${items.find((item) => item.standard === standard)!.id}`)).json.data;
      expect(view.raw).toBe(raw);
      const placed = (view.findings as Array<Placed & { position: Placed['position'] | null }>).filter((f): f is Placed => f.position !== null);
      expect(placed.length, `${standard}: ${JSON.stringify(view.findings)}`).toBeGreaterThan(0);
      for (const { position } of placed) {
        expect(position.segment).toBeNull();
        expect(typeof position.element).toBe('string');
      }
      return { placed, findings: view.findings as Array<Placed & { position: Placed['position'] | null }>, at: (f: Placed) => raw.slice(f.position.start, f.position.end) };
    };

    const fhir = await placedOf('fhir', patient);
    for (const finding of fhir.placed) expect(() => JSON.parse(fhir.at(finding)), `${finding.path}: ${fhir.at(finding)}`).not.toThrow();
    // an exact place is the value just after its member's name
    for (const finding of fhir.placed.filter((f) => f.position.exact)) {
      const last = finding.path.split('.').pop()!.replace(/\[\d+\]$/, '');
      expect(patient.slice(Math.max(0, finding.position.start - last.length - 4), finding.position.start)).toContain(`"${last}"`);
    }
    const gender = fhir.placed.find((f) => f.path === 'Patient.gender');
    expect(gender, JSON.stringify(fhir.findings)).toBeDefined();
    expect(fhir.at(gender!)).toBe('"robot"');

    const ncpdp = await placedOf('ncpdp', script);
    // an attribute's place is its value, just after `="`; an element's runs from its start tag
    const onAttribute = (f: Placed) => f.position.exact && f.path.includes('@');
    for (const finding of ncpdp.placed.filter(onAttribute)) expect(script.slice(finding.position.start - 2, finding.position.start)).toMatch(/=["']$/);
    for (const finding of ncpdp.placed.filter((f) => !onAttribute(f))) expect(ncpdp.at(finding).startsWith('<'), `${finding.path}: ${ncpdp.at(finding)}`).toBe(true);
  }, 60_000);
});
