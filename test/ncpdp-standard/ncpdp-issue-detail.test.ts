/**
 * NCPDP findings say what was expected and what was found, through the real bridge (`POST /api/generate` for sound
 * messages, `POST /api/validate` for the defective copies; responses are checked against their schemas).
 */
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

interface Issue {
  field: string;
  code: string;
  expected?: string;
  actual?: string;
}

const wb = useTestWorkbench();

async function generated(messageType: string): Promise<string> {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType, count: 1, seed: 3 } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data[0] as string;
}

async function issues(content: string): Promise<Issue[]> {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: content, standard: 'ncpdp', mode: 'strict' } });
  expect(res.status).toBe(200);
  return [...res.json.data.errors, ...res.json.data.warnings];
}

describe('expected and actual of NCPDP findings', () => {
  it('names the gender codes of SCRIPT', async () => {
    const rx = await generated('NewRx');
    expect(rx).toMatch(/<Gender>[MFU]<\/Gender>/);
    const list = await issues(rx.replace(/<Gender>[MFU]<\/Gender>/, '<Gender>X</Gender>'));
    expect(list.find((i) => i.code === 'VALUE_NOT_IN_TABLE' && i.field.endsWith('.Gender'))).toMatchObject({ expected: 'one of M, F, U', actual: 'X' });
  });

  it('names the format of a Telecommunication date and the allowed transaction codes', async () => {
    const claim = await generated('B1');
    const birth = /\x1cC4(\d{8})/.exec(claim);
    expect(birth).not.toBeNull();
    const list = await issues(claim.replace(`\x1cC4${birth![1]}`, '\x1cC419590231').replace(/^(.{8})B1/, '$1Z9'));
    expect(list.find((i) => i.code === 'INVALID_DATE')).toMatchObject({ expected: 'a real date, CCYYMMDD', actual: '19590231' });
    const code = list.find((i) => i.code === 'VALUE_NOT_IN_TABLE' && i.field === 'Header.A3');
    expect(code).toMatchObject({ actual: 'Z9' });
    expect(code?.expected).toMatch(/^one of B1, B2, B3/);
  });
});
