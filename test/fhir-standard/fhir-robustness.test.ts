/**
 * Hostile and broken input: the parser and validator answer with findings, never a throw or a hang.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';
import { json, patient, testAdapter } from './fhir-fixtures.ts';

function validateSafely(content: string, mode: 'strict' | 'compatibility' = 'strict'): ValidationResult {
  const result = testAdapter().validate(content, { mode });
  expect(typeof result.isValid).toBe('boolean');
  expect(result.isValid).toBe(result.errors.length === 0);
  for (const issue of [...result.errors, ...result.warnings]) {
    expect(issue.field.length).toBeGreaterThan(0);
    expect(issue.message.length).toBeGreaterThan(0);
    expect(['error', 'warning']).toContain(issue.severity);
  }
  return result;
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<Patient xmlns="http://hl7.org/fhir"><name><family value="&lol4;"/></name></Patient>`;

describe('FHIR robustness', () => {
  it('refuses XML bombs and external entities with a PARSE_ERROR', () => {
    for (const xml of [
      BILLION_LAUGHS,
      '<!DOCTYPE Patient SYSTEM "http://example.org/evil.dtd"><Patient xmlns="http://hl7.org/fhir"/>',
      '<?xml version="1.0"?>\n<!doctype x [<!entity e SYSTEM "file:///etc/passwd">]><Patient xmlns="http://hl7.org/fhir"><id value="&e;"/></Patient>',
    ]) {
      const result = validateSafely(xml);
      expect(result.errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
    }
  });

  it('refuses XML nested deeper than the limit', () => {
    const depth = 500;
    const xml = `<Patient xmlns="http://hl7.org/fhir">${'<extension url="x">'.repeat(depth)}${'</extension>'.repeat(depth)}</Patient>`;
    expect(validateSafely(xml).errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
  });

  it('handles extremely deep JSON without overflowing the stack', () => {
    const depth = 100_000;
    const deep = `{"resourceType":"Patient","extension":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(validateSafely(deep).errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
    // Just under the limit: nested extensions are legal FHIR and get validated.
    // (an extension's url is absolute; nested parts may carry plain names, but absolute ones are legal there too)
    let extension: Record<string, unknown> = { url: 'http://example.org/fhir/StructureDefinition/leaf', valueString: 'x' };
    for (let i = 0; i < 50; i++) extension = { url: `http://example.org/fhir/StructureDefinition/level${i}`, extension: [extension] };
    expect(validateSafely(json(patient({ extension: [extension] }))).errors).toEqual([]);
  });

  it('reports a 10 MB string as invalid instead of choking on it', () => {
    const huge = 'a'.repeat(10 * 1024 * 1024);
    const result = validateSafely(json(patient({ name: [{ family: huge }] })));
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual(['INVALID_DATA_TYPE Patient.name[0].family']);
    expect(result.errors[0].message).toMatch(/1 MB/);
  });

  it('reports wrong JSON types in every element of a Patient', () => {
    const wrongs: unknown[] = [null, 42, true, 'text', [], {}, [1, 'a'], { nested: { x: 1 } }];
    const base = patient({ telecom: [{ system: 'phone', value: '555-0100' }], address: [{ city: 'A' }], maritalStatus: { text: 'M' } });
    for (const key of Object.keys(base)) {
      if (key === 'resourceType') continue;
      for (const wrong of wrongs) {
        const result = validateSafely(json({ ...base, [key]: wrong }));
        const stillValid = key === 'id' && wrong === 'text'; // "text" is a legal id
        expect(result.isValid, `${key}=${JSON.stringify(wrong)}`).toBe(stillValid);
      }
    }
    for (const wrongType of [42, null, ['Patient'], { a: 1 }]) {
      expect(validateSafely(json({ resourceType: wrongType })).errors.map((e) => e.code)).toEqual(['NOT_FHIR_RESOURCE']);
    }
  });

  it('treats JSON keys named like Object.prototype members as unknown elements', () => {
    for (const key of ['valueOf', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const result = validateSafely(`{"resourceType":"Patient","name":{"${key}":null},"${key}":1}`);
      expect(result.isValid).toBe(false);
      expect(testAdapter().describe(`Patient.${key}`)).toBeUndefined();
    }
  });

  it('property: arbitrary strings and JSON values never make it throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.jsonValue().map((v) => JSON.stringify({ resourceType: 'Patient', name: v }))), (content) => {
        validateSafely(content);
        validateSafely(content, 'compatibility');
      }),
      { numRuns: 300 },
    );
  });

  const dir = corpusDir('fhir');
  const corpus = corpusFiles('fhir')
    .map((name) => (dir ? readFileSync(join(dir, name), 'utf8') : ''))
    .filter((text) => text.length > 0 && text.length < 20_000);

  it.skipIf(!dir)('property: mutated corpus resources never make it throw', () => {
    const resources = corpus.map((text) => JSON.parse(text.replace(/^\uFEFF/, '')) as unknown);
    const mutate = (value: unknown, path: number[], replacement: unknown): unknown => {
      if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
      const keys = Object.keys(value as object);
      if (keys.length === 0) return replacement;
      const key = keys[path[0] % keys.length];
      const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
      copy[key] = mutate((value as Record<string, unknown>)[key], path.slice(1), replacement);
      return copy;
    };
    fc.assert(
      fc.property(
        fc.nat({ max: resources.length - 1 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constantFrom('mle', '', ' ', 'urn:uuid:x', '2024-02-30', -1, Number.MAX_VALUE)),
        fc.nat(),
        fc.boolean(),
        (index, path, replacement, cut, truncate) => {
          const mutated = JSON.stringify(mutate(resources[index], path, replacement)) ?? '';
          validateSafely(truncate ? mutated.slice(0, cut % (mutated.length + 1)) : mutated);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('property: mutated FHIR XML never makes it throw', () => {
    const xml = '<Patient xmlns="http://hl7.org/fhir"><id value="1"/><name><family value="A"/><given value="B"/></name><gender value="male"/><contained><Organization><name value="O"/></Organization></contained></Patient>';
    fc.assert(
      fc.property(fc.nat(), fc.string({ maxLength: 12 }), fc.nat({ max: 10 }), (at, insert, remove) => {
        const position = at % xml.length;
        validateSafely(xml.slice(0, position) + insert + xml.slice(position + remove));
      }),
      { numRuns: 300 },
    );
  });
});
