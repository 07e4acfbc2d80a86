import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffHl7Messages } from '../../plugins/hl7-standard/diff/hl7-diff.ts';
import { generateHl7Messages } from '../../plugins/hl7-standard/generation/hl7-generator.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

const none = { ignoredFields: [] as string[] };
const MSH = 'MSH|^~\\&|APP|FAC|RCV|RFAC|20250101120000||ADT^A01^ADT_A01|CTRL1|P|2.5';

function message(...segments: string[]): string {
  return [MSH, ...segments].join('\r');
}

function fields(left: string, right: string, ignoredFields: string[] = []) {
  return diffHl7Messages(left, right, { ignoredFields }).differences.map((d) => `${d.changeType} ${d.field}`);
}

describe('what is not a difference', () => {
  it('ignores trailing empty fields, components and repetitions', () => {
    expect(diffHl7Messages(message('PID|||123^^^MRN|||'), message('PID|||123^^^MRN'), none).totalDifferences).toBe(0);
    expect(diffHl7Messages(message('PID|||123^^^MRN^^~'), message('PID|||123^^^MRN'), none).totalDifferences).toBe(0);
  });

  it('compares decoded values, so line endings and delimiter choice do not matter', () => {
    const right = ['MSH#^~\\&#APP#FAC#RCV#RFAC#20250101120000##ADT^A01^ADT_A01#CTRL1#P#2.5', 'PID###123^^^MRN'].join('\n');
    expect(fields(message('PID|||123^^^MRN'), right)).toEqual(['modified MSH.1']);
    expect(fields(message('NTE|1||A \\T\\ B'), message('NTE|1||A \\T\\ B'))).toEqual([]);
  });
});

describe('paths and change types', () => {
  it('names the component that changed and reports a simple field without components', () => {
    const diff = diffHl7Messages(message('PID|1||123^^^MRN||Doe^John||19800101|M'), message('PID|1||124^^^MRN||Doe^John||19800101|F'), none);
    expect(diff.differences).toEqual([
      { field: 'PID.3.1', leftValue: '123', rightValue: '124', changeType: 'modified' },
      { field: 'PID.8', leftValue: 'M', rightValue: 'F', changeType: 'modified' },
    ]);
    expect(diff.totalDifferences).toBe(2);
  });

  it('shows the repetition index where a field repeats', () => {
    expect(fields(message('PID|1||1^^^MRN~900^^^SSA'), message('PID|1||1^^^MRN~901^^^SSA'))).toEqual(['modified PID.3[2].1']);
    expect(fields(message('PID|1||1^^^MRN'), message('PID|1||1^^^MRN~901^^^SSA'))).toEqual(['added PID.3[2]']);
  });

  it('shows subcomponents where a component has them', () => {
    const withAddress = (street: string) => message(`PID|1||1${'|'.repeat(8)}${street}&St^^Austin`);
    expect(fields(withAddress('1 Main'), withAddress('2 Main'))).toEqual(['modified PID.11.1.1']);
  });

  it('reports a field present on one side once, as added or removed, with its whole value', () => {
    const diff = diffHl7Messages(message('PID|1||1'), message('PID|1||1||Roe^Ann^B'), none);
    expect(diff.differences).toEqual([{ field: 'PID.5', leftValue: '', rightValue: 'Roe^Ann^B', changeType: 'added' }]);
    expect(diffHl7Messages(message('PID|1||1||Roe^Ann^B'), message('PID|1||1'), none).differences[0]?.changeType).toBe('removed');
  });

  it('reports a segment present on one side as one difference', () => {
    expect(fields(message('PID|1||1'), message('PID|1||1', 'PV1|1|I'))).toEqual(['added PV1']);
    expect(fields(message('PID|1||1', 'ZPI|x'), message('PID|1||1'))).toEqual(['removed ZPI']);
  });
});

describe('repeated segments', () => {
  const left = message('OBX|1|NM|A||1', 'OBX|2|NM|B||2', 'OBX|3|NM|C||3');

  it('aligns by set ID, so a removed middle segment is one difference', () => {
    const right = message('OBX|1|NM|A||1', 'OBX|3|NM|C||3');
    const diff = diffHl7Messages(left, right, none);
    expect(diff.differences).toEqual([{ field: 'OBX[2]', leftValue: '2|NM|B||2', rightValue: '', changeType: 'removed' }]);
  });

  it('aligns by set ID even when the order differs', () => {
    expect(fields(left, message('OBX|3|NM|C||3', 'OBX|1|NM|A||1', 'OBX|2|NM|B||9'))).toEqual(['modified OBX[2].5']);
  });

  it('aligns by order when set IDs are missing or repeat', () => {
    expect(fields(message('OBX||NM|A||1', 'OBX||NM|B||2'), message('OBX||NM|A||1', 'OBX||NM|B||3'))).toEqual(['modified OBX[2].5']);
    expect(fields(message('NTE|1||a', 'NTE|1||b'), message('NTE|1||a', 'NTE|1||c'))).toEqual(['modified NTE[2].3']);
  });

  it('aligns segments without a set ID (ORC) by order', () => {
    expect(fields(message('ORC|NW|1', 'ORC|NW|2'), message('ORC|NW|1', 'ORC|CA|2'))).toEqual(['modified ORC[2].1']);
  });
});

describe('ignored fields', () => {
  const left = message('PID|1||1^^^MRN~2^^^SSA||Doe^John', 'OBX|1|NM|A||1|||||||||20250101', 'OBX|2|NM|B||2|||||||||20250101', 'ZPI|a|b');
  const right = ['MSH|^~\\&|APP|FAC|RCV|RFAC|20250102120000||ADT^A01^ADT_A01|CTRL2|P|2.5', 'PID|1||1^^^MRN~3^^^SSA||Doe^Jim', 'OBX|1|NM|A||1|||||||||20250102', 'OBX|2|NM|B||2|||||||||20250103', 'ZPI|c|d'].join('\r');

  it('takes exact paths, whole fields, wildcards and echoes the list', () => {
    expect(fields(left, right)).toEqual([
      'modified MSH.7',
      'modified MSH.10',
      'modified PID.3[2].1',
      'modified PID.5.2',
      'modified OBX[1].14',
      'modified OBX[2].14',
      'modified ZPI.1',
      'modified ZPI.2',
    ]);
    const ignoredFields = ['MSH.7', 'MSH.10', 'ZPI.*', 'OBX[*].14', 'PID.3'];
    const diff = diffHl7Messages(left, right, { ignoredFields });
    expect(diff.differences.map((d) => d.field)).toEqual(['PID.5.2']);
    expect(diff.ignoredFields).toEqual(ignoredFields);
  });

  it('ignores only the occurrence, repetition or component named', () => {
    expect(fields(left, right, ['OBX[2].14', 'PID.3[1]', 'PID.5.1', 'MSH.*', 'ZPI.2'])).toEqual([
      'modified PID.3[2].1',
      'modified PID.5.2',
      'modified OBX[1].14',
      'modified ZPI.1',
    ]);
  });

  it('does not hide a whole added field behind a pattern naming one of its components', () => {
    expect(fields(message('PID|1||1'), message('PID|1||1||Roe^Ann'), ['PID.5.1'])).toEqual(['added PID.5']);
    expect(fields(message('PID|1||1'), message('PID|1||1||Roe^Ann'), ['PID.5.*'])).toEqual([]);
  });
});

describe('versions and bad input', () => {
  it('compares messages of different versions', () => {
    const right = message('PID|1||1').replace('|2.5', '|2.8');
    expect(fields(message('PID|1||1'), right)).toEqual(['modified MSH.12']);
  });

  it('throws MESSAGE_UNPARSEABLE (400) naming the side for content that is not HL7', () => {
    expect(() => diffHl7Messages('not hl7 at all', message('PID|1'), none)).toThrowError(
      expect.objectContaining({ code: 'MESSAGE_UNPARSEABLE', status: 400, message: expect.stringContaining('left') }),
    );
    expect(() => diffHl7Messages(message('PID|1'), '', none)).toThrowError(
      expect.objectContaining({ code: 'MESSAGE_UNPARSEABLE', message: expect.stringContaining('right') }),
    );
  });
});

describe('properties', () => {
  const synthetic = createSyntheticDataService();
  const samples = ['ADT^A01', 'ORU^R01', 'VXU^V04', 'SIU^S12'].flatMap((messageType) =>
    generateHl7Messages({ messageType, version: '2.5.1', count: 3, seed: 99 }, { synthetic }),
  );
  /** A generated message with some characters replaced: the input may become garbage. */
  const mutated = fc
    .tuple(fc.constantFrom(...samples), fc.array(fc.tuple(fc.nat(), fc.constantFrom('|', '^', '~', '&', '\\', 'X', '\r', '')), { maxLength: 8 }))
    .map(([text, edits]) => {
      let out = text;
      for (const [at, ch] of edits) {
        const i = at % Math.max(1, out.length);
        out = out.slice(0, i) + ch + out.slice(i + 1);
      }
      return out;
    });

  function safeDiff(left: string, right: string) {
    try {
      return diffHl7Messages(left, right, none);
    } catch (error) {
      expect((error as { code?: string }).code).toBe('MESSAGE_UNPARSEABLE');
      return undefined;
    }
  }

  it('finds nothing between a message and itself', () => {
    let compared = 0;
    fc.assert(
      fc.property(mutated, (text) => {
        const diff = safeDiff(text, text);
        if (!diff) return;
        compared++;
        expect(diff.totalDifferences).toBe(0);
      }),
      { numRuns: 200 },
    );
    // Mutations may make a message unreadable; most must still be compared, or the property checks nothing.
    expect(compared).toBeGreaterThan(100);
  });

  it('is symmetric: same count, added and removed swapped, values swapped', () => {
    let compared = 0;
    fc.assert(
      fc.property(mutated, mutated, (a, b) => {
        const ab = safeDiff(a, b);
        const ba = safeDiff(b, a);
        expect(ab === undefined).toBe(ba === undefined);
        if (!ab || !ba) return;
        compared++;
        expect(ab.totalDifferences).toBe(ba.totalDifferences);
        const swap = { added: 'removed', removed: 'added', modified: 'modified' } as const;
        const mirrored = ab.differences.map((d) => ({ field: d.field, leftValue: d.rightValue, rightValue: d.leftValue, changeType: swap[d.changeType] }));
        expect(new Set(ba.differences.map((d) => JSON.stringify(d)))).toEqual(new Set(mirrored.map((d) => JSON.stringify(d))));
      }),
      { numRuns: 200 },
    );
    expect(compared).toBeGreaterThan(50);
  });

  it('never throws anything but MESSAGE_UNPARSEABLE for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        safeDiff(`MSH|${a}`, b);
        safeDiff(a, `MSH|^~\\&|${b}`);
      }),
      { numRuns: 300 },
    );
  });
});
