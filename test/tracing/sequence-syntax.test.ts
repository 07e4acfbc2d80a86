// The expected-sequence syntax: steps, interfaces, limits, positioned syntax errors, and properties over any text.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_SEQUENCE_LENGTH,
  SequenceSyntaxError,
  formatSequence,
  parseSequence,
  type ExpectedSequence,
} from '../../plugins/tracing/sequence-syntax.ts';

function syntaxError(text: string): SequenceSyntaxError {
  try {
    parseSequence(text);
  } catch (error) {
    if (error instanceof SequenceSyntaxError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe('sequence syntax', () => {
  it('reads types, interfaces and limits', () => {
    expect(parseSequence('ADT^A01@adt-in>orm^o01 > ORU^R01@lab out<4h>ADT<90m').steps).toEqual([
      { messageType: 'ADT^A01', interface: 'adt-in', limitMs: null },
      { messageType: 'ORM^O01', interface: null, limitMs: null },
      { messageType: 'ORU^R01', interface: 'lab out', limitMs: 4 * 3_600_000 },
      { messageType: 'ADT', interface: null, limitMs: 90 * 60_000 },
    ]);
  });

  it('writes the canonical text with the largest unit', () => {
    expect(formatSequence(parseSequence('adt^a01 > ORU^R01<7200s>ACK<1500ms'))).toBe('ADT^A01>ORU^R01<2h>ACK<1500ms');
  });

  it.each([
    ['', 0, 'a message type'],
    ['ADT^A01', 7, 'second step'],
    ['ADT^A01>', 8, 'a message type'],
    ['ADT^>ORU', 4, 'trigger event'],
    ['ADT^A01@>ORU^R01', 8, 'interface name'],
    ['ADT^A01>ORU^R01<4y', 17, 'time unit'],
    ['ADT^A01>ORU^R01<h', 16, 'whole number'],
    ['ADT^A01<4h>ORU^R01', 7, 'first step'],
    ['ADT^A01>ORU^R01<40d', 16, 'at most 31d'],
    ['ADT^A01 ORU^R01', 8, '">"'],
  ])('"%s" fails at position %i naming %s', (text, position, expected) => {
    const error = syntaxError(text);
    expect(error.position).toBe(position);
    expect(error.message).toContain(expected);
    expect(error.message).toContain(`position ${position}`);
  });

  it('refuses over-long texts and too many steps', () => {
    expect(syntaxError('A'.repeat(MAX_SEQUENCE_LENGTH + 1)).position).toBe(MAX_SEQUENCE_LENGTH);
    expect(syntaxError(Array.from({ length: 21 }, () => 'ADT').join('>')).message).toContain('at most 20 steps');
  });

  const stepArb = fc.record({
    messageType: fc.tuple(fc.stringMatching(/^[A-Z0-9]{2,3}$/), fc.option(fc.stringMatching(/^[A-Z0-9]{3}$/), { nil: undefined })).map(([t, e]) => (e ? `${t}^${e}` : t)),
    interface: fc.option(fc.stringMatching(/^[a-z0-9][a-z0-9 ._()-]{0,20}[a-z0-9]$/), { nil: null }),
    limitMs: fc.option(fc.integer({ min: 1, max: 31 * 86_400 }).map((s) => s * 1000), { nil: null }),
  });

  it('parses the canonical text of any sequence back to the same sequence', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 2, maxLength: 20 }), (steps) => {
        const sequence: ExpectedSequence = { steps: steps.map((s, i) => (i === 0 ? { ...s, limitMs: null } : s)) };
        expect(parseSequence(formatSequence(sequence))).toEqual(sequence);
      }),
    );
  });

  it('answers any text with a sequence or a positioned syntax error, never anything else', () => {
    const alphabet = fc.constantFrom('A', 'D', 'T', '^', '0', '1', '>', '<', '@', ' ', 'h', 'm', 's', 'd', '\r', 'é', '9');
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.array(alphabet, { maxLength: 60 }).map((a) => a.join(''))), (text) => {
        let parsed: ReturnType<typeof parseSequence> | undefined;
        let refused: unknown;
        try {
          parsed = parseSequence(text);
        } catch (error) {
          refused = error;
        }
        // parsed into two steps or more, stable under formatting; or refused with a place inside the text
        expect(parsed !== undefined || refused instanceof SequenceSyntaxError, String(refused)).toBe(true);
        expect(parsed?.steps.length ?? 2).toBeGreaterThanOrEqual(2);
        expect(parsed === undefined ? undefined : parseSequence(formatSequence(parsed))).toEqual(parsed);
        const position = refused instanceof SequenceSyntaxError ? refused.position : 0;
        expect(position).toBeGreaterThanOrEqual(0);
        expect(position).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 2000 },
    );
  });
});
