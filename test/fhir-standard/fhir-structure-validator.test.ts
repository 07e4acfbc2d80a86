/**
 * The structural validation (plugins/fhir-standard/structure/) against @medplum/core's own `validateResource`, issue
 * for issue: generated resources of every type, the fixture files, the shared corpus when present, and the same
 * resources broken in seeded ways (values removed, replaced by nulls, empty or mis-typed values, unknown and
 * duplicated choice properties, primitive extensions, single values made arrays).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { medplumCore } from '../../plugins/fhir-standard/medplum-core.ts';
import { validateStructure } from '../../plugins/fhir-standard/structure/structure-validator.ts';
import { corpusDir } from '../helpers/shared-corpus.ts';
import { projectRoot, testAdapter } from './fhir-fixtures.ts';

/** What a validation said: its issues (thrown or returned alike), or the error it threw otherwise. */
function outcome(validate: () => unknown): string {
  const { OperationOutcomeError } = medplumCore();
  try {
    return JSON.stringify(validate());
  } catch (error) {
    if (error instanceof OperationOutcomeError) return JSON.stringify(error.outcome.issue);
    return `threw ${(error as Error).message}`;
  }
}

/** Both validations of the same JSON text, each on its own copy (both may change their input alike). */
function both(text: string): { ours: string; medplum: string; sameInputAfter: boolean } {
  const mine = JSON.parse(text) as Record<string, unknown>;
  const theirs = JSON.parse(text) as Record<string, unknown>;
  const ours = outcome(() => validateStructure(mine));
  const medplum = outcome(() => medplumCore().validateResource(theirs as never));
  return { ours, medplum, sameInputAfter: JSON.stringify(mine) === JSON.stringify(theirs) };
}

function jsonFiles(dir: string): Array<[string, string]> {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8').replace(/^\uFEFF/, '')])
    .filter(([, text]) => {
      try {
        return typeof (JSON.parse(text) as { resourceType?: unknown }).resourceType === 'string';
      } catch {
        return false;
      }
    });
}

/** A small seeded generator, so every run breaks the same places. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const JUNK: unknown[] = [null, '', ' ', {}, [], 'x', 12, -1, 1.5, 0, true, [null], [{}], { id: 'a' }, { resourceType: 'Nope' }, '2020-13-45', [[1]], { reference: 'Observation/1' }];

/** Every (holder, key) pair of a JSON value. */
function places(value: unknown, out: Array<[Record<string | number, unknown>, string | number]> = []): Array<[Record<string | number, unknown>, string | number]> {
  if (Array.isArray(value)) value.forEach((item, index) => (out.push([value as unknown as Record<number, unknown>, index]), places(item, out)));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) (out.push([value as Record<string, unknown>, key]), places((value as Record<string, unknown>)[key], out));
  return out;
}

/** The resource text with a few seeded changes. */
function broken(text: string, random: () => number): string {
  const resource = JSON.parse(text) as unknown;
  const all = places(resource);
  for (let edit = 0; edit < 1 + Math.floor(random() * 3) && all.length > 0; edit++) {
    const [holder, key] = all[Math.floor(random() * all.length)] as [Record<string | number, unknown>, string | number];
    const pick = random();
    if (pick < 0.3) {
      if (Array.isArray(holder)) holder.splice(key as number, 1);
      else delete holder[key];
    } else if (pick < 0.7) {
      holder[key] = structuredClone(JUNK[Math.floor(random() * JUNK.length)]);
    } else if (pick < 0.8 && !Array.isArray(holder)) {
      holder[['foo', `_${String(key)}`, `${String(key)}String`, 'valueQuantity', 'valueString', '_value'][Math.floor(random() * 6)] as string] = 'x';
    } else if (pick < 0.9 && !Array.isArray(holder) && typeof holder[key] !== 'object') {
      holder[`_${String(key)}`] = [{ extension: [{ url: 'http://example.org/x', valueCode: 'a' }] }, { id: 'z' }, 'bad'][Math.floor(random() * 3)];
    } else {
      holder[key] = [holder[key]];
    }
  }
  return JSON.stringify(resource);
}

describe('structural validation agrees with @medplum/core validateResource', () => {
  const adapter = testAdapter();
  adapter.definitions.ensureLoaded();
  const samples: Array<[string, string]> = [];
  for (const messageType of adapter.messageTypes) {
    for (let seed = 1; seed <= 3; seed++) samples.push([`generated ${messageType} ${seed}`, (adapter.generate({ messageType, count: 1, seed }) as string[])[0] as string]);
  }
  samples.push(...jsonFiles(join(projectRoot, 'test', 'fixtures', 'fhir-test-cases')));
  const corpus = corpusDir('fhir');
  if (corpus) samples.push(...jsonFiles(corpus));

  it('on valid and invalid resources as they come', () => {
    for (const [name, text] of samples) {
      const { ours, medplum, sameInputAfter } = both(text);
      expect(ours, name).toBe(medplum);
      expect(sameInputAfter, name).toBe(true);
    }
  });

  it('on the same resources broken in seeded ways', () => {
    const random = seeded(20261128);
    let withIssues = 0;
    for (let round = 0; round < 4; round++) {
      for (const [name, text] of samples) {
        const { ours, medplum, sameInputAfter } = both(broken(text, random));
        expect(ours, `${name}, broken #${round}`).toBe(medplum);
        expect(sameInputAfter, name).toBe(true);
        if (medplum !== '[]') withIssues++;
      }
    }
    // The breakage reaches the checks: most broken resources have something to report.
    expect(withIssues).toBeGreaterThan(samples.length * 2);
  });

  it('returns issues where @medplum/core throws them, and throws where it gives up', () => {
    const issues = validateStructure({ resourceType: 'Patient', gender: 12, birthDate: '1980-13-01', foo: 1 });
    expect(issues.map((issue) => issue.details?.text)).toEqual([
      'Invalid JSON type: expected string, but got number',
      'Invalid date format',
      'Invalid additional property "foo"',
    ]);
    expect(() => validateStructure({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Nope' } }] })).toThrow(/Unknown data type: Nope/);
  });
});
