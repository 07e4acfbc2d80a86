/**
 * Lengths judged by each version's own rules: a warning in both modes (maximum lengths up to v2.6, conformance
 * lengths from v2.7), published lengths too small for the field's own table values widened, profile Z-segment
 * lengths kept as the profile's rules.
 */
import { describe, expect, it } from 'vitest';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

function oru(version: string, obx: string, controlId = 'C1'): string {
  return [
    `MSH|^~\\&|LAB|FAC|EHR|FAC|20240101120000||ORU^R01^ORU_R01|${controlId}|P|${version}`,
    'PID|1||123^^^FAC^MR||DOE^JANE',
    'OBR|1||F1|24331-1^Lipid panel^LN',
    obx,
  ].join('\r');
}

describe('FIELD_TOO_LONG', () => {
  it('OBX-2 "CWE" fits in v2.5 and v2.5.1 although their published length is 2', () => {
    for (const version of ['2.5', '2.5.1']) {
      const result = validateHl7(oru(version, 'OBX|1|CWE|94500-6^SARS-CoV-2 RNA^LN||260415000^Not detected^SCT||||||F'), { mode: 'strict' });
      expect([...result.errors, ...result.warnings], version).toEqual([]);
    }
  });

  it('is a warning in both modes, naming a maximum length up to v2.6', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validateHl7(oru('2.5.1', 'OBX|1|NM|2093-3^Cholesterol^LN||182||||||F', 'X'.repeat(25)), { mode });
      expect(result.isValid).toBe(true);
      expect(result.warnings).toEqual([
        {
          field: 'MSH.10',
          code: 'FIELD_TOO_LONG',
          severity: 'warning',
          message: 'MSH.10 (Message Control ID) is 25 characters long; ORU^R01 v2.5.1 publishes a maximum of 20, beyond which a receiver may truncate it.',
          expected: 'at most 20 characters',
          actual: '25 characters',
        },
      ]);
    }
  });

  it('names the conformance length from v2.7 on', () => {
    const result = validateHl7(oru('2.7.1', 'OBX|1|NM|2093-3^Cholesterol^LN||182||||||F', 'X'.repeat(200)), { mode: 'strict' });
    expect(result.errors).toEqual([]);
    expect(result.warnings[0]?.message).toMatch(/^MSH\.10 \(Message Control ID\) is 200 characters long, over its conformance length of \d+ in ORU\^R01 v2\.7\.1; a receiver may truncate it\.$/);
  });
});
