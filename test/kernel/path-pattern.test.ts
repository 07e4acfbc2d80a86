// The kernel's path-pattern engine: agrees with a plain backtracking reference on small inputs, and its time grows
// linearly with the path where a regular expression would backtrack.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPathPatternLimits,
  compilePathPattern,
  globMatches,
  MAX_PATH_PATTERN_LENGTH,
  MAX_PATH_PATTERNS,
  type PathPatternOptions,
  type PathStep,
  pathSteps,
} from '../../kernel/lib/paths/path-pattern.ts';
import { doublingRatio } from '../helpers/growth-ratio.ts';

/** A pattern step as the reference reads it. */
type RefStep = '**' | { name: string; index?: number | '*' };

/** Glob of `*` by plain backtracking: exponential at worst, exact, fine for tiny names. */
function refGlob(pattern: string, name: string): boolean {
  if (pattern === '') return name === '';
  if (pattern[0] === '*') return refGlob(pattern.slice(1), name) || (name !== '' && refGlob(pattern, name.slice(1)));
  return name !== '' && pattern[0] === name[0] && refGlob(pattern.slice(1), name.slice(1));
}

function refCoversFrom(pattern: RefStep[], pi: number, path: PathStep[], ai: number, implicitIndex?: number): boolean {
  if (pi === pattern.length) return true;
  const step = pattern[pi] as RefStep;
  if (step === '**') {
    return refCoversFrom(pattern, pi + 1, path, ai, implicitIndex) || (ai < path.length && refCoversFrom(pattern, pi, path, ai + 1, implicitIndex));
  }
  if (ai === path.length) return false;
  const actual = path[ai] as PathStep;
  const indexOk = step.index === undefined || step.index === '*' || step.index === (actual.index ?? implicitIndex);
  return indexOk && refGlob(step.name, actual.name) && refCoversFrom(pattern, pi + 1, path, ai + 1, implicitIndex);
}

function refCovers(pattern: RefStep[], path: PathStep[], options: PathPatternOptions): boolean {
  if (options.anchor === 'start') return refCoversFrom(pattern, 0, path, 0, options.implicitIndex);
  for (let start = 0; start < Math.max(1, path.length); start++) {
    if (refCoversFrom(pattern, 0, path, start, options.implicitIndex)) return true;
  }
  return false;
}

function render(pattern: RefStep[]): string {
  return pattern
    .map((step) => (step === '**' ? '**' : step.index === undefined ? step.name : `${step.name}[${step.index}]`))
    .join('.');
}

const nameArb = fc.constantFrom('a', 'b', 'ab', 'ba', 'aab');
const globArb = fc.constantFrom('a', 'b', 'ab', '*', 'a*', '*b', 'a*b', '*a*', '**a');
const pathArb = fc.array(
  fc.record({ name: nameArb, index: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }) }).map((s) =>
    s.index === undefined ? { name: s.name } : s,
  ),
  { maxLength: 6 },
);
const patternArb = fc.array(
  fc.oneof(
    fc.constant<RefStep>('**'),
    fc
      .record({ name: globArb, index: fc.option(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant<'*'>('*')), { nil: undefined }) })
      .map((s): RefStep => (s.index === undefined ? { name: s.name } : s)),
  ),
  { minLength: 1, maxLength: 5 },
);
const optionsArb = fc.constantFrom<PathPatternOptions>(
  { anchor: 'start' },
  { anchor: 'any-step' },
  { anchor: 'start', implicitIndex: 1 },
);

describe('path patterns', () => {
  it('agree with a backtracking reference on small random paths and patterns', () => {
    let compared = 0;
    let covered = 0;
    fc.assert(
      fc.property(patternArb, pathArb, optionsArb, (pattern, path, options) => {
        const expected = refCovers(pattern, path, options);
        compared++;
        if (expected) covered++;
        expect(compilePathPattern(render(pattern), options).covers(path)).toBe(expected);
      }),
      { numRuns: 3_000 },
    );
    // Both answers occur often enough for the comparison to mean something.
    expect(covered).toBeGreaterThan(compared / 10);
    expect(covered).toBeLessThan(compared - compared / 10);
  });

  it('agree with the reference glob on names', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,8}$/), fc.stringMatching(/^[ab]{0,10}$/), (glob, name) => {
        expect(globMatches(glob.split('*'), name)).toBe(refGlob(glob, name));
      }),
      { numRuns: 3_000 },
    );
  });

  it('read indexes, [*] and attributes', () => {
    expect(pathSteps('Patient.name[0].value[x]')).toEqual([{ name: 'Patient' }, { name: 'name', index: 0 }, { name: 'value[x]' }]);
    expect(pathSteps('NewRx.Drug[2].Code@Qualifier', { attributes: true })).toEqual([
      { name: 'NewRx' },
      { name: 'Drug', index: 2 },
      { name: 'Code' },
      { name: '@Qualifier' },
    ]);
    const ncpdp: PathPatternOptions = { anchor: 'start', attributes: true, implicitIndex: 1 };
    const covers = (pattern: string, path: string, options = ncpdp) =>
      compilePathPattern(pattern, options).covers(pathSteps(path, options));
    expect(covers('record[*].BatchNumber', 'record[5].BatchNumber')).toBe(true);
    expect(covers('Name[1].Last', 'Name.Last')).toBe(true);
    expect(covers('Name[2].Last', 'Name.Last')).toBe(false);
    expect(covers('Header', 'Header.MessageID')).toBe(true);
    expect(covers('Message@*', 'Message@version')).toBe(true);
    expect(covers('**.ProductCode@Qualifier', 'NewRx.MedicationPrescribed.DrugCoded.ProductCode@Qualifier')).toBe(true);
    expect(covers('**.ProductCode', 'NewRx.MedicationPrescribed.DrugCoded.ProductCode@Qualifier')).toBe(true);
    expect(covers('Header.Sent*', 'Header.SentTime')).toBe(true);
    expect(covers('Header.Sent*', 'Body.SentTime')).toBe(false);
    const fhir: PathPatternOptions = { anchor: 'any-step' };
    expect(covers('meta.lastUpdated', 'Bundle.entry[3].resource.meta.lastUpdated', fhir)).toBe(true);
    expect(covers('meta.lastUpdated', 'Patient.metadata.lastUpdated', fhir)).toBe(false);
    expect(covers('name[*].family', 'Patient.name[4].family', fhir)).toBe(true);
    expect(covers('name[1]', 'Patient.name[0].family', fhir)).toBe(false);
  });

  it('refuse more than the maximum number of patterns, or a pattern over the maximum length, naming it', () => {
    expect(() => checkPathPatternLimits(Array.from({ length: MAX_PATH_PATTERNS }, () => 'a'), 'ignoredFields')).not.toThrow();
    expect(() => checkPathPatternLimits(Array.from({ length: MAX_PATH_PATTERNS + 1 }, () => 'a'), 'ignoredFields')).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_PATTERNS', status: 400 }),
    );
    const patterns = ['a', 'b', 'c', 'x'.repeat(MAX_PATH_PATTERN_LENGTH + 1)];
    expect(() => checkPathPatternLimits(patterns, 'ignoredFields')).toThrow(
      expect.objectContaining({ code: 'PATTERN_TOO_LONG', status: 400, message: expect.stringContaining('ignoredFields[3]') }),
    );
  });

  it('match the pathological patterns in time linear in the path', () => {
    const options: PathPatternOptions = { anchor: 'start', attributes: true, implicitIndex: 1 };
    // `*a*a*a*a!` against a name of n letters a: a backtracking regex takes n^4 steps and never answers.
    const glob = compilePathPattern('Header.*a*a*a*a!', options);
    expect(glob.covers([{ name: 'Header' }, { name: 'a'.repeat(3_000) }])).toBe(false);
    const globRatio = doublingRatio(
      (n) => [{ name: 'Header' }, { name: 'a'.repeat(n) }],
      (path) => glob.covers(path),
      20_000,
    );
    expect(globRatio).toBeLessThan(3);
    // `**.**.**.**.**.nomatch` against a deep path: each `**` multiplied a recursive matcher's work.
    const deep = compilePathPattern(`${'**.'.repeat(60)}nomatch`, { anchor: 'any-step' });
    const path = (n: number) => Array.from({ length: n }, (_, i) => ({ name: i % 2 ? 'extension' : 'url', index: 0 }));
    expect(deep.covers(path(400))).toBe(false);
    const deepRatio = doublingRatio(path, (steps) => deep.covers(steps), 2_000);
    expect(deepRatio).toBeLessThan(3);
    // Many single-step wildcards: the state set is as long as the pattern, and each path step visits it once.
    const stars = compilePathPattern(Array.from({ length: 80 }, () => '*').join('.'), { anchor: 'any-step' });
    expect(stars.covers(path(79))).toBe(false);
    expect(stars.covers(path(80))).toBe(true);
  });
});
