import { describe, expect, it } from 'vitest';
import type { ValidationIssue, ValidationResult } from '../../kernel/standards-registry.ts';
import { HL7_ISSUE_CODES } from '../../plugins/hl7-standard/validation/hl7-issue-messages.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

/** A valid ADT^A01 v2.5.1 (segments given as lines). */
const BASE = [
  'MSH|^~\\&|SENDER|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1',
  'EVN|A01|20240101120000',
  'PID|1||111^^^HOSP^MR||DOE^JANE||19800101|F',
  'PV1|1|I|WARD^101^A',
];

function message(edit: (lines: string[]) => string[] = (l) => l): string {
  return edit([...BASE]).join('\r');
}

/** Sets SEG-n of a segment line (for MSH, MSH-1 is the separator itself, so MSH-n is at split index n - 1). */
function replaceField(line: string, field: number, value: string): string {
  const parts = line.split('|');
  const index = line.startsWith('MSH') ? field - 1 : field;
  while (parts.length <= index) parts.push('');
  parts[index] = value;
  return parts.join('|');
}

function codes(result: ValidationResult, severity: 'error' | 'warning' = 'error'): string[] {
  return (severity === 'error' ? result.errors : result.warnings).map((i) => `${i.code}@${i.field}`);
}

function find(result: ValidationResult, code: string): ValidationIssue | undefined {
  return [...result.errors, ...result.warnings].find((i) => i.code === code);
}

describe('validateHl7: a valid message', () => {
  it('has no findings in either mode', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validateHl7(message(), { mode });
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.isValid).toBe(true);
      expect(result.summary).toMatchObject({ messageType: 'ADT^A01', version: '2.5.1', structure: 'ADT_A01' });
    }
  });
});

describe('validateHl7: one test per issue code', () => {
  it('REQUIRED_FIELD_MISSING names the field, the message type and the version', () => {
    const result = validateHl7(message((l) => [l[0], l[1], replaceField(l[2] as string, 5, ''), l[3]] as string[]), { mode: 'strict' });
    expect(codes(result)).toEqual(['REQUIRED_FIELD_MISSING@PID.5']);
    expect(result.errors[0]?.message).toBe('PID.5 (Patient Name) is required in ADT^A01 v2.5.1 but is empty.');
    expect(validateHl7(message((l) => [replaceField(l[0] as string, 10, ''), ...l.slice(1)]), { mode: 'compatibility' }).errors[0]?.field).toBe('MSH.10');
  });

  it('REQUIRED_FIELD_MISSING for a required component of a composite is an error in strict, a warning in compatibility', () => {
    const edit = (l: string[]) => [l[0], l[1], replaceField(l[2] as string, 3, '^^^HOSP^MR'), l[3]] as string[];
    expect(codes(validateHl7(message(edit), { mode: 'strict' }))).toEqual(['REQUIRED_FIELD_MISSING@PID.3.1']);
    expect(codes(validateHl7(message(edit), { mode: 'compatibility' }), 'warning')).toEqual(['REQUIRED_FIELD_MISSING@PID.3.1']);
  });

  it('SEGMENT_MISSING for a required segment', () => {
    const result = validateHl7(message((l) => [l[0], l[2], l[3]] as string[]), { mode: 'compatibility' });
    expect(codes(result)).toEqual(['SEGMENT_MISSING@EVN']);
    expect(result.errors[0]?.message).toMatch(/EVN \(Event type\) is required in ADT\^A01 v2\.5\.1/);
  });

  it('SEGMENT_UNEXPECTED for a Z-segment (strict error, compatibility warning) and a foreign segment', () => {
    const z = message((l) => [...l, 'ZPI|1|X']);
    expect(codes(validateHl7(z, { mode: 'strict' }))).toEqual(['SEGMENT_UNEXPECTED@ZPI']);
    expect(validateHl7(z, { mode: 'compatibility' }).isValid).toBe(true);
    expect(codes(validateHl7(z, { mode: 'compatibility' }), 'warning')).toEqual(['SEGMENT_UNEXPECTED@ZPI']);
    const foreign = message((l) => [...l, 'TXA|1|CN']);
    expect(codes(validateHl7(foreign, { mode: 'strict' }))).toContain('SEGMENT_UNEXPECTED@TXA');
  });

  it('SEGMENT_OUT_OF_ORDER for a known segment in the wrong place', () => {
    const result = validateHl7(message((l) => [l[0], l[1], l[2], l[3], 'PD1|||CLINIC']), { mode: 'strict' });
    expect(codes(result)).toEqual(['SEGMENT_OUT_OF_ORDER@PD1']);
  });

  it('TOO_MANY_REPETITIONS for a field and for a non-repeating segment', () => {
    const field = validateHl7(message((l) => [l[0], l[1], replaceField(l[2] as string, 7, '19800101~19800102'), l[3]] as string[]), { mode: 'strict' });
    expect(codes(field)).toEqual(['TOO_MANY_REPETITIONS@PID.7']);
    const segment = validateHl7(message((l) => [l[0], l[1], l[2], l[3], l[3]] as string[]), { mode: 'strict' });
    expect(codes(segment)).toEqual(['TOO_MANY_REPETITIONS@PV1[2]']);
  });

  it('FIELD_TOO_LONG is a warning in both modes (a receiver may truncate, the standard gives no right to reject)', () => {
    const long = message((l) => [replaceField(l[0] as string, 10, 'X'.repeat(21)), ...l.slice(1)]);
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validateHl7(long, { mode });
      expect(result.isValid).toBe(true);
      expect(codes(result, 'warning')).toEqual(['FIELD_TOO_LONG@MSH.10']);
    }
  });

  it('INVALID_DATA_TYPE for a non-numeric NM value in OBX-5 (type from OBX-2) and for a bad date format', () => {
    const obx = validateHl7(message((l) => [...l, 'OBX|1|NM|8302-2^Height^LN||tall|cm|||||F']), { mode: 'compatibility' });
    expect(codes(obx)).toEqual(['INVALID_DATA_TYPE@OBX[1].5']);
    const date = validateHl7(message((l) => [l[0], l[1], replaceField(l[2] as string, 7, '1980-01-01'), l[3]] as string[]), { mode: 'strict' });
    expect(codes(date)).toEqual(['INVALID_DATA_TYPE@PID.7.1']);
  });

  it('INVALID_DATE for a well-formed but impossible date', () => {
    const result = validateHl7(message((l) => [l[0], l[1], replaceField(l[2] as string, 7, '19800230'), l[3]] as string[]), { mode: 'strict' });
    expect(codes(result)).toEqual(['INVALID_DATE@PID.7.1']);
    expect(find(result, 'INVALID_DATE')?.message).toMatch(/day 30/);
  });

  it('VALUE_NOT_IN_TABLE for HL7-defined tables only (ID), never for user-defined ones (IS)', () => {
    const hl7Table = validateHl7(message((l) => [...l, 'OBX|1|NM|8302-2^Height^LN||170|cm|||||Q']), { mode: 'strict' });
    expect(codes(hl7Table)).toEqual(['VALUE_NOT_IN_TABLE@OBX[1].11']);
    expect(codes(validateHl7(message((l) => [...l, 'OBX|1|NM|8302-2^Height^LN||170|cm|||||Q']), { mode: 'compatibility' }), 'warning')).toEqual([
      'VALUE_NOT_IN_TABLE@OBX[1].11',
    ]);
    // PID-8 (administrative sex) is IS in v2.5.1: a user-defined table, so any value is accepted.
    const userTable = validateHl7(message((l) => [l[0], l[1], replaceField(l[2] as string, 8, 'X'), l[3]] as string[]), { mode: 'strict' });
    expect(userTable.errors).toEqual([]);
  });

  it('WITHDRAWN_FIELD_PRESENT for a field withdrawn in the version', () => {
    const v28 = message((l) => [replaceField(l[0] as string, 12, '2.8'), replaceField(l[1] as string, 1, 'A01'), l[2], l[3]] as string[]);
    const result = validateHl7(v28, { mode: 'strict' });
    expect(codes(result)).toContain('WITHDRAWN_FIELD_PRESENT@EVN.1');
    expect(codes(validateHl7(v28, { mode: 'compatibility' }), 'warning')).toContain('WITHDRAWN_FIELD_PRESENT@EVN.1');
  });

  it('UNKNOWN_MESSAGE_TYPE for a message type the version does not define', () => {
    const result = validateHl7(message((l) => [replaceField(l[0] as string, 9, 'ZZZ^Z01'), ...l.slice(1)]), { mode: 'strict' });
    expect(codes(result)).toEqual(['UNKNOWN_MESSAGE_TYPE@MSH.9']);
    expect(result.errors[0]?.message).toMatch(/not in HL7 table 0076/);
  });

  it('UNSUPPORTED_VERSION: an unknown version is validated against the nearest one', () => {
    const v = message((l) => [replaceField(l[0] as string, 12, '2.5.9'), ...l.slice(1)]);
    expect(codes(validateHl7(v, { mode: 'strict' }))).toEqual(['UNSUPPORTED_VERSION@MSH.12']);
    const compat = validateHl7(v, { mode: 'compatibility' });
    expect(compat.isValid).toBe(true);
    expect(compat.warnings[0]?.message).toMatch(/validated against v2\.5\.1/);
    expect(compat.summary?.validatedAgainst).toBe('2.5.1');
  });

  it('MSH_INVALID when MSH-2 is missing, PARSE_ERROR for unreadable content', () => {
    const noMsh2 = message((l) => [(l[0] as string).replace('|^~\\&|', '||'), ...l.slice(1)]);
    expect(codes(validateHl7(noMsh2, { mode: 'compatibility' }))).toEqual(['MSH_INVALID@MSH.2']);
    expect(codes(validateHl7('hello world', { mode: 'strict' }))).toContain('PARSE_ERROR@line 1');
    expect(validateHl7('', { mode: 'compatibility' }).isValid).toBe(false);
  });

  it('RECOMMENDED_FIELD_EMPTY comes from profiles and is always a warning (see hl7-profiles.test.ts)', () => {
    expect(HL7_ISSUE_CODES).toContain('RECOMMENDED_FIELD_EMPTY');
  });
});

describe('validateHl7: modes and multi-message input', () => {
  it('accepts LF line endings in both modes', () => {
    expect(validateHl7(message().replace(/\r/g, '\n'), { mode: 'strict' }).isValid).toBe(true);
  });

  it('validates every message of a batch and reports per message', () => {
    const bad = message((l) => [replaceField(l[0] as string, 10, ''), ...l.slice(1)]);
    const batch = ['BHS|^~\\&|APP', message(), bad, 'BTS|2'].join('\r');
    const result = validateHl7(batch, { mode: 'strict' });
    expect(result.isValid).toBe(false);
    expect(result.messages?.map((m) => m.isValid)).toEqual([true, false]);
    expect(result.messages?.[1]?.errors.map((e) => e.field)).toEqual(['MSH.10']);
    expect(codes(result)).toEqual(['REQUIRED_FIELD_MISSING@message[2].MSH.10']);
  });

  it('tolerates comment lines between messages in compatibility mode only', () => {
    const text = `${message()}\r// next\r${message()}`;
    expect(codes(validateHl7(text, { mode: 'strict' }))).toEqual(['PARSE_ERROR@line 5']);
    const compat = validateHl7(text, { mode: 'compatibility' });
    expect(compat.isValid).toBe(true);
    expect(codes(compat, 'warning')).toEqual(['PARSE_ERROR@line 5']);
  });

  it('never tolerates content before the first message: a receiver expects the input to begin with MSH', () => {
    const text = `// feed export\r${message()}\r// next\r${message()}`;
    expect(codes(validateHl7(text, { mode: 'strict' }))).toEqual(['PARSE_ERROR@line 1', 'PARSE_ERROR@line 6']);
    const compat = validateHl7(text, { mode: 'compatibility' });
    expect(codes(compat)).toEqual(['PARSE_ERROR@line 1']);
    expect(codes(compat, 'warning')).toEqual(['PARSE_ERROR@line 6']);
  });

  it('never tolerates bytes that are not valid UTF-8', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(message()), 0xc3]);
    expect(codes(validateHl7(bytes, { mode: 'compatibility' }))).toEqual(['PARSE_ERROR@line 1']);
  });

  it('reports a structure id that HL7 does not define in MSH-9.3', () => {
    const text = message((l) => [replaceField(l[0] as string, 9, 'ADT^A01^ADT_A99'), ...l.slice(1)]);
    expect(codes(validateHl7(text, { mode: 'strict' }))).toEqual(['UNKNOWN_MESSAGE_TYPE@MSH.9.3']);
    expect(validateHl7(text, { mode: 'compatibility' }).isValid).toBe(true);
  });

  it('copes with a message of 100k findings: every one counted, the first 1,000 listed', () => {
    const result = validateHl7(message((l) => [...l, ...Array.from({ length: 100_000 }, () => 'ZZZ|1')]), { mode: 'strict' });
    expect(result.errors).toHaveLength(1_000);
    expect(result.errors[999]).toMatchObject({ code: 'SEGMENT_UNEXPECTED', field: 'ZZZ[1000]' });
    expect(result.totals).toEqual({ errors: 100_000, warnings: 0, byCode: { SEGMENT_UNEXPECTED: 100_000 } });
    expect(result.truncated).toBe(true);
    const fewer = validateHl7(message((l) => [...l, ...Array.from({ length: 100 }, () => 'ZZZ|1')]), { mode: 'strict', maxIssues: 10 });
    expect(fewer.errors.map((e) => e.field)).toEqual(Array.from({ length: 10 }, (_, i) => `ZZZ[${i + 1}]`));
    expect(fewer.totals?.errors).toBe(100);
  });

  it('validates against the version asked for instead of MSH-12', () => {
    const result = validateHl7(message(), { mode: 'strict', version: '2.3' });
    expect(result.summary?.validatedAgainst).toBe('2.3');
  });
});
