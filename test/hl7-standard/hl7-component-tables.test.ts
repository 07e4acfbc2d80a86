/**
 * Tables on components: ID components (XPN-7, XAD-7, XTN-2/3, HD-3, CX-5...) against their HL7 tables, coding
 * systems (CE/CWE/CNE components 3 and 6) against table 0396 with its local and pattern entries, and free text
 * where an observation value's coding system belongs, which no receiver can interpret.
 */
import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { isHl7CodingSystem } from '../../plugins/hl7-standard/hl7-coding-systems.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

function oru(version: string, pid: string, obx: string): string {
  return [
    `MSH|^~\\&|LAB|FAC|EHR|FAC|20240101120000||ORU^R01^ORU_R01|C1|P|${version}`,
    pid,
    'OBR|1||F1|24331-1^Lipid panel^LN',
    obx,
  ].join('\r');
}

const PID = 'PID|1||123^^^FAC^MR||DOE^JANE';
const OBX = 'OBX|1|NM|2093-3^Cholesterol^LN||182||||||F';

function tableFindings(result: ValidationResult): string[] {
  return [...result.errors, ...result.warnings].filter((i) => i.code === 'VALUE_NOT_IN_TABLE').map((i) => `${i.severity} ${i.field}`);
}

describe('HL7-defined tables of components', () => {
  it('flags each component outside its table: error in strict, warning in compatibility', () => {
    const pid = 'PID|1||123^^^FAC&1.2.3&BAD^QQ~456^^^FAC^MR||DOE^JANE^^^^^Q||||||1 Main St^^Town^ST^12345^^Z||^ZZZ^YY';
    const expected = ['PID[1].3.4.3', 'PID[1].3.5', 'PID[1].5.7', 'PID[1].11.7', 'PID[1].13.2', 'PID[1].13.3'];
    for (const version of ['2.5', '2.5.1', '2.6', '2.7.1']) {
      const strict = validateHl7(oru(version, pid, OBX), { mode: 'strict' });
      expect(tableFindings(strict), version).toEqual(expected.map((path) => `error ${path}`));
      const compatibility = validateHl7(oru(version, pid, OBX), { mode: 'compatibility' });
      expect(tableFindings(compatibility), version).toEqual(expected.map((path) => `warning ${path}`));
      expect(compatibility.isValid).toBe(true);
    }
    const message = validateHl7(oru('2.5.1', pid, OBX), { mode: 'strict' }).errors.find((e) => e.field === 'PID[1].13.2')?.message;
    expect(message).toBe('PID[1].13.2 (Phone Number - Home - Telecommunication Use Code) value "ZZZ" is not in HL7 table 0201 for ORU^R01 v2.5.1.');
  });

  it('values in their tables pass', () => {
    const pid = 'PID|1||123^^^FAC&1.2.3&ISO^MR||DOE^JANE^^^^^L||||||1 Main St^^Town^ST^12345^^H||^PRN^PH';
    expect(tableFindings(validateHl7(oru('2.5.1', pid, OBX), { mode: 'strict' }))).toEqual([]);
  });

  it('follows the version: CX-5 is IS (user-defined) in v2.3, so any identifier type passes there', () => {
    expect(tableFindings(validateHl7(oru('2.3', 'PID|1||123^^^FAC^QQ||DOE^JANE', OBX), { mode: 'strict' }))).toEqual([]);
    expect(tableFindings(validateHl7(oru('2.4', 'PID|1||123^^^FAC^QQ||DOE^JANE', OBX), { mode: 'strict' }))).toEqual(['error PID[1].3.5']);
  });
});

describe('coding systems (table 0396)', () => {
  it('accepts listed systems, local ones (99..., L) and the pattern entries', () => {
    for (const ok of ['LN', 'SCT', 'RXNORM', 'CDCPHINVS', 'NIP001', 'UCUM', 'L', '99LOCAL', '99zzz', 'HL70136', 'ISO3166', 'IBT0001']) {
      expect(isHl7CodingSystem(ok), ok).toBe(true);
    }
    for (const bad of ['SNOMED', 'LOINC', 'HL7nnnn', 'some text', 'XYZ', '']) expect(isHl7CodingSystem(bad), bad).toBe(false);
  });

  it('components 3 and 6 of coded values: error in strict, warning in compatibility', () => {
    const obx = 'OBX|1|NM|2093-3^Cholesterol^LOINC^C1^Chol^SNOMED||182||||||F';
    expect(tableFindings(validateHl7(oru('2.5.1', PID, obx), { mode: 'strict' }))).toEqual(['error OBX[1].3.3', 'error OBX[1].3.6']);
    expect(tableFindings(validateHl7(oru('2.5.1', PID, obx), { mode: 'compatibility' }))).toEqual(['warning OBX[1].3.3', 'warning OBX[1].3.6']);
  });

  it('in v2.3 and v2.4 the data types name no table for the coding system: not checked outside OBX-5', () => {
    const obx = 'OBX|1|NM|2093-3^Cholesterol^LOINC||182||||||F';
    expect(tableFindings(validateHl7(oru('2.3', PID, obx), { mode: 'strict' }))).toEqual([]);
    expect(tableFindings(validateHl7(oru('2.4', PID, obx), { mode: 'strict' }))).toEqual([]);
  });

  it('free text where an observation value names its coding system is invalid in both modes, every version', () => {
    for (const version of ['2.3', '2.4', '2.5.1', '2.6', '2.7', '2.8']) {
      const type = ['2.3', '2.4'].includes(version) ? 'CE' : 'CWE';
      const obx = `OBX|1|${type}|94500-6^SARS-CoV-2 RNA^LN||Not detected^^some text||||||F`;
      for (const mode of ['strict', 'compatibility'] as const) {
        const result = validateHl7(oru(version, PID, obx), { mode });
        expect(tableFindings(result), `${version} ${mode}`).toEqual(['error OBX[1].5.3']);
        expect(result.isValid).toBe(false);
      }
    }
    const issue = validateHl7(oru('2.5.1', PID, 'OBX|1|CWE|94500-6^SARS-CoV-2 RNA^LN||Not detected^^some text||||||F'), { mode: 'compatibility' }).errors[0];
    expect(issue?.message).toBe(
      'OBX[1].5.3 (Observation Value - Name of Coding System) holds text, "some text", where the name of a coding system (HL7 table 0396) belongs, so a receiver cannot interpret the code.',
    );
  });

  it('a coded observation value with a real coding system is fine', () => {
    const obx = 'OBX|1|CE|94500-6^SARS-CoV-2 RNA^LN||260415000^Not detected^SCT||||||F';
    expect(validateHl7(oru('2.5.1', PID, obx), { mode: 'strict' }).errors).toEqual([]);
  });
});
