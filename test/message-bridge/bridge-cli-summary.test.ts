// `workbench validate` over many files ends with a summary line and exits 1 (not 2) for a readable file that holds no
// recognisable message; `workbench diff` names LEFT and RIGHT (the files), not the API's field names.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeInputFile } from '../helpers/cli-process.ts';
import { EXAMPLE_FHIR_PATIENT, EXAMPLE_HL7 } from '../../plugins/message-bridge/bridge-examples.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-cli-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const workbench = (...args: string[]) => runCli(join(dir, 'data'), ...args);

const file = (name: string, content: string) => writeInputFile(dir, name, content);

describe('workbench validate over many files', () => {
  it('ends with a summary line counting valid and invalid files', () => {
    const good = [1, 2].map((n) => file(`good${n}.hl7`, EXAMPLE_HL7));
    const bad = file('bad.hl7', EXAMPLE_HL7.replace('PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR||EVERYMAN^ADAM^A', 'PID|1||'));
    const result = workbench('validate', ...good, bad);
    expect(result.code).toBe(1);
    expect(result.out.trim().split('\n').at(-1)).toBe('3 files, 2 valid, 1 invalid');
    const one = workbench('validate', good[0] as string);
    expect(one.out).not.toMatch(/files, /);
  });

  it('exits 1 for a readable file with no recognisable message, and 2 only for one it cannot read', () => {
    const notes = file('notes.txt', 'these are meeting notes, not a message\n');
    const result = workbench('validate', notes, file('ok.hl7', EXAMPLE_HL7));
    expect(result.code).toBe(1);
    expect(result.out).toContain(`${notes}: INVALID (no recognisable message`);
    expect(result.out.trim().split('\n').at(-1)).toBe('2 files, 1 valid, 1 invalid, 1 of them without a recognisable message');
    const missing = workbench('validate', join(dir, 'nope.hl7'));
    expect(missing.code).toBe(2);
  });
});

describe('workbench diff', () => {
  it('names LEFT and RIGHT by their files', () => {
    const left = file('left.txt', 'not a message at all\n');
    const right = file('right.hl7', EXAMPLE_HL7);
    const unknown = workbench('diff', left, right);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(`LEFT (${left}) is not recognisable`);
    expect(unknown.err).not.toContain('leftMessage');
    const fhir = file('patient.json', JSON.stringify(EXAMPLE_FHIR_PATIENT));
    const differ = workbench('diff', right, fhir);
    expect(differ.err).toContain(`LEFT (${right}) looks like HL7`);
    expect(differ.err).toContain(`RIGHT (${fhir}) looks like`);
    expect(differ.err).not.toContain('rightMessage');
  });
});
