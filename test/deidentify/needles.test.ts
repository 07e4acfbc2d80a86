// Needles: the original values of a de-identification, found again in any text case- and punctuation-insensitively,
// whole words only; and the needles a de-identification reports for the values it replaced.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findNeedles, fitReplacement, NeedleSet, replaceNeedles } from '../../plugins/deidentify/replacement/needles.ts';
import { createStandards, createTestDeidentifier } from './deid-helpers.ts';

const found = (text: string, needles: string[]) => findNeedles(text, needles).map(({ start, end }) => text.slice(start, end));

describe('findNeedles', () => {
  it('finds names in any case and order, with punctuation, and whole words only', () => {
    expect(found('Seen: ROE, JANE at home', ['Jane', 'Roe'])).toEqual(['ROE', 'JANE']);
    expect(found('Janet Roebuck called', ['Jane', 'Roe'])).toEqual([]);
    expect(found('call (555) 555-2004 or 5555552004', ['555-555-2004'])).toEqual(['555) 555-2004', '5555552004']);
    expect(found('born 1961-06-15, DOB 19610615', ['19610615'])).toEqual(['1961-06-15', '19610615']);
    expect(found('Mrs. Müller', ['MULLER'])).toEqual(['Müller']);
    expect(found('2222 Home Street, Greensboro', ['2222 HOME STREET'])).toEqual(['2222 Home Street']);
  });

  it('never spans a structural delimiter', () => {
    expect(found('PID|1||ROE^JANE', ['Roe Jane'])).toEqual([]);
    expect(found('{"a":"Roe","b":"Jane"}', ['Roe Jane'])).toEqual([]);
  });

  it('ignores needles too short or too common, as documented', () => {
    expect(found('Dr Al at home, male, 123 of 1234', ['Al', 'Dr', 'home', 'male', '123', '  ', '--', '1234'])).toEqual(['1234']);
  });

  it('finds a planted needle in any surrounding text, and nothing when the text holds no word of it', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,10}$/);
    const gap = fc.constantFrom(' ', ', ', '|', '^', '\n', ' (', '. ', '"');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { maxLength: 30 }), fc.nat(), fc.stringMatching(/^[A-Z][a-z]{3,9}$/), (parts, at, needle) => {
        const words = parts.map(([text, sep]) => text + sep);
        const position = at % (words.length + 1);
        const before = words.slice(0, position).join('');
        const planted = needle.toUpperCase();
        const text = `${before}${before && !/[\s|^"(,.\n]$/.test(before) ? ' ' : ''}${planted}, ${words.slice(position).join('')}`;
        const spans = findNeedles(text, [needle]);
        expect(spans.some(({ start, end }) => text.slice(start, end) === planted)).toBe(true);
        for (const { start, end } of spans) expect(text.slice(start, end).toLowerCase()).toBe(needle.toLowerCase());
      }),
      { numRuns: 300 },
    );
  });
});

describe('replaceNeedles', () => {
  it('writes the replacement in the place and punctuation of each occurrence', () => {
    const set = new NeedleSet<string>();
    set.add('19610615', '19600301');
    set.add('ROE', 'SMITH');
    expect(replaceNeedles('Roe born 1961/06/15 or 1961-06-15', set)).toBe('Smith born 1960/03/01 or 1960-03-01');
    expect(fitReplacement('(555) 555-2004', '(212) 333-4444')).toBe('(212) 333-4444');
  });
});

describe('DeidentifyResult.needles', () => {
  const service = createTestDeidentifier(createStandards());
  it('holds every value replaced in a field, and findNeedles finds them in the original', () => {
    const message = [
      'MSH|^~\\&|A|B|C|D|20250615120000||ADT^A01^ADT_A01|MSG1|P|2.5.1',
      'PID|1||PATID1234^^^HOSP^MR||ROE^JANE^Q||19610615|F|||2222 HOME STREET^^GREENSBORO^NC^27401||(555)555-2004|||||ACCT778899|123-45-6789',
    ].join('\r');
    const { needles, messageContent } = service.deidentify(message, 'hl7');
    for (const value of ['PATID1234', 'ROE', 'JANE', '19610615', '2222 HOME STREET', 'GREENSBORO', '(555)555-2004', 'ACCT778899', '123-45-6789']) {
      expect(findNeedles(value, needles).length).toBeGreaterThan(0);
    }
    expect(service.findNeedles(messageContent, needles)).toEqual([]);
    expect(service.findNeedles('note: Jane ROE called', needles).length).toBe(2);
  });
});

describe('input too large to de-identify', () => {
  it('is refused with a 400 naming the size, never passed through', async () => {
    const { MAX_DEIDENTIFY_CHARS } = await import('../../plugins/deidentify/deidentifier.ts');
    const service = createTestDeidentifier(createStandards());
    const huge = `MSH|^~\\&|A|B|C|D|20250101||ADT^A01|1|P|2.5.1\rNTE|1||${'Jane Roe '.repeat(MAX_DEIDENTIFY_CHARS / 9 + 1)}`;
    expect(() => service.deidentify(huge, 'hl7')).toThrow(expect.objectContaining({ status: 400, code: 'DEIDENTIFY_CONTENT_TOO_LARGE' }));
  });
});
