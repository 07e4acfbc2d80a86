/**
 * Triage answers the finding itself (POST /api/monitor/triage, offline engine): a bad code names the codes allowed,
 * an impossible date says it is impossible, a segment out of order is moved (not added), a required binding gets no
 * "if extensible" fix, an NCPDP fix names the element (SCRIPT path, D.0 field id and name) and its rule, and the
 * fixes after the first answer the failing finding, not warnings the message already carried. None repeats the value
 * found.
 */
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const wb = useTestWorkbench();

const generated = async (messageType: string) => {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType, count: 1, seed: 3 } });
  expect(res.status).toBe(200);
  return res.json.data[0] as string;
};

const triage = async (messageContent: string) => {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/monitor/triage', body: { messageContent } });
  expect(res.status).toBe(200);
  return res.json.data as { category: string; suggestedFixes: Array<{ side: string; field: string; action: string }> };
};

describe('triage fixes from what the finding expected', () => {
  it('names the allowed codes of a bad FHIR code instead of a generic translation', async () => {
    const data = await triage(JSON.stringify({ resourceType: 'Patient', gender: 'mail' }));
    expect(data.category).toBe('wrong-code');
    expect(data.suggestedFixes[0]).toMatchObject({ side: 'sender', field: 'Patient.gender' });
    expect(data.suggestedFixes[0]?.action).toContain('male, female, other, unknown');
    expect(data.suggestedFixes.some((fix) => /Translate the local code/.test(fix.action))).toBe(false);
  });

  it('says an impossible date is impossible, without repeating it', async () => {
    const data = await triage(JSON.stringify({ resourceType: 'Patient', birthDate: '1947-02-30' }));
    expect(data.category).toBe('date-time-format');
    expect(data.suggestedFixes[0]?.field).toBe('Patient.birthDate');
    expect(data.suggestedFixes[0]?.action).toMatch(/impossible date/);
    expect(data.suggestedFixes[0]?.action).toContain('YYYY[-MM[-DD]]');
    expect(JSON.stringify(data)).not.toContain('1947-02-30');
  });

  it('moves a segment out of order instead of adding it', async () => {
    const message = ['MSH|^~\\&|A|B|C|D|20250101||ADT^A01^ADT_A01|1|P|2.5.1', 'EVN|A01|20250101', 'PV1|1|I', 'PID|1||123^^^X^MR||DOE^JANE||19800101|F'].join('\r');
    const data = await triage(message);
    expect(data.category).toBe('structure');
    expect(data.suggestedFixes[0]).toMatchObject({ side: 'sender', field: 'PV1' });
    expect(data.suggestedFixes[0]?.action).toMatch(/^Move PV1 \(now line 3, after EVN\) to its place in the ADT\^A01 structure/);
    expect(data.suggestedFixes.some((fix) => /^Add the PV1/.test(fix.action))).toBe(false);
  });

  it('gives a required binding no "if extensible" fix', async () => {
    const data = await triage(JSON.stringify({ resourceType: 'Observation', status: 'finalx', code: { text: 'x' } }));
    expect(data.category).toBe('wrong-code');
    expect(data.suggestedFixes[0]?.action).toContain('registered, preliminary, final');
    expect(data.suggestedFixes.some((fix) => /extensible/i.test(fix.action))).toBe(false);
    expect(data.suggestedFixes.find((fix) => fix.side === 'receiver')?.action).toMatch(/binding is required/);
  });

  it('names the SCRIPT element and its code list', async () => {
    const rx = await generated('NewRx');
    const data = await triage(rx.replace(/<Gender>[MFU]<\/Gender>/, '<Gender>X</Gender>'));
    expect(data.category).toBe('wrong-code');
    expect(data.suggestedFixes[0]?.action).toBe('Correct SCRIPT element NewRx/Patient/HumanPatient/Gender (rule: its code list: one of M, F, U).');
  });

  it('names the missing SCRIPT element and the rule that requires it', async () => {
    const rx = await generated('NewRx');
    const data = await triage(rx.replace(/<LastName>[^<]*<\/LastName>/, ''));
    expect(data.category).toBe('missing-data');
    expect(data.suggestedFixes[0]?.action).toMatch(/^Send SCRIPT element NewRx\/Patient\/HumanPatient\/Name\/LastName \(Last name\) with a value \(rule: required/);
  });

  it('names the D.0 field id and name of an impossible date, without repeating it', async () => {
    const claim = await generated('B1');
    const data = await triage(claim.replace(/\x1cC4\d{8}/, '\x1cC419590231'));
    expect(data.category).toBe('date-time-format');
    expect(data.suggestedFixes[0]?.action).toBe('D.0 field 304-C4 (Date of Birth) in segment AM01 holds an impossible date or time; send the real one (rule: it must be a real date, CCYYMMDD).');
    expect(JSON.stringify(data)).not.toContain('19590231');
  });

  it('answers the failing finding, not a warning the message already carried', async () => {
    const message = ['MSH|^~\\&|A|B|C|D|20250101||ADT^A01^ADT_A01|1|P|2.5.1', 'EVN|A01|20250101', `PID|1||||DOE^JANE||19800101|F|||${'S'.repeat(300)}`, 'PV1|1|I'].join('\r');
    const validation = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: message, standard: 'hl7', mode: 'compatibility' } });
    const warned = (validation.json.data.warnings as Array<{ field: string }>).map((w) => w.field);
    expect(warned.length).toBeGreaterThan(0);
    const data = await triage(message);
    expect(data.category).toBe('missing-data');
    expect(data.suggestedFixes[0]?.field).toBe('PID.3');
    for (const fix of data.suggestedFixes) expect(warned, fix.action).not.toContain(fix.field);
  });
});
