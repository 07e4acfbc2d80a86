// POST /api/deidentify through the real HTTP interface, the key file of the data folder, and `workbench deidentify`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { runCli } from '../helpers/cli-process.ts';
import { fhirBundle, scriptNewRx } from './phi-corpus.ts';

const MESSAGE = [
  'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN||20250615120000',
  'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A||19610615|M|||2222 HOME STREET^^GREENSBORO^NC^27401||(555)555-2004|||||ACCT778899|123-45-6789',
  'NK1|1|EVERYMAN^EVE|SPO^SPOUSE|2222 HOME STREET^^GREENSBORO^NC^27401|(555)555-2005',
  'PV1|1|I|2000^2012^01||||004777^ATTEND^AARON^A',
].join('\r');

const PHI = ['EVERYMAN', 'ADAM', 'PATID1234', '19610615', '2222 HOME STREET', 'GREENSBORO', '27401', '555-2004', '555-2005', 'ACCT778899', '123-45-6789', 'ATTEND', 'AARON'];

// A fixed key for the checks of absent values: the pseudonyms are then the same on every run (a random key could, once
// in a while, make a pseudonym that happens to contain an original digit run).
const keyDir = mkdtempSync(join(tmpdir(), 'wb-deid-key-'));
const FIXED_KEY = '3c'.repeat(32) + '\n';
writeFileSync(join(keyDir, 'deidentify.key'), FIXED_KEY, { mode: 0o600 });

let server: TestWorkbench;
beforeAll(async () => {
  server = await startTestWorkbench({ config: { plugins: { deidentify: { keyFile: join(keyDir, 'deidentify.key') } } } });
});
afterAll(async () => {
  await server.stop();
  rmSync(keyDir, { recursive: true, force: true });
});

describe('POST /api/deidentify', () => {
  it('replaces every identifying value, keeps routing and structure, and reports kinds and paths without values', async () => {
    const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: MESSAGE } });
    expect(response.status).toBe(200);
    const { standard, messageContent, report } = response.json.data;
    expect(standard).toBe('hl7');
    // The original values the service collects as needles never reach an answer.
    expect(Object.keys(response.json.data).sort()).toEqual(['messageContent', 'report', 'standard']);
    for (const value of PHI) expect(messageContent).not.toContain(value);
    const lines = messageContent.split('\r');
    expect(lines[0]).toBe(MESSAGE.split('\r')[0]);
    expect(lines.map((line: string) => line.split('|').length)).toEqual(MESSAGE.split('\r').map((line) => line.split('|').length));
    expect(report.byKind).toMatchObject({ name: expect.any(Number), date: expect.any(Number), medicalRecordNumber: 1, ssn: 1, phone: 2 });
    expect(report.replacements).toContainEqual({ path: 'PID.5.1', kind: 'name', count: 1 });
    const reportText = JSON.stringify(report);
    for (const value of PHI) expect(reportText).not.toContain(value);
    const again = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: MESSAGE, standard: 'hl7' } });
    expect(again.json.data.messageContent).toBe(messageContent);
    const validation = await server.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent, standard: 'hl7' } });
    expect(validation.json.data.isValid).toBe(true);
  });

  it('creates its key in the data folder on first use, readable by its owner only', async () => {
    const fresh = await startTestWorkbench();
    try {
      const response = await fresh.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: MESSAGE } });
      expect(response.status).toBe(200);
      const stats = statSync(join(fresh.dataDir, 'deidentify.key'));
      // Windows keeps no POSIX mode bits
      expect(process.platform === 'win32' ? 0o600 : stats.mode & 0o777).toBe(0o600);
      expect(readFileSync(join(fresh.dataDir, 'deidentify.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await fresh.stop();
    }
  });

  it('de-identifies a FHIR resource sent as an object', async () => {
    const patient = {
      resourceType: 'Patient',
      identifier: [{ system: 'http://hospital.example/mrn', value: 'MRN-55501' }],
      name: [{ family: 'Chalmers', given: ['Peter', 'James'] }],
      telecom: [{ system: 'email', value: 'peter.chalmers@mail.example' }],
      birthDate: '1974-12-25',
      address: [{ line: ['534 Erewhon St'], city: 'PleasantVille', postalCode: '3999' }],
    };
    const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: patient } });
    expect(response.status).toBe(200);
    const text = response.json.data.messageContent;
    for (const value of ['MRN-55501', 'Chalmers', 'Peter', 'peter.chalmers', '1974-12-25', 'Erewhon', 'PleasantVille']) expect(text).not.toContain(value);
    expect(JSON.parse(text)).toMatchObject({ resourceType: 'Patient', name: [{ family: expect.any(String) }] });
  });

  it('de-identifies FHIR XML with the rules of FHIR JSON: same pseudonyms and date shift, still valid, structure kept', async () => {
    const xmlPatient = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Patient xmlns="http://hl7.org/fhir">',
      '  <id value="pat1"/>',
      '  <text><status value="generated"/><div xmlns="http://www.w3.org/1999/xhtml"><p>Peter James Chalmers, MRN-55501</p></div></text>',
      '  <identifier><system value="http://hospital.example/mrn"/><value value="MRN-55501"/></identifier>',
      '  <name><family value="Chalmers"/><given value="Peter"/><given value="James"/></name>',
      '  <telecom><system value="email"/><value value="peter.chalmers@mail.example"/></telecom>',
      '  <gender value="male"/>',
      '  <birthDate value="1974-12-25"><extension url="http://hl7.org/fhir/StructureDefinition/patient-birthTime"><valueDateTime value="1974-12-25T14:35:45-05:00"/></extension></birthDate>',
      '  <address><line value="534 Erewhon St &amp; Co"/><city value="PleasantVille"/><postalCode value="3999"/></address>',
      '  <photo><contentType value="image/png"/></photo>',
      '  <generalPractitioner><reference value="Practitioner/7"/><display value="Adam Careful"/></generalPractitioner>',
      '</Patient>',
    ].join('\n');
    const jsonPatient = {
      resourceType: 'Patient',
      id: 'pat1',
      identifier: [{ system: 'http://hospital.example/mrn', value: 'MRN-55501' }],
      name: [{ family: 'Chalmers', given: ['Peter', 'James'] }],
      telecom: [{ system: 'email', value: 'peter.chalmers@mail.example' }],
      gender: 'male',
      birthDate: '1974-12-25',
      address: [{ line: ['534 Erewhon St & Co'], city: 'PleasantVille', postalCode: '3999' }],
    };
    const before = await server.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: xmlPatient, standard: 'fhir' } });
    const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: xmlPatient } });
    expect(response.status).toBe(200);
    const { standard, messageContent: xml, report } = response.json.data;
    expect(standard).toBe('fhir');
    for (const value of ['MRN-55501', 'Chalmers', 'Peter', 'James', 'peter.chalmers', '1974-12-25', 'Erewhon', 'PleasantVille', '3999', 'Adam', 'Careful', 'image/png']) {
      expect(xml).not.toContain(value);
    }
    // Structure: the declaration, element order and what is not identifying stay; the photo is gone.
    expect(xml.split('\n')[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain('<gender value="male"/>');
    // Resource ids and the ids of references are replaced (an id may be built from an MRN), as in FHIR JSON.
    expect(xml).not.toContain('<id value="pat1"/>');
    expect(xml).toMatch(/<reference value="Practitioner\/\d"\/>/);
    expect(xml).not.toContain('<photo>');
    expect(report.byKind).toMatchObject({ name: expect.any(Number), date: 2, otherIdentifier: expect.any(Number), email: 1, photo: 1, freeText: 1 });
    expect(JSON.stringify(report)).not.toContain('Chalmers');
    // The same values get the same pseudonyms and the same date shift as in FHIR JSON.
    const json = JSON.parse((await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: jsonPatient } })).json.data.messageContent);
    expect(xml).toContain(`<family value="${json.name[0].family}"/>`);
    expect(xml).toContain(`<id value="${json.id}"/>`);
    expect(xml).toContain(`<birthDate value="${json.birthDate}">`);
    expect(xml).toContain(`<value value="${json.identifier[0].value}"/>`);
    expect(xml).toContain(`<line value="${json.address[0].line[0].replace('&', '&amp;')}"/>`);
    const after = await server.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: xml, standard: 'fhir' } });
    expect(after.json.data.isValid).toBe(before.json.data.isValid);
    const codes = (result: { json: { data: { errors: Array<{ code: string }> } } }) => result.json.data.errors.map((error) => error.code).sort();
    expect(codes(after)).toEqual(codes(before));
    // A Bundle: the resources inside entry.resource are de-identified too.
    const bundle = `<Bundle xmlns="http://hl7.org/fhir"><type value="collection"/><entry><fullUrl value="urn:uuid:9a1c2f7e-3b0d-4c55-8a54-0f1a2b3c4d5e"/><resource>${xmlPatient.split('\n').slice(1).join('')}</resource></entry></Bundle>`;
    const inBundle = (await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: bundle } })).json.data;
    expect(inBundle.messageContent).not.toContain('Chalmers');
    expect(inBundle.messageContent).toContain(`<family value="${json.name[0].family}"/>`);
    expect(inBundle.report.replacements).toContainEqual(expect.objectContaining({ path: 'Bundle.entry.resource.Patient.name.family' }));
  });

  it('answers 400 naming the field for a missing, empty or wrong-typed messageContent, and for content of no standard', async () => {
    for (const body of [{}, { messageContent: '' }, { messageContent: 42 }, { messageContent: MESSAGE, standard: 'x12' }]) {
      const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.json.error)).toMatch(/messageContent|standard/);
    }
    const unknown = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: 'hello there' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('DEIDENTIFY_STANDARD_UNKNOWN');
    const doctype = await server.call('bridge', {
      method: 'POST',
      path: '/api/deidentify',
      body: { messageContent: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Patient xmlns="http://hl7.org/fhir"><id value="x"/></Patient>', standard: 'fhir' },
    });
    expect(doctype.status).toBe(400);
    expect(doctype.json.error.code).toBe('DEIDENTIFY_CONTENT_UNREADABLE');
    expect(doctype.json.error.message).toMatch(/DOCTYPE/);
    const notResource = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: '<patient><id value="x"/></patient>', standard: 'fhir' } });
    expect(notResource.status).toBe(400);
    expect(notResource.json.error.code).toBe('DEIDENTIFY_CONTENT_UNREADABLE');
    const broken = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: '{"resourceType": "Patient",', standard: 'fhir' } });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe('DEIDENTIFY_CONTENT_UNREADABLE');
    const deep = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent: '['.repeat(5000) + ']'.repeat(5000), standard: 'fhir' } });
    expect(deep.status).toBe(400);
    // Nested too deep inside an object: refused before anything recursive reads it (it was a 500 once).
    const deepInside = await server.call('bridge', {
      method: 'POST',
      path: '/api/deidentify',
      body: { messageContent: `{"resourceType":"Patient","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, standard: 'fhir' },
    });
    expect(deepInside.status).toBe(400);
    expect(deepInside.json.error.code).toBe('DEIDENTIFY_CONTENT_UNREADABLE');
    expect(deepInside.json.error.message).toMatch(/nested deeper than 200 levels/);
  });
});

describe('cities named only in free text', () => {
  const NOTE = 'Lives in Chattanooga; daughter moved to Tulsa, OK. Values in Normal range.';
  const cases = [
    ['HL7 v2 NTE', 'hl7', `${MESSAGE}\rNTE|1||${NOTE}`, 'NTE.3'],
    ['FHIR note.text', 'fhir', fhirBundle(NOTE), 'Bundle.entry.resource.Observation.note.text'],
    ['NCPDP SCRIPT Note', 'ncpdp', scriptNewRx(NOTE), 'Message.Body.NewRx.MedicationPrescribed.Note'],
  ] as const;
  for (const [name, standard, messageContent, path] of cases) {
    it(`${name}: the cities are replaced, the same words in another sense are kept`, async () => {
      expect(messageContent).toContain('Chattanooga');
      const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent, standard } });
      expect(response.status).toBe(200);
      const { messageContent: out, report } = response.json.data;
      expect(out).not.toMatch(/Chattanooga|Tulsa/i);
      expect(out).toContain('Values in Normal range.');
      expect(report.replacements).toContainEqual(expect.objectContaining({ path, kind: 'freeText' }));
    });
  }
});

describe('workbench deidentify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-deid-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const workbench = (...args: string[]) => runCli(join(dir, 'data'), ...args);

  it('writes de-identified copies of a folder, the same patient mapped alike in every file and in every run', () => {
    const input = join(dir, 'in');
    mkdirSync(join(input, 'sub'), { recursive: true });
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'deidentify.key'), FIXED_KEY, { mode: 0o600 });
    writeFileSync(join(input, 'a.hl7'), MESSAGE);
    writeFileSync(join(input, 'sub', 'b.hl7'), MESSAGE.replace('MSG00001', 'MSG00002').replace('ADT^A01^ADT_A01', 'ADT^A08^ADT_A01'));
    const first = workbench('deidentify', input, '--out', join(dir, 'out1'));
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/a\.hl7 -> .*: \d+ replaced \(.*name \d+/);
    const a = readFileSync(join(dir, 'out1', 'in', 'a.hl7'), 'utf8');
    const b = readFileSync(join(dir, 'out1', 'in', 'sub', 'b.hl7'), 'utf8');
    for (const value of PHI) expect(a + b).not.toContain(value);
    const pid = (text: string) => text.split('\r').find((line) => line.startsWith('PID'));
    expect(pid(b)).toBe(pid(a));
    expect(workbench('deidentify', join(input, 'a.hl7'), '--out', join(dir, 'out2')).code).toBe(0);
    expect(readFileSync(join(dir, 'out2', 'a.hl7'), 'utf8')).toBe(a);
  });

  it('reads the NDJSON that generate writes and validate reads: de-identified line by line, written back as NDJSON', () => {
    const generated = workbench('generate', '--standard', 'fhir', '--count', '3', '--seed', '21');
    expect(generated.code).toBe(0);
    const input = join(dir, 'patients.ndjson');
    writeFileSync(input, generated.out);
    const originals = generated.out.trim().split('\n').map((line) => JSON.parse(line));
    const run = workbench('deidentify', input, '--out', join(dir, 'ndjson-out'));
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/patients\.ndjson -> .*: \d+ replaced \(.*name \d+/);
    const output = join(dir, 'ndjson-out', 'patients.ndjson');
    const lines = readFileSync(output, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const [index, line] of lines.entries()) {
      const resource = JSON.parse(line);
      expect(resource.resourceType).toBe('Patient');
      expect(line).not.toContain(originals[index].name[0].family);
    }
    const validated = workbench('validate', output);
    expect(validated.code).toBe(0);
    for (const n of [1, 2, 3]) expect(validated.out).toContain(`patients.ndjson:${n}: valid (HL7 FHIR R4`);
  });

  it('refuses an output folder inside the input (exit 2) and reports a file of no standard (exit 1)', () => {
    const input = join(dir, 'refuse');
    mkdirSync(input, { recursive: true });
    writeFileSync(join(input, 'note.txt'), 'not a message');
    expect(workbench('deidentify', input, '--out', join(input, 'out')).code).toBe(2);
    expect(workbench('deidentify', join(dir, 'missing'), '--out', join(dir, 'o')).code).toBe(2);
    const unknown = workbench('deidentify', input, '--out', join(dir, 'out3'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/note\.txt: .*not recognisable/);
  });
});
