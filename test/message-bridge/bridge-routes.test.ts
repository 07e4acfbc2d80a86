// The bridge's message routes through real HTTP, as one contract run over every registered standard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';

let wb: TestWorkbench;
let standards: Array<{ id: string; versions: string[]; defaultVersion: string; messageTypes: string[] }>;

const post = (path: string, body: unknown) => wb.call('bridge', { path, body });

beforeAll(async () => {
  wb = await startTestWorkbench();
  standards = (await wb.call('bridge', { path: '/api/standards' })).json.data;
});
afterAll(() => wb.stop());

describe('every registered standard', () => {
  it('registers hl7, fhir and ncpdp', () => {
    expect(standards.map((s) => s.id).sort()).toEqual(['fhir', 'hl7', 'ncpdp']);
  });

  it('generates seeded messages that are detected, validate with zero errors in strict mode and diff clean', async () => {
    for (const standard of standards) {
      const generated = await post('/api/generate', { standard: standard.id, count: 3, seed: 4242, referenceTime: '2026-03-02T08:00:00Z' });
      expect(generated.status, standard.id).toBe(200);
      expect(generated.json.data).toHaveLength(3);
      const again = await post('/api/generate', { standard: standard.id, count: 3, seed: 4242, referenceTime: '2026-03-02T08:00:00Z' });
      expect(again.json.data, `${standard.id} is reproducible`).toEqual(generated.json.data);
      for (const message of generated.json.data as string[]) {
        const validated = await post('/api/validate', { messageContent: message });
        expect(validated.status).toBe(200);
        expect(validated.json.data.standard, 'detected').toBe(standard.id);
        expect(validated.json.data.errors, `${standard.id} strict errors`).toEqual([]);
        expect(validated.json.data.isValid).toBe(true);
        const diffed = await post('/api/diff', { leftMessage: message, rightMessage: message });
        expect(diffed.json.data.totalDifferences).toBe(0);
      }
      const [first, second] = generated.json.data as string[];
      const diffed = await post('/api/diff', { leftMessage: first, rightMessage: second, standard: standard.id });
      expect(diffed.json.data.totalDifferences).toBeGreaterThan(0);
      expect(diffed.json.data.totalDifferences).toBe(diffed.json.data.differences.length);
    }
  });

  it('refuses an unknown message type with 400 naming it', async () => {
    for (const standard of standards) {
      const res = await post('/api/generate', { standard: standard.id, messageType: 'NOPE^X99' });
      expect(res.status, standard.id).toBe(400);
      expect(res.json.error.code).toBe('UNKNOWN_MESSAGE_TYPE');
      expect(res.json.error.message).toContain('NOPE^X99');
    }
  });

  it('gives fresh output without a seed', async () => {
    const a = await post('/api/generate', { count: 1 });
    const b = await post('/api/generate', { count: 1 });
    expect(a.json.data[0]).not.toEqual(b.json.data[0]);
  });
});

describe('POST /api/validate', () => {
  const invalidHl7 =
    'MSH|^~\\&|SND|FAC|RCV|FAC|20250101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1\rEVN|A01|20250101120000\rPID|1||12345^^^FAC^MR||\rPV1|1|I';

  it('answers success true with isValid false and a named finding for an invalid message', async () => {
    const res = await post('/api/validate', { messageContent: invalidHl7 });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.isValid).toBe(false);
    const finding = res.json.data.errors.find((e: { field: string }) => e.field === 'PID.5');
    expect(finding).toMatchObject({ code: 'REQUIRED_FIELD_MISSING', severity: 'error' });
    expect(finding.message).toMatch(/PID\.5 \(Patient Name\) is required/);
    expect(finding).not.toHaveProperty('position');
  });

  it('places each finding in the text when asked (positions: true), for HL7 and FHIR XML alike', async () => {
    const hl7 = (await post('/api/validate', { messageContent: invalidHl7, positions: true })).json.data;
    const name = hl7.errors.find((e: { field: string }) => e.field === 'PID.5');
    // PID.5 is empty: its place is just after the separator that opens it
    const at = invalidHl7.indexOf('PID|') + 'PID|1||12345^^^FAC^MR||'.length;
    expect(name.position).toMatchObject({ segmentIndex: 2, segment: 'PID', field: 5, start: at, end: at, exact: true });
    const xml = '<Patient xmlns="http://hl7.org/fhir"><gender value="robot"/></Patient>';
    const fhir = (await post('/api/validate', { messageContent: xml, positions: true })).json.data;
    const gender = fhir.errors.find((e: { field: string }) => e.field.startsWith('Patient.gender'));
    expect(gender.position.element).toMatch(/^Patient\.gender/);
    expect(xml.slice(gender.position.start, gender.position.end)).toContain('robot');
    // content of several messages is not placed: a path names a place in one message
    const two = (await post('/api/validate', { messageContent: `${invalidHl7}\r${invalidHl7.replace('CTRL1', 'CTRL2')}`, positions: true })).json.data;
    expect(two.errors.every((e: { position: unknown }) => e.position === null)).toBe(true);
    expect((await post('/api/validate', { messageContent: invalidHl7, positions: 'yes' })).status).toBe(400);
  });

  it('detects HL7 after a BOM, MLLP framing or leading whitespace', async () => {
    for (const content of [`\uFEFF${invalidHl7}`, `\x0b${invalidHl7}\x1c\r`, `\n  ${invalidHl7}`]) {
      const res = await post('/api/validate', { messageContent: content });
      expect(res.status).toBe(200);
      expect(res.json.data.standard).toBe('hl7');
    }
  });

  it('answers 400 STANDARD_NOT_DETECTED for content of no standard', async () => {
    const res = await post('/api/validate', { messageContent: 'hello, this is not a message' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('STANDARD_NOT_DETECTED');
    expect(res.json.error.message).toContain('messageContent');
  });

  it('answers 400 naming the field for missing or empty content, a bad mode or an unknown standard', async () => {
    const missing = await post('/api/validate', {});
    expect(missing.status).toBe(400);
    expect(missing.json.error.details[0].path).toBe('messageContent');
    const empty = await post('/api/validate', { messageContent: '' });
    expect(empty.json.error.details[0].path).toBe('messageContent');
    const mode = await post('/api/validate', { messageContent: invalidHl7, mode: 'lenient' });
    expect(mode.json.error.details[0].path).toBe('mode');
    const unknown = await post('/api/validate', { messageContent: invalidHl7, standard: 'x12' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('UNKNOWN_STANDARD');
  });

  it('answers 400 for a profile that is not loaded', async () => {
    const res = await post('/api/validate', { messageContent: invalidHl7, profile: 'no-such-profile' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('PROFILE_NOT_FOUND');
  });
});

describe('POST /api/generate', () => {
  it('defaults to one ADT^A01 v2.3 HL7 message with segments separated by carriage returns', async () => {
    const res = await post('/api/generate', {});
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    const message: string = res.json.data[0];
    expect(message.startsWith('MSH|^~\\&|')).toBe(true);
    expect(message).not.toContain('\n');
    const msh = message.split('\r')[0].split('|');
    expect(msh[8]).toMatch(/^ADT\^A01/);
    expect(msh[11]).toBe('2.3');
  });

  it.each([
    [{ count: 0 }, 'count'],
    [{ count: 101 }, 'count'],
    [{ count: 1.5 }, 'count'],
    [{ hl7Version: '2.2' }, 'hl7Version'],
    [{ hl7Version: '2.9' }, 'hl7Version'],
    [{ seed: 'abc' }, 'seed'],
    [{ messageType: '' }, 'messageType'],
  ])('answers 400 for %j naming %s', async (body, field) => {
    const res = await post('/api/generate', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_FAILED');
    expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 400 UNKNOWN_STANDARD for an unknown standard', async () => {
    const res = await post('/api/generate', { standard: 'edifact' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('UNKNOWN_STANDARD');
  });

  it('generates 100 messages at the limit', async () => {
    const res = await post('/api/generate', { count: 100, seed: 1 });
    expect(res.json.data).toHaveLength(100);
  });
});

describe('POST /api/diff', () => {
  it('compares after parsing and honours ignoredFields', async () => {
    const left = 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|1|P|2.5\rPID|||123^^^MRN|||';
    const right = 'MSH|^~\\&|A|B|C|D|20250102120000||ADT^A08|2|P|2.5\rPID|||123^^^MRN';
    const all = await post('/api/diff', { leftMessage: left, rightMessage: right });
    expect(all.json.data.differences.map((d: { field: string }) => d.field).sort()).toEqual(['MSH.10', 'MSH.7']);
    expect(all.json.data.differences.every((d: { changeType: string }) => d.changeType === 'modified')).toBe(true);
    const ignored = await post('/api/diff', { leftMessage: left, rightMessage: right, ignoredFields: ['MSH.7', 'MSH.10'] });
    expect(ignored.json.data).toMatchObject({ totalDifferences: 0, ignoredFields: ['MSH.7', 'MSH.10'] });
  });

  it('answers 400 naming the missing side', async () => {
    const res = await post('/api/diff', { leftMessage: 'MSH|^~\\&|A' });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe('rightMessage');
  });

  it('refuses messages of two standards', async () => {
    const hl7 = 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|1|P|2.5';
    const fhir = JSON.stringify({ resourceType: 'Patient', id: 'p1' });
    const res = await post('/api/diff', { leftMessage: hl7, rightMessage: fhir });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('STANDARDS_DIFFER');
  });
});

describe('GET /api/profiles and /api/describe', () => {
  it('lists loaded profiles of every standard', async () => {
    const res = await wb.call('bridge', { path: '/api/profiles' });
    expect(res.status).toBe(200);
    const standardsWithProfiles = new Set(res.json.data.map((p: { standard: string }) => p.standard));
    expect(standardsWithProfiles.has('hl7')).toBe(true);
    expect(standardsWithProfiles.has('fhir')).toBe(true);
  });

  it('describes a field and answers 404 for an unknown one', async () => {
    const res = await wb.call('bridge', { path: '/api/describe?standard=hl7&path=PID.5&version=2.5.1' });
    expect(res.status).toBe(200);
    expect(res.json.data.name).toMatch(/Patient Name/);
    const unknown = await wb.call('bridge', { path: '/api/describe?standard=hl7&path=QQQ.99' });
    expect(unknown.status).toBe(404);
  });
});

describe('hostile XML', () => {
  it('detects a SCRIPT message behind a DOCTYPE and refuses the DOCTYPE as a parse error', async () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE Message [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Message><Header/><Body>&xxe;</Body></Message>';
    const res = await post('/api/validate', { messageContent: xxe });
    expect(res.status).toBe(200);
    expect(res.json.data.standard).toBe('ncpdp');
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors[0].code).toBe('PARSE_ERROR');
    expect(res.text).not.toContain('root:');
  });
});
