// An ignoredFields entry that matches no path of either message (a typo, most likely) is named in the diff's
// `unmatchedIgnoredFields`, for every standard, over HTTP and by the CLI; entries that match stay out of it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../kernel/cli.ts';
import { UNMATCHED_CHECK_BUDGET, unmatchedPatterns } from '../../kernel/lib/paths/pattern-usage.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';

let wb: TestWorkbench;
const folder = mkdtempSync(join(tmpdir(), 'wb-unmatched-'));
beforeAll(async () => {
  wb = await startTestWorkbench();
});
afterAll(async () => {
  await wb?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function generated(standard: string, messageType: string, seed: number): Promise<string> {
  const response = await wb.call('bridge', { path: '/api/generate', body: { standard, messageType, count: 1, seed } });
  expect(response.status, response.text).toBe(200);
  return response.json.data[0];
}

async function diff(left: string, right: string, ignoredFields: string[]) {
  const response = await wb.call('bridge', { path: '/api/diff', body: { leftMessage: left, rightMessage: right, ignoredFields } });
  expect(response.status, response.text).toBe(200);
  return response.json.data;
}

describe.each([
  { standard: 'hl7', messageType: 'ADT^A01', typo: 'PID.99' },
  { standard: 'fhir', messageType: 'Patient', typo: 'Patient.nmae' },
  { standard: 'ncpdp', messageType: 'NewRx', typo: 'Header.MesageID' },
])('$standard diff', ({ standard, messageType, typo }) => {
  it('names the entries that match nothing, and only those', async () => {
    const left = await generated(standard, messageType, 1);
    const right = await generated(standard, messageType, 2);
    const plain = await diff(left, right, []);
    expect(plain.totalDifferences).toBeGreaterThan(0);
    expect(plain.unmatchedIgnoredFields).toEqual([]);
    // a path the diff itself reported exists in the messages; one that is equal on both sides exists too
    const real = plain.differences[0].field.replace(/\[\d+\]$/, '');
    const result = await diff(left, right, [real, typo, '**.NoSuchElementAnywhere']);
    expect(result.unmatchedIgnoredFields).toEqual([typo, '**.NoSuchElementAnywhere']);
    expect(result.differences.map((d: { field: string }) => d.field)).not.toContain(plain.differences[0].field);
    const same = await diff(left, left, [real]);
    expect(same.totalDifferences).toBe(0);
    expect(same.unmatchedIgnoredFields).toEqual([]);
  });
});

describe('HL7 ignoredFields without an occurrence index', () => {
  it('cover every occurrence; with an index only that one', async () => {
    const left = 'MSH|^~\\&|A|B|C|D|20240101120000||ORU^R01|1|P|2.5\rOBX|1|NM|1^X||5\rOBX|2|NM|2^Y||6\rOBX|3|NM|3^Z||7';
    const right = 'MSH|^~\\&|A|B|C|D|20240101120000||ORU^R01|1|P|2.5\rOBX|1|NM|1^X||50\rOBX|2|NM|2^Y||60\rOBX|3|NM|3^Z||70';
    const fields = (result: { differences: Array<{ field: string }> }) => result.differences.map((d) => d.field);
    expect(fields(await diff(left, right, []))).toEqual(['OBX[1].5', 'OBX[2].5', 'OBX[3].5']);
    expect(fields(await diff(left, right, ['OBX.5']))).toEqual([]);
    expect(fields(await diff(left, right, ['OBX[2].5']))).toEqual(['OBX[1].5', 'OBX[3].5']);
    expect(fields(await diff(left, right, ['OBX[*].5']))).toEqual([]);
  });
});

describe('workbench diff --ignore', () => {
  it('warns on stderr about an entry that matches nothing, keeping the exit code of the diff', async () => {
    const leftFile = join(folder, 'left.hl7');
    const rightFile = join(folder, 'right.hl7');
    writeFileSync(leftFile, 'MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|1|P|2.5\rPID|1||123^^^H^MR||DOE^JOHN\r');
    writeFileSync(rightFile, 'MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01|2|P|2.5\rPID|1||123^^^H^MR||DOE^JANE\r');
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['diff', leftFile, rightFile, '--ignore', 'MSH.10', '--ignore', 'ZPI.1', '--ignore', 'PID.5'], {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('0 difference(s)');
    expect(err.join('\n')).toContain('warning: --ignore "ZPI.1" matches no path of either message');
    expect(err.join('\n')).not.toContain('PID.5');
  });
});

describe('the unmatched-pattern engine', () => {
  const entries = (...texts: string[]) => texts.map((text) => ({ text, pattern: text === 'broken' ? undefined : text }));
  it('stops walking once every pattern matched, and calls a pattern that did not compile unmatched', () => {
    let walked = 0;
    function* paths(): Generator<string> {
      for (let i = 0; i < 1000; i++) {
        walked++;
        yield `p${i}`;
      }
    }
    expect(unmatchedPatterns(entries('p3', 'p5'), paths(), (pattern, path) => pattern === path)).toEqual([]);
    expect(walked).toBe(6);
    expect(unmatchedPatterns(entries('p3', 'broken', 'q'), ['p3'], (pattern, path) => pattern === path)).toEqual(['broken', 'q']);
  });

  it('gives no verdict when its work limit runs out', () => {
    function* endless(): Generator<string> {
      for (;;) yield 'x';
    }
    expect(unmatchedPatterns(entries('never', 'nor'), endless(), () => false, 1000)).toBeUndefined();
    expect(UNMATCHED_CHECK_BUDGET).toBeGreaterThan(100_000);
  });
});
