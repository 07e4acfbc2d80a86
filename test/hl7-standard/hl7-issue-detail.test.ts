/**
 * Every HL7 v2 finding says what was expected and what was found: through the real bridge (`POST /api/validate`,
 * whose responses are checked against their schemas) and the `workbench validate` command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { runCli, writeInputFile } from '../helpers/cli-process.ts';

interface Issue {
  field: string;
  code: string;
  expected?: string;
  actual?: string;
}

const BAD = [
  'MSH|^~\\&|A|B|C|D|20250101||ADT^A01^ADT_A01||Q|2.5.1',
  'EVN|A01|20250230',
  `PID|1||123^^^X^MR||DOE^JANE||19801301|F|${'X'.repeat(300)}`,
  'PV1|1|I',
].join('\r');

let wb: TestWorkbench;
const dir = mkdtempSync(join(tmpdir(), 'wb-issue-detail-'));
beforeAll(async () => {
  wb = await startTestWorkbench();
});
afterAll(async () => {
  await wb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function issues(content: string): Promise<Issue[]> {
  const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: content, standard: 'hl7', mode: 'strict' } });
  expect(res.status).toBe(200);
  return [...res.json.data.errors, ...res.json.data.warnings];
}

const at = (list: Issue[], code: string, field: string): Issue | undefined => list.find((i) => i.code === code && i.field === field);

describe('expected and actual of HL7 v2 findings', () => {
  it('names the allowed codes, the format, the requirement and the value found', async () => {
    const list = await issues(BAD);
    expect(at(list, 'VALUE_NOT_IN_TABLE', 'MSH.11.1')).toMatchObject({ expected: 'one of D, P, T (HL7 table 0103)', actual: 'Q' });
    expect(at(list, 'INVALID_DATE', 'EVN.2.1')).toMatchObject({ actual: '20250230' });
    expect(at(list, 'INVALID_DATE', 'EVN.2.1')?.expected).toMatch(/^a real calendar moment, DTM YYYY\[MM\[DD/);
    expect(at(list, 'INVALID_DATE', 'PID.7.1')).toMatchObject({ actual: '19801301' });
    expect(at(list, 'REQUIRED_FIELD_MISSING', 'MSH.10')).toMatchObject({ expected: 'a value', actual: 'empty' });
    const tooLong = list.find((i) => i.code === 'FIELD_TOO_LONG');
    expect(tooLong).toMatchObject({ actual: '300 characters' });
    expect(tooLong?.expected).toMatch(/^at most \d+ characters$/);
  });

  it('bounds the allowed codes of a long table and excerpts a long value', async () => {
    const long = `Q${'9'.repeat(200)}`;
    const list = await issues(`${BAD}\rOBX|1|ST|X^Y^L||v||||||${long}`);
    const event = at(list, 'VALUE_NOT_IN_TABLE', 'OBX[1].11');
    expect(event?.expected).toMatch(/^one of (?:[^,]+, ){9}[^,]+ … and \d+ more \(HL7 table 0085\)$/);
    expect(event?.actual?.startsWith('Q999')).toBe(true);
    expect(event?.actual?.length).toBeLessThan(100);
    expect(event?.actual).toMatch(/… \(\d+ more characters\)$/);
  });

  it('names the count a batch trailer declares and the count found', async () => {
    const header = '|^~\\&|SND|FAC|RCV|RFAC|20250101120000';
    const msg = 'MSH|^~\\&|SND|FAC|RCV|RFAC|20250101120000||ADT^A08^ADT_A01|A1|P|2.5.1\rEVN|A08|20250101120000\rPID|1||1^^^FAC^MR||DOE^JANE\rPV1|1|I';
    const list = await issues([`BHS${header}`, msg, 'BTS|3'].join('\r'));
    expect(at(list, 'BATCH_ENVELOPE_INVALID', 'BTS.1')).toMatchObject({ expected: '3 message(s) in its batch (declared)', actual: '1 message(s) in its batch' });
  });

  it('prints them in workbench validate', () => {
    const bad = writeInputFile(dir, 'bad.hl7', BAD);
    const run = runCli(join(dir, 'data'), 'validate', bad, '--mode', 'strict');
    expect(run.code).toBe(1);
    expect(run.out).toContain('(expected one of D, P, T (HL7 table 0103), found Q)');
    expect(run.out).toMatch(/MSH\.10 .*\(expected a value, found empty\)/);
  });
});
