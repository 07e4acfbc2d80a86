/**
 * Structure matching recovers after a misplaced segment: one finding about the segment (or the misplaced group),
 * and the segments and groups after it are judged as if it were not there. Checked on several structures
 * (ADT_A01, ORU_R01, OML_O21, VXU_V04) and versions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

const SEGMENTS: Record<string, string> = {
  EVN: 'EVN|A01|20240101120000',
  PID: 'PID|1||123^^^FAC^MR||DOE^JANE',
  PD1: 'PD1|||CLINIC',
  PV1: 'PV1|1|I',
  PV2: 'PV2|||FLU',
  NK1: 'NK1|1|DOE^JOHN',
  AL1: 'AL1|1||PEN',
  DG1: 'DG1|1||I10',
  IN1: 'IN1|1|PLAN|PAYER',
  ORC: 'ORC|RE|1|2',
  OBR: 'OBR|1|1|2|24331-1^Lipid panel^LN',
  OBX: 'OBX|1|NM|2093-3^Cholesterol^LN||182|mg/dL|||||F',
  NTE: 'NTE|1||note',
  RXA: 'RXA|0|1|20240101|20240101|08^HepB^CVX|1',
  RXR: 'RXR|IM',
  ABC: 'ABC|1',
};

function message(type: string, version: string, names: string[]): string {
  return [`MSH|^~\\&|A|B|C|D|20240101120000||${type}|1|P|${version}`, ...names.map((name) => SEGMENTS[name] as string)].join('\r');
}

/** The structure findings (code, path) of a message in strict mode. */
function structureFindings(type: string, version: string, names: string[]): string[] {
  return validateHl7(message(type, version, names), { mode: 'strict' })
    .errors.filter((e) => e.code.startsWith('SEGMENT_') || e.code === 'TOO_MANY_REPETITIONS')
    .map((e) => `${e.code} ${e.field}`);
}

const ORU = 'ORU^R01^ORU_R01';
const ADT = 'ADT^A01^ADT_A01';
const OML = 'OML^O21^OML_O21';
const VXU = 'VXU^V04^VXU_V04';

describe('a misplaced segment gives one finding and matching goes on', () => {
  for (const version of ['2.3', '2.4', '2.5.1', '2.7', '2.8']) {
    it(`ORU^R01 v${version}: PD1 after PV1, the order group behind it is found`, () => {
      expect(structureFindings(ORU, version, ['PID', 'PV1', 'PD1', 'ORC', 'OBR', 'OBX', 'NTE'])).toEqual(['SEGMENT_OUT_OF_ORDER PD1[1]']);
    });
  }

  for (const version of ['2.3', '2.5.1', '2.6', '2.8']) {
    it(`ADT^A01 v${version}: PD1 after PV1; AL1 before PV1`, () => {
      expect(structureFindings(ADT, version, ['EVN', 'PID', 'PV1', 'PD1', 'AL1', 'DG1'])).toEqual(['SEGMENT_OUT_OF_ORDER PD1']);
      expect(structureFindings(ADT, version, ['EVN', 'PID', 'AL1', 'PV1', 'DG1'])).toEqual(['SEGMENT_OUT_OF_ORDER AL1[1]']);
    });
  }

  for (const version of ['2.3.1', '2.5.1', '2.8']) {
    it(`VXU^V04 v${version}: PD1 inside the order, the observation after it still belongs to the order`, () => {
      expect(structureFindings(VXU, version, ['PID', 'ORC', 'RXA', 'RXR', 'PD1', 'OBX'])).toEqual(['SEGMENT_OUT_OF_ORDER PD1']);
    });
  }

  for (const version of ['2.5.1', '2.6']) {
    it(`OML^O21 v${version}: PD1 inside an order, the next order is still an order`, () => {
      expect(structureFindings(OML, version, ['PID', 'PV1', 'ORC', 'PD1', 'OBR', 'ORC', 'OBR'])).toEqual(['SEGMENT_OUT_OF_ORDER PD1[1]']);
    });
  }

  it('a segment out of order inside a group: the required segment after it is found (ORU OBX before OBR)', () => {
    expect(structureFindings(ORU, '2.5.1', ['PID', 'ORC', 'OBX', 'OBR', 'OBX'])).toEqual(['SEGMENT_OUT_OF_ORDER OBX[1]']);
    expect(structureFindings(ORU, '2.4', ['PID', 'OBR', 'OBX', 'NTE', 'PD1', 'OBX', 'NTE', 'OBR', 'OBX'])).toEqual(['SEGMENT_OUT_OF_ORDER PD1[1]']);
  });
});

describe('an unknown segment in the middle', () => {
  for (const [type, version, names] of [
    [ORU, '2.5.1', ['PID', 'ORC', 'OBR', 'ABC', 'OBX', 'NTE']],
    [ADT, '2.8', ['EVN', 'PID', 'ABC', 'PV1', 'AL1']],
    [OML, '2.5.1', ['PID', 'ORC', 'ABC', 'OBR']],
    [VXU, '2.4', ['PID', 'ORC', 'RXA', 'ABC', 'RXR']],
  ] as Array<[string, string, string[]]>) {
    it(`${type} v${version}`, () => {
      expect(structureFindings(type, version, names)).toEqual(['SEGMENT_UNEXPECTED ABC']);
    });
  }
});

describe('a repeated non-repeating segment', () => {
  it('right after itself, or later in the message', () => {
    expect(structureFindings(ADT, '2.5.1', ['EVN', 'PID', 'PV1', 'PV1', 'AL1'])).toEqual(['TOO_MANY_REPETITIONS PV1[2]']);
    expect(structureFindings(ADT, '2.3', ['EVN', 'PID', 'EVN', 'PV1'])).toEqual(['TOO_MANY_REPETITIONS EVN[2]']);
    expect(structureFindings(VXU, '2.3.1', ['PID', 'ORC', 'RXA', 'RXR', 'PID', 'OBX'])).toEqual(['TOO_MANY_REPETITIONS PID[2]']);
  });

  it('a PID written twice is not taken for a patient result without orders', () => {
    expect(structureFindings(ORU, '2.5.1', ['PID', 'PID', 'ORC', 'OBR', 'OBX'])).toEqual(['TOO_MANY_REPETITIONS PID[2]']);
  });

  it('says where it occurs again', () => {
    const result = validateHl7(message(ADT, '2.5.1', ['EVN', 'PID', 'PV1', 'PV1']), { mode: 'strict' });
    expect(result.errors.find((e) => e.code === 'TOO_MANY_REPETITIONS')?.message).toBe(
      'Segment PV1 (Patient visit) occurs again on line 5, where ADT^A01 v2.5.1 allows no further occurrence of it.',
    );
  });
});

describe('a group out of order', () => {
  it('is one finding naming the group and its lines; what follows is judged normally', () => {
    const result = validateHl7(message(ORU, '2.5.1', ['PID', 'ORC', 'OBR', 'OBX', 'PV1', 'PV2', 'OBX']), { mode: 'strict' });
    const structure = result.errors.filter((e) => e.code.startsWith('SEGMENT_'));
    expect(structure).toHaveLength(1);
    expect(structure[0]).toMatchObject({ code: 'SEGMENT_OUT_OF_ORDER', field: 'PV1[1]' });
    expect(structure[0]?.message).toBe(
      'Group VISIT (Visit), segments PV1 to PV2 on lines 6-7, is not allowed at this position in the ORU^R01 v2.5.1 message structure.',
    );
    expect(structureFindings(ORU, '2.7', ['PID', 'ORC', 'OBR', 'OBX', 'PV1', 'PV2'])).toEqual(['SEGMENT_OUT_OF_ORDER PV1[1]']);
  });

  it('a compatibility-mode warning, the message stays valid', () => {
    const result = validateHl7(message(ORU, '2.5.1', ['PID', 'PV1', 'PD1', 'ORC', 'OBR', 'OBX']), { mode: 'compatibility' });
    expect(result.isValid).toBe(true);
    expect(result.warnings.map((w) => `${w.code} ${w.field}`)).toEqual(['SEGMENT_OUT_OF_ORDER PD1[1]']);
  });
});

describe('well-formed messages stay clean', () => {
  for (const [type, version, names] of [
    [ORU, '2.5.1', ['PID', 'PD1', 'PV1', 'ORC', 'OBR', 'OBX', 'NTE', 'OBX', 'OBR', 'OBX']],
    [ORU, '2.3', ['PID', 'PV1', 'OBR', 'OBR', 'OBX']],
    [ADT, '2.5.1', ['EVN', 'PID', 'PD1', 'NK1', 'PV1', 'PV2', 'OBX', 'AL1', 'DG1', 'IN1']],
    [OML, '2.5.1', ['PID', 'PV1', 'ORC', 'OBR', 'ORC', 'OBR']],
    [VXU, '2.5.1', ['PID', 'PD1', 'NK1', 'PV1', 'IN1', 'ORC', 'RXA', 'RXR', 'OBX', 'ORC', 'RXA']],
  ] as Array<[string, string, string[]]>) {
    it(`${type} v${version}: ${names.join(' ')}`, () => {
      expect(structureFindings(type, version, names)).toEqual([]);
    });
  }
});

describe('recovery on arbitrary segment orders (property)', () => {
  const names = Object.keys(SEGMENTS);
  it('always ends, never throws, and reports at most one structure finding per segment plus the missing elements', () => {
    fc.assert(
      fc.property(fc.constantFrom(ORU, ADT, OML, VXU), fc.constantFrom('2.3', '2.5.1', '2.8'), fc.array(fc.constantFrom(...names), { maxLength: 40 }), (type, version, list) => {
        const findings = structureFindings(type, version, list);
        const misplaced = findings.filter((f) => !f.startsWith('SEGMENT_MISSING'));
        expect(misplaced.length).toBeLessThanOrEqual(list.length);
      }),
      { numRuns: 300 },
    );
  });

  it('copes with thousands of misplaced segments', () => {
    const list = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? 'PV1' : i % 3 === 1 ? 'OBX' : 'PD1'));
    const findings = structureFindings(ORU, '2.5.1', ['PID', 'ORC', 'OBR', ...list]);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.length).toBeLessThanOrEqual(list.length);
  });
});
