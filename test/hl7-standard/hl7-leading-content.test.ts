/**
 * Content before the first MSH (a `[SOM]` marker, junk lines): still detected and read as HL7 v2, with one finding
 * that says how much precedes the header, invalid in both modes. Through the engine and the real HTTP interface.
 */
import { describe, expect, it } from 'vitest';
import { detectHl7 } from '../../plugins/hl7-standard/parsing/hl7-detect.ts';
import { parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const ADT = [
  'MSH|^~\\&|SND|FAC|RCV|RFAC|20250101120000||ADT^A01^ADT_A01|CTRL1|P|2.5.1',
  'EVN|A01|20250101120000',
  'PID|1||12345^^^FAC^MR||DOE^JANE',
  'PV1|1|I',
].join('\r');

describe('HL7 content before MSH', () => {
  it('is detected as HL7 when MSH follows within the first lines', () => {
    expect(detectHl7(`junk\r${ADT}`)).toBeGreaterThanOrEqual(0.5);
    expect(detectHl7(`[SOM]\n${ADT}`)).toBeGreaterThanOrEqual(0.5);
    expect(detectHl7(`a\rb\rc\r${ADT}`)).toBeGreaterThanOrEqual(0.5);
  });

  it('is not detected when MSH comes too late, or the content is JSON or XML', () => {
    expect(detectHl7(`${'junk\r'.repeat(8)}${ADT}`)).toBe(0);
    expect(detectHl7(`{"a": 1,\n"b": "x"}\n${ADT}`)).toBe(0);
    expect(detectHl7(`<x>\n${ADT}`)).toBe(0);
    expect(detectHl7(`["a",\n${ADT}`)).toBe(0);
    expect(detectHl7('hello, this is not a message')).toBe(0);
  });

  it('gives one finding naming the lines and bytes before MSH, an error in both modes; the message is still checked', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validateHl7(`junk\r[SOM]\r${ADT}`, { mode });
      expect(result.isValid).toBe(false);
      expect(result.errors).toEqual([
        {
          field: 'line 1',
          code: 'PARSE_ERROR',
          severity: 'error',
          message: '2 line(s) (11 bytes) precede the first MSH segment (line 3); the content must begin with MSH.',
        },
      ]);
      expect(result.summary?.messageType).toBe('ADT^A01');
    }
    // The message behind the junk is validated like any other: its own defects are found too.
    const broken = validateHl7(`[SOM]\r${ADT.replace('DOE^JANE', '')}`, { mode: 'strict' });
    expect(broken.errors.map((e) => `${e.code} ${e.field}`)).toEqual(['PARSE_ERROR line 1', 'REQUIRED_FIELD_MISSING PID.5']);
  });

  it('counts bytes, not characters, and a stray segment before MSH is leading content too', () => {
    const result = validateHl7(`é\rPID|1\r${ADT}`, { mode: 'strict' });
    expect(result.errors[0]?.message).toBe('2 line(s) (9 bytes) precede the first MSH segment (line 3); the content must begin with MSH.');
    expect(result.errors).toHaveLength(1);
  });

  it('content with no MSH at all is still one "not HL7" finding', () => {
    const parsed = parseHl7('junk\rmore junk');
    expect(parsed.messages).toEqual([]);
    expect(parsed.problems.map((p) => p.message)).toEqual(['The content holds no MSH segment, so it is not an HL7 v2 message.']);
  });
});

describe('POST /api/validate with content before MSH', () => {
  const wb = useTestWorkbench();

  it('answers 200 with the HL7 result instead of 400 STANDARD_NOT_DETECTED', async () => {
    const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: `[SOM]\r${ADT}`, mode: 'compatibility' } });
    expect(res.status).toBe(200);
    expect(res.json.data.standard).toBe('hl7');
    expect(res.json.data.isValid).toBe(false);
    expect(res.json.data.errors[0].message).toContain('1 line(s) (6 bytes) precede the first MSH segment (line 2)');
  });
});
