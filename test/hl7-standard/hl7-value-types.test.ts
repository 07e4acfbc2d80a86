/**
 * OBX-5 read as the data type OBX-2 names, an OBX-2 that is no data type of the version, and timestamps whose
 * fraction of a second lacks its dot.
 */
import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { checkPrimitiveValue } from '../../plugins/hl7-standard/validation/hl7-value-check.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

function oru(version: string, obx: string): string {
  return [
    `MSH|^~\\&|LAB|FAC|EHR|FAC|20240101120000||ORU^R01^ORU_R01|C1|P|${version}`,
    'PID|1||123^^^FAC^MR||DOE^JANE',
    'OBR|1||F1|24331-1^Lipid panel^LN',
    obx,
  ].join('\r');
}

function findings(result: ValidationResult): string[] {
  return [...result.errors, ...result.warnings].map((i) => `${i.severity} ${i.code} ${i.field}`);
}

describe('OBX-5 by OBX-2', () => {
  const cases: Array<[string, string, string]> = [
    ['NM', 'abc', 'not a number'],
    ['NM', '12..5', 'not a number'],
    ['TS', '2024013', 'not a date/time'],
    ['DTM', '20240230', 'not a real date'],
    ['DT', '202401011', 'not a date'],
    ['TM', '2561', 'not a real time'],
    ['SN', '>^abc', 'not a number'],
  ];
  for (const [type, value, reason] of cases) {
    it(`${type} "${value}" is invalid in both modes`, () => {
      for (const mode of ['strict', 'compatibility'] as const) {
        const result = validateHl7(oru('2.5.1', `OBX|1|${type}|2093-3^Cholesterol^LN||${value}||||||F`), { mode });
        const issue = result.errors.find((e) => e.field.startsWith('OBX[1].5'));
        expect(issue?.message, `${type} ${mode}`).toContain(reason);
      }
    });
  }

  it('well-formed values of each type pass', () => {
    for (const [type, value] of [['NM', '-12.5'], ['TS', '20240101120000.1234-0500'], ['SN', '>^100'], ['CWE', '260385009^Negative^SCT'], ['ST', 'a^b is text']]) {
      const result = validateHl7(oru('2.5.1', `OBX|1|${type}|2093-3^Cholesterol^LN||${value}||||||F`), { mode: 'strict' });
      expect(result.errors.filter((e) => e.field.startsWith('OBX[1].5')), `${type} ${value}`).toEqual([]);
    }
  });

  it('an OBX-2 that is no data type of the version is an error in both modes', () => {
    for (const version of ['2.3', '2.5.1', '2.8']) {
      for (const mode of ['strict', 'compatibility'] as const) {
        const result = validateHl7(oru(version, 'OBX|1|XY|2093-3^Cholesterol^LN||12||||||F'), { mode });
        expect(findings(result), `${version} ${mode}`).toContain('error INVALID_DATA_TYPE OBX[1].2');
        expect(result.errors.find((e) => e.field === 'OBX[1].2')?.message).toContain('"XY" is not a data type of ORU^R01');
      }
    }
  });

  it('a type another version defines (CE in v2.7) is an error in strict and a warning in compatibility', () => {
    const content = oru('2.7', 'OBX|1|CE|2093-3^Cholesterol^LN||A^B^LN||||||F');
    expect(findings(validateHl7(content, { mode: 'strict' }))).toContain('error INVALID_DATA_TYPE OBX[1].2');
    expect(findings(validateHl7(content, { mode: 'compatibility' }))).toContain('warning INVALID_DATA_TYPE OBX[1].2');
  });
});

describe('fractional seconds without the dot', () => {
  it('names the likely intended value', () => {
    expect(checkPrimitiveValue('DTM', '20110613122406637')).toEqual({
      code: 'INVALID_DATA_TYPE',
      reason: 'not a valid date/time: the fraction of a second lacks its dot (likely meant "20110613122406.637")',
      tolerable: true,
    });
    expect(checkPrimitiveValue('TS', '20110613122406637-0500')?.reason).toContain('likely meant "20110613122406.637-0500"');
    expect(checkPrimitiveValue('TM', '1224066')?.reason).toContain('likely meant "122406.6"');
  });

  it('keeps impossible dates, too many digits and well-formed values as before', () => {
    expect(checkPrimitiveValue('DTM', '20110231122406637')).toEqual({ code: 'INVALID_DATE', reason: 'not a real date (day 31 of 2011-02)' });
    expect(checkPrimitiveValue('DTM', '2011061312240663712')?.tolerable).toBeUndefined();
    expect(checkPrimitiveValue('DTM', '20110613122406.637')).toBeUndefined();
    expect(checkPrimitiveValue('DTM', '20110613126406637')?.code).toBe('INVALID_DATE');
  });

  it('is an error in strict and a warning in compatibility, at the field', () => {
    const content = oru('2.5.1', 'OBX|1|NM|2093-3^Cholesterol^LN||12||||||F|||20110613122406637');
    expect(findings(validateHl7(content, { mode: 'strict' }))).toEqual(['error INVALID_DATA_TYPE OBX[1].14.1']);
    const compatibility = validateHl7(content, { mode: 'compatibility' });
    expect(compatibility.isValid).toBe(true);
    expect(compatibility.warnings[0]?.message).toBe(
      'OBX[1].14.1 (Date/Time of the Observation - Time) is not a valid date/time: the fraction of a second lacks its dot (likely meant "20110613122406.637"): "20110613122406637".',
    );
  });
});
