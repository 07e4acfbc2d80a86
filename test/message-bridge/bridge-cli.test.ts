// `workbench validate|diff|generate` through the real CLI entry (a child process), exit codes included.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeInputFile } from '../helpers/cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-bridge-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const workbench = (...args: string[]) => runCli(join(dir, 'data'), ...args);

const file = (name: string, content: string) => writeInputFile(dir, name, content);

describe('workbench generate, validate, diff', () => {
  it('generates reproducibly, validates the output (exit 0) and flags an invalid file (exit 1)', () => {
    const generated = workbench('generate', '--type', 'ADT^A04', '--version', '2.5.1', '--count', '2', '--seed', '7', '--reference-time', '2026-03-02T08:00:00Z');
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(/^MSH\|/);
    expect(workbench('generate', '--type', 'ADT^A04', '--version', '2.5.1', '--count', '2', '--seed', '7', '--reference-time', '2026-03-02T08:00:00Z').out).toBe(
      generated.out,
    );
    const [first] = generated.out.split(/(?=MSH\|)/);
    const good = file('good.hl7', first!);
    const bad = file('bad.hl7', 'MSH|^~\\&|A|B|C|D|20250101||ADT^A01^ADT_A01||P|2.5.1\rPID|1||123^^^X^MR||\r');
    const ok = workbench('validate', good);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/good\.hl7: valid/);
    const both = workbench('validate', good, bad, '--mode', 'strict');
    expect(both.code).toBe(1);
    expect(both.out).toMatch(/bad\.hl7: INVALID/);
    expect(both.out).toMatch(/MSH\.10/);
    const json = JSON.parse(workbench('validate', bad, '--json').out);
    expect(json[0]).toMatchObject({ file: bad, standard: 'hl7', isValid: false });
  });

  it('diffs two files, honouring --ignore (exit 1 when they differ, 0 when not)', () => {
    const left = file('left.hl7', 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|1|P|2.5\rPID|||123^^^MRN||DOE^JANE');
    const right = file('right.hl7', 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|2|P|2.5\rPID|||123^^^MRN||DOE^JOAN');
    const diff = workbench('diff', left, right);
    expect(diff.code).toBe(1);
    expect(diff.out).toMatch(/2 difference\(s\)/);
    expect(diff.out).toMatch(/PID\.5\.2/);
    expect(workbench('diff', left, right, '--ignore', 'MSH.10', '--ignore', 'PID.5').code).toBe(0);
  });

  it('reports bad usage with exit code 2', () => {
    expect(workbench('validate').code).toBe(2);
    expect(workbench('generate', '--count', '500').code).toBe(2);
    const unknownType = workbench('generate', '--type', 'ZZZ^Z01');
    expect(unknownType.code).toBe(2);
    expect(unknownType.err).toMatch(/ZZZ\^Z01/);
    const missing = workbench('validate', join(dir, 'missing.hl7'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('missing.hl7: cannot read (ENOENT)');
    expect(workbench('diff', join(dir, 'missing.hl7'), join(dir, 'missing.hl7')).code).toBe(2);
  });

  it('refuses seeds outside 0..4294967295 (exit 2, naming the range)', () => {
    expect(workbench('generate', '--seed', '4294967295').code).toBe(0);
    for (const seed of ['-1', '4294967296', '1.5']) {
      const refused = workbench('generate', `--seed=${seed}`);
      expect(refused.code, seed).toBe(2);
      expect(refused.err, seed).toContain('--seed must be a whole number from 0 to 4294967295');
    }
  });

  it('refuses ignore patterns over the limits (exit 2, naming them)', () => {
    const left = file('limits-left.hl7', 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|1|P|2.5\rPID|||123^^^MRN||DOE^JANE');
    const right = file('limits-right.hl7', 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|2|P|2.5\rPID|||123^^^MRN||DOE^JOAN');
    const long = workbench('diff', left, right, '--ignore', 'MSH.10', '--ignore', `PID.${'*.'.repeat(200)}5`);
    expect(long.code).toBe(2);
    expect(long.err).toContain('ignoredFields[1] is 405 characters long; a pattern may have at most 256.');
    const many = workbench('diff', left, right, ...Array.from({ length: 101 }, () => ['--ignore', 'MSH.10']).flat());
    expect(many.code).toBe(2);
    expect(many.err).toContain('ignoredFields holds 101 patterns; at most 100 are accepted.');
  });

  it('lists at most plugins.message-bridge.maxIssues findings and says how many more were counted', () => {
    const config = file('bounded.json', JSON.stringify({ plugins: { 'message-bridge': { maxIssues: 3 } } }));
    const zSegments = Array.from({ length: 10 }, (_, i) => `ZZZ|${i}`).join('\r');
    const message = file('bounded.hl7', `MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08^ADT_A01|1|P|2.5\rEVN|A08|20250101\rPID|||123^^^MRN||DOE^JANE\rPV1|1|O\r${zSegments}`);
    const result = workbench('validate', message, '--config', config);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/INVALID \(HL7 v2, strict; 10 error\(s\), 0 warning\(s\)\)/);
    expect(result.out.match(/SEGMENT_UNEXPECTED/g)).toHaveLength(3);
    expect(result.out).toContain('... and 7 more issue(s) not listed (plugins.message-bridge.maxIssues is 3)');
  });

  it('prints the details the API gives with a request error (the supported types)', () => {
    const unknownType = workbench('generate', '--type', 'ZZZ^Z01');
    expect(unknownType.code).toBe(2);
    expect(unknownType.err).toContain('ADT^A01');
    expect(unknownType.err).toContain('ORU^R01');
    const fhirType = workbench('generate', '--standard', 'fhir', '--type', 'Spaceship');
    expect(fhirType.err).toContain('Patient');
  });

  it('writes HL7 v2 with CR segment ends, as the API does, several messages one batch that validate reads whole', () => {
    const generated = workbench('generate', '--type', 'ADT^A01', '--count', '3', '--seed', '5');
    expect(generated.code).toBe(0);
    // the only line feed is the one the terminal gets after the last segment end
    expect(generated.out.slice(0, -1)).not.toContain('\n');
    expect(generated.out.endsWith('\r\n')).toBe(true);
    const segments = generated.out.slice(0, -2).split('\r');
    expect(segments.filter((segment) => segment.startsWith('MSH|'))).toHaveLength(3);
    for (const segment of segments) expect(segment).toMatch(/^[A-Z][A-Z0-9]{2}\|/);
    const batch = file('batch.hl7', generated.out);
    const validated = workbench('validate', batch, '--json');
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.out)[0].summary.messageCount).toBe(3);
  });

  it('writes several FHIR resources as NDJSON that validate reads back, one result a line', () => {
    const generated = workbench('generate', '--standard', 'fhir', '--count', '3', '--seed', '11');
    expect(generated.code).toBe(0);
    const lines = generated.out.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(JSON.parse(line).resourceType).toBe('Patient');
    const ndjson = file('patients.ndjson', generated.out);
    const validated = workbench('validate', ndjson);
    expect(validated.code).toBe(0);
    for (const n of [1, 2, 3]) expect(validated.out).toContain(`patients.ndjson:${n}: valid (HL7 FHIR R4`);
    const wrongGender = JSON.stringify({ ...JSON.parse(lines[1]), gender: 'yes' });
    const broken = file('broken.ndjson', `${lines[0]}\n\n${wrongGender}\n`);
    const invalid = workbench('validate', broken, '--json');
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.out).map((r: { line: number; isValid: boolean }) => [r.line, r.isValid])).toEqual([
      [1, true],
      [3, false],
    ]);
  });

  it('answers a cross-standard diff as the API does (STANDARDS_DIFFER)', () => {
    const hl7 = file('one.hl7', 'MSH|^~\\&|A|B|C|D|20250101120000||ADT^A08|1|P|2.5\rPID|||123^^^MRN||DOE^JANE');
    const fhir = file('one.json', JSON.stringify({ resourceType: 'Patient', id: 'x' }));
    const diff = workbench('diff', hl7, fhir);
    expect(diff.code).toBe(2);
    expect(diff.err).toContain(`LEFT (${hl7}) looks like HL7 v2 but RIGHT (${fhir}) looks like HL7 FHIR R4`);
  });
});
