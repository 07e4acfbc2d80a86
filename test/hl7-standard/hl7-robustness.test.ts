/**
 * Property tests over mutated corpus messages: the parser and the validator never throw (nor hang), and parsing
 * what the encoder wrote gives back the same tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHl7Message } from '../../plugins/hl7-standard/parsing/hl7-encoder.ts';
import type { Hl7Message } from '../../plugins/hl7-standard/hl7-model.ts';
import { parseHl7 } from '../../plugins/hl7-standard/parsing/hl7-parser.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';

const FALLBACK = [
  'MSH|^~\\&|A|B|C|D|20240101120000||ADT^A01^ADT_A01|1|P|2.5.1\rEVN|A01|20240101\rPID|1||1^^^H^MR~2^^^S^SS||DOE^J\\T\\K||19800101|F\rPV1|1|I',
];

const dir = corpusDir('hl7v2');
const seeds = dir
  ? corpusFiles('hl7v2')
      .filter((name) => !name.endsWith('.md'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
  : FALLBACK;

/** Characters that stress an HL7 parser: delimiters, escapes, terminators, framing, non-ASCII. */
const NASTY = ['|', '^', '~', '\\', '&', '#', '\r', '\n', '\r\n', '\u000b', '\u001c', '\uFEFF', 'MSH|', 'MSH|^~\\&|', '\\X', '\\.br\\', 'Z', '€', '\u0000', ' '];

type Mutation = { at: number; kind: 'insert' | 'delete' | 'replace' | 'cut' | 'duplicate'; text: string; length: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'delete', 'replace', 'cut', 'duplicate'),
  text: fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 6 })),
  length: fc.integer({ min: 1, max: 40 }),
});

function mutate(seed: string, mutations: Mutation[]): string {
  let text = seed;
  for (const m of mutations) {
    const at = text.length === 0 ? 0 : m.at % text.length;
    if (m.kind === 'insert') text = text.slice(0, at) + m.text + text.slice(at);
    else if (m.kind === 'delete') text = text.slice(0, at) + text.slice(at + m.length);
    else if (m.kind === 'replace') text = text.slice(0, at) + m.text + text.slice(at + m.text.length);
    else if (m.kind === 'cut') text = text.slice(0, at);
    else text = text.slice(0, at) + text.slice(at, at + m.length * 10) + text.slice(at);
  }
  return text;
}

const mutatedArb = fc
  .tuple(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 6 }))
  .map(([index, mutations]) => mutate(seeds[index] as string, mutations));

function valuesOf(message: Hl7Message): unknown {
  return message.segments.map((s) => [s.name, s.name === 'MSH' ? s.fields.slice(3) : s.fields.slice(1)]);
}

describe('HL7 parser and validator robustness', () => {
  it('parseHl7 never throws on mutated messages, as text or as bytes', () => {
    fc.assert(
      fc.property(mutatedArb, fc.boolean(), (text, asBytes) => {
        const result = parseHl7(asBytes ? new TextEncoder().encode(text) : text);
        expect(Array.isArray(result.messages)).toBe(true);
      }),
      { numRuns: 4000 },
    );
  });

  it('validateHl7 never throws, in either mode, and always says whether the content is valid', () => {
    fc.assert(
      fc.property(mutatedArb, fc.constantFrom('strict', 'compatibility') as fc.Arbitrary<'strict' | 'compatibility'>, (text, mode) => {
        const result = validateHl7(text, { mode });
        expect(typeof result.isValid).toBe('boolean');
        expect(result.isValid).toBe(result.errors.length === 0);
      }),
      { numRuns: 3000 },
    );
  });

  it('parse -> encode -> parse gives back the same values', () => {
    fc.assert(
      fc.property(mutatedArb, (text) => {
        for (const message of parseHl7(text).messages) {
          const again = parseHl7(encodeHl7Message(message)).messages;
          expect(again).toHaveLength(1);
          expect(valuesOf(again[0] as Hl7Message)).toEqual(valuesOf(message));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('random bytes never make the parser throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        parseHl7(bytes);
        validateHl7(bytes, { mode: 'strict' });
      }),
      { numRuns: 1000 },
    );
  });
});
