import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchError } from '../../kernel/errors.ts';
import { LAB_PANELS, VACCINES } from '../../plugins/synthetic-data/api.ts';
import { getHl7Definitions, HL7_VERSIONS } from '../../plugins/hl7-standard/hl7-definitions.ts';
import { generateHl7Messages, HL7_GENERATED_MESSAGE_TYPES } from '../../plugins/hl7-standard/generation/hl7-generator.ts';
import { parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { getHl7Value, getSegments } from '../helpers/hl7-values.ts';
import { thrownBy } from '../helpers/thrown-error.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { US_PLACES } from '../../plugins/synthetic-data/us-places.ts';

const synthetic = createSyntheticDataService();
const deps = { synthetic };
const SEEDS = [1, 17, 2024];

function generate(messageType: string, version: string, seed?: number, count = 2): string[] {
  return generateHl7Messages({ messageType, version, count, seed }, deps);
}

function parseOne(text: string) {
  const result = parseHl7(text);
  expect(result.messages).toHaveLength(1);
  return result.messages[0];
}

function versionDefines(messageType: string, version: (typeof HL7_VERSIONS)[number]): boolean {
  const [code, trigger] = messageType.split('^');
  return getHl7Definitions(version).resolveMessage(code, trigger).structure !== undefined;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('every type in every version validates strictly', () => {
  for (const messageType of HL7_GENERATED_MESSAGE_TYPES) {
    for (const version of HL7_VERSIONS) {
      // a type the version does not define is refused
      if (!versionDefines(messageType, version)) {
        it(`${messageType} v${version}`, () => {
          expect(() => generate(messageType, version, 1)).toThrowError(expect.objectContaining({ code: 'UNKNOWN_MESSAGE_TYPE', status: 400 }));
        });
        continue;
      }
      it(`${messageType} v${version}`, () => {
        for (const seed of SEEDS) {
          for (const text of generate(messageType, version, seed)) {
            const result = validateHl7(text, { mode: 'strict' });
            expect(result.errors, `${messageType} v${version} seed ${seed}\n${text.replace(/\r/g, '\n')}`).toEqual([]);
            const message = parseOne(text);
            expect(getHl7Value(message, 'MSH.12')).toBe(version);
            expect(`${getHl7Value(message, 'MSH.9.1')}^${getHl7Value(message, 'MSH.9.2')}`).toBe(messageType);
          }
        }
      });
    }
  }
});

describe('format', () => {
  it('joins segments with carriage returns only and starts with MSH', () => {
    const [text] = generate('ORU^R01', '2.5.1', 3);
    expect(text.startsWith('MSH|^~\\&|')).toBe(true);
    expect(text).not.toMatch(/\n/);
    expect(text.endsWith('\r')).toBe(false);
    expect(text.split('\r').every((line) => /^[A-Z][A-Z0-9]{2}\|/.test(line))).toBe(true);
  });

  it('writes MSH-9.3 with the structure from table 0354 where the version has it', () => {
    expect(getHl7Value(parseOne(generate('ADT^A08', '2.5', 1)[0]), 'MSH.9.3')).toBe('ADT_A01');
    expect(getHl7Value(parseOne(generate('ADT^A40', '2.8', 1)[0]), 'MSH.9.3')).toBe('ADT_A39');
    // v2.3 MSH-9 has two components only.
    expect(getHl7Value(parseOne(generate('ADT^A08', '2.3', 1)[0]), 'MSH.9.3')).toBeUndefined();
  });

  it('uses the version data types: coded OBX value type CE up to v2.5.1 and CWE after', () => {
    expect(getHl7Value(parseOne(generate('VXU^V04', '2.5.1', 1)[0]), 'OBX.2')).toBe('CE');
    expect(getHl7Value(parseOne(generate('VXU^V04', '2.7', 1)[0]), 'OBX.2')).toBe('CWE');
  });

  it('leaves out fields a version has withdrawn (PID-19 SSN after v2.6) but keeps them where present', () => {
    expect(getHl7Value(parseOne(generate('ADT^A01', '2.5', 1)[0]), 'PID.19')).toMatch(/^9\d\d-\d\d-\d{4}$/);
    expect(getHl7Value(parseOne(generate('ADT^A01', '2.7.1', 1)[0]), 'PID.19') ?? '').toBe('');
  });
});

describe('ADT^A01 v2.5 as the bench uses it', () => {
  const texts = generate('ADT^A01', '2.5', 7, 5);

  it('carries escaped ampersands that decode back', () => {
    for (const text of texts) {
      expect(text).toContain('\\T\\');
      const message = parseOne(text);
      expect(getHl7Value(message, 'PD1.3.1')).toContain(' & ');
      expect(getHl7Value(message, 'AL1.5')).toContain('&');
    }
  });

  it('repeats PID-3 (MRN and SSN) and PID-13 (home and mobile phones)', () => {
    for (const text of texts) {
      const message = parseOne(text);
      expect(getHl7Value(message, 'PID.3[1].5')).toBe('MR');
      expect(getHl7Value(message, 'PID.3[2].5')).toBe('SS');
      expect(getHl7Value(message, 'PID.3[2].1')).toMatch(/^9\d\d-\d\d-\d{4}$/);
      expect(getHl7Value(message, 'PID.13[1].1')).toMatch(/^\(\d{3}\)555-01\d\d$/);
      expect(getHl7Value(message, 'PID.13[2].1')).toMatch(/^\(\d{3}\)555-01\d\d$/);
    }
  });

  it('gives a real city/state/ZIP and a birth date in the past', () => {
    const places = new Set(US_PLACES.map((p) => `${p.city}|${p.state}|${p.zip}`));
    for (const text of texts) {
      const message = parseOne(text);
      const place = ['PID.11.3', 'PID.11.4', 'PID.11.5'].map((path) => getHl7Value(message, path)).join('|');
      expect(places.has(place), place).toBe(true);
      expect(Number(getHl7Value(message, 'PID.7'))).toBeLessThanOrEqual(20250615);
      expect(['F', 'M']).toContain(getHl7Value(message, 'PID.8'));
    }
  });
});

describe('clinical content', () => {
  it('reports lab results with LOINC codes, UCUM units, ranges and flags that agree with the value', () => {
    const loinc = new Map(LAB_PANELS.flatMap((p) => p.members).map((m) => [m.loinc, m]));
    for (const text of generate('ORU^R01', '2.5.1', 11, 4)) {
      const message = parseOne(text);
      const panel = getHl7Value(message, 'OBR.4.1');
      expect(LAB_PANELS.map((p) => p.loinc)).toContain(panel);
      const results = getSegments(message, 'OBX');
      expect(results.length).toBe(LAB_PANELS.find((p) => p.loinc === panel)?.members.length);
      results.forEach((_, i) => {
        const path = (f: string) => getHl7Value(message, `OBX[${i + 1}].${f}`) ?? '';
        const code = loinc.get(path('3.1'));
        expect(code, path('3.1')).toBeDefined();
        expect(path('3.3')).toBe('LN');
        expect(path('6.1')).toBe(code?.ucum);
        expect(path('6.3')).toBe('UCUM');
        const value = Number(path('5'));
        const [low, high] = path('7').split('-').map(Number);
        expect(path('8')).toBe(value > high ? 'H' : value < low ? 'L' : 'N');
      });
    }
  });

  it('records vaccines with CVX codes and their MVX manufacturer', () => {
    for (const text of generate('VXU^V04', '2.5.1', 5, 4)) {
      const message = parseOne(text);
      const vaccine = VACCINES.find((v) => v.cvx === getHl7Value(message, 'RXA.5.1'));
      expect(vaccine).toBeDefined();
      expect(getHl7Value(message, 'RXA.5.3')).toBe('CVX');
      expect(getHl7Value(message, 'RXA.17.1')).toBe(vaccine?.mvx);
    }
  });

  it('discharges after admitting', () => {
    for (const text of generate('ADT^A03', '2.6', 9, 4)) {
      const message = parseOne(text);
      expect(Number(getHl7Value(message, 'PV1.45'))).toBeGreaterThan(Number(getHl7Value(message, 'PV1.44')));
    }
  });

  it('merges from a prior identifier different from the current one (ADT^A40)', () => {
    const message = parseOne(generate('ADT^A40', '2.5', 3)[0]);
    expect(getHl7Value(message, 'MRG.1.1')).not.toBe(getHl7Value(message, 'PID.3.1'));
  });
});

describe('determinism', () => {
  it('gives byte-identical output for the same seed, whatever the clock says', () => {
    const first = generate('ADT^A01', '2.5', 42, 3);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-01-02T03:04:05Z'));
    expect(generate('ADT^A01', '2.5', 42, 3)).toEqual(first);
  });

  it('gives different output for different seeds', () => {
    expect(generate('ADT^A01', '2.5', 1)).not.toEqual(generate('ADT^A01', '2.5', 2));
  });

  it('gives fresh output on every call without a seed', () => {
    expect(generate('ADT^A01', '2.5')).not.toEqual(generate('ADT^A01', '2.5'));
  });

  it('gives distinct control IDs within one batch', () => {
    const ids = generate('ADT^A01', '2.5', 4, 20).map((t) => getHl7Value(parseOne(t), 'MSH.10'));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('bad requests', () => {
  it('refuses an unknown message type naming it and the version', () => {
    const error = thrownBy(() => generate('ZZZ^Z99', '2.5', 1));
    expect(error).toBeInstanceOf(WorkbenchError);
    expect(error).toMatchObject({ code: 'UNKNOWN_MESSAGE_TYPE', status: 400 });
    expect((error as WorkbenchError).message).toContain('ZZZ^Z99');
    expect((error as WorkbenchError).message).toContain('2.5');
  });

  it('refuses a type the version does not define (ORM^O01 after v2.6)', () => {
    expect(() => generate('ORM^O01', '2.7', 1)).toThrowError(expect.objectContaining({ code: 'UNKNOWN_MESSAGE_TYPE' }));
  });

  it('refuses an unsupported version', () => {
    expect(() => generate('ADT^A01', '3.0', 1)).toThrowError(expect.objectContaining({ code: 'UNSUPPORTED_VERSION', status: 400 }));
  });

  it('accepts ADT_A01 spelling and returns nothing for count 0', () => {
    expect(generate('ADT_A01', '2.5', 1, 1)).toEqual(generate('ADT^A01', '2.5', 1, 1));
    expect(generate('ADT^A01', '2.5', 1, 0)).toEqual([]);
  });
});
