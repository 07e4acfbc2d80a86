/**
 * Conformance over the shared corpus of real public HL7 v2 messages. Well-formed files parse and round-trip;
 * each MALFORMED_ file reports its defect with the right code and path; every other file's findings were reviewed
 * one by one and are pinned in fixtures/hl7-corpus-expectations.json (compatibility verdict, and the exact set of
 * code + path pairs in both modes), so that any change in what the validator says about real messages is seen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHl7Message } from '../../plugins/hl7-standard/parsing/hl7-encoder.ts';
import { parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';

interface Expectation {
  compatibilityValid: boolean;
  compatibilityErrors: string[];
  strictErrors: string[];
}

const expectations = JSON.parse(
  readFileSync(new URL('./fixtures/hl7-corpus-expectations.json', import.meta.url), 'utf8'),
) as Record<string, Expectation>;

/**
 * Files that are not well-formed although not named MALFORMED_: comment lines between messages, and a line break
 * inside OBR-4 (the continuation line is reported as a PARSE_ERROR).
 */
const NOT_WELL_FORMED = new Set(['MULTI_mixed-v2.2-v2.4_with-comments__hapi_messages.txt', 'OML_O21_v2.5.1__cdc-ti_TX-001.hl7']);

const dir = corpusDir('hl7v2');
const files = corpusFiles('hl7v2').filter((name) => !name.endsWith('.md'));

function read(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(dir as string, name)));
}

function pairs(issues: Array<{ code: string; field: string }>): string[] {
  return [...new Set(issues.map((i) => `${i.code} ${i.field}`))].sort();
}

describe.skipIf(!dir)('HL7 corpus conformance', () => {
  it('has a reviewed expectation for every corpus file', () => {
    expect(Object.keys(expectations).sort()).toEqual(files);
  });

  for (const name of files.filter((f) => !f.startsWith('MALFORMED_') && !NOT_WELL_FORMED.has(f))) {
    it(`${name}: parses without problems and round-trips`, () => {
      const result = parseHl7(read(name));
      expect(result.problems).toEqual([]);
      expect(result.messages.length).toBeGreaterThan(0);
      for (const message of result.messages) {
        expect(encodeHl7Message(message)).toBe(message.raw.replace(/\r\n|\n/g, '\r'));
      }
    });
  }

  for (const name of files) {
    it(`${name}: findings match the reviewed expectation`, () => {
      const expected = expectations[name] as Expectation;
      const compatibility = validateHl7(read(name), { mode: 'compatibility' });
      const strict = validateHl7(read(name), { mode: 'strict' });
      expect(compatibility.isValid).toBe(expected.compatibilityValid);
      expect(pairs(compatibility.errors)).toEqual(expected.compatibilityErrors);
      expect(pairs(strict.errors)).toEqual(expected.strictErrors);
      // Compatibility never reports more errors than strict: it only downgrades.
      expect(compatibility.errors.length).toBeLessThanOrEqual(strict.errors.length);
    });
  }

  describe('MALFORMED_ files report their defect', () => {
    const defects: Array<[string, (codes: string[]) => void]> = [
      ['MALFORMED_missing-MSH10_v2.5.1__cdc-ti.hl7', (codes) => expect(codes).toContain('REQUIRED_FIELD_MISSING MSH.10')],
      [
        'MALFORMED_missing-MSH2-encoding-chars_v2.5.1__cdc-ti.hl7',
        (codes) => expect(codes.some((c) => c === 'MSH_INVALID MSH.2' || c === 'PARSE_ERROR MSH.2')).toBe(true),
      ],
      [
        'MALFORMED_missing-MSH9_v2.5.1__cdc-ti.hl7',
        (codes) => expect(codes.some((c) => c === 'REQUIRED_FIELD_MISSING MSH.9' || c.startsWith('MSH_INVALID MSH.9'))).toBe(true),
      ],
      ['MALFORMED_ORM_O01_v2.5.1_OBX5-not-numeric__cdc-ti.hl7', (codes) => expect(codes).toContain('INVALID_DATA_TYPE OBX[1].5')],
    ];
    for (const [name, check] of defects) {
      it.skipIf(!files.includes(name))(name, () => {
        for (const mode of ['strict', 'compatibility'] as const) {
          const result = validateHl7(read(name), { mode });
          expect(result.isValid).toBe(false);
          check(pairs(result.errors));
        }
      });
    }

    it('every MALFORMED_ file is invalid in both modes', () => {
      for (const name of files.filter((f) => f.startsWith('MALFORMED_'))) {
        expect(validateHl7(read(name), { mode: 'compatibility' }).isValid, name).toBe(false);
      }
    });
  });

  it('the OBX-5 defect sentence names the field and the offending value', () => {
    const name = 'MALFORMED_ORM_O01_v2.5.1_OBX5-not-numeric__cdc-ti.hl7';
    // The corpus is present (the suite is skipped otherwise): a missing file is a failure, not a silent pass.
    expect(files).toContain(name);
    const issue = validateHl7(read(name), { mode: 'strict' }).errors.find((e) => e.code === 'INVALID_DATA_TYPE' && e.field === 'OBX[1].5');
    expect(issue?.message).toBe('OBX[1].5 (Observation Value) is not a number: "NOVALUE".');
  });
});
