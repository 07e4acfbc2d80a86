/**
 * Which `ignoredFields` patterns match nothing: each standard walks every path of both messages and asks, for each
 * pattern not matched yet, whether it matches that path. A pattern that matches no path of either message is almost
 * always a typo (`PID.3.1` for `PID-3.1`, `Patient.nme`), so the diff names it. The work is bounded: once every
 * pattern has matched the walk stops, and after {@link UNMATCHED_CHECK_BUDGET} checks it gives up without a verdict
 * rather than hold a large diff up.
 */
import { compilePathPattern, pathSteps, type PathPattern, type PathPatternOptions, type PathStep } from './path-pattern.ts';

/** Most pattern-against-path checks one diff spends on finding unmatched patterns. */
export const UNMATCHED_CHECK_BUDGET = 2_000_000;

/**
 * The texts of the patterns that match none of `paths`, in the order given; undefined when the budget ran out
 * before the walk ended (no pattern is then called unmatched). `paths` is consumed lazily and left as soon as every
 * pattern has matched.
 */
export function unmatchedPatterns<P, T>(
  patterns: ReadonlyArray<{ text: string; pattern: P | undefined }>,
  paths: Iterable<T>,
  matches: (pattern: P, path: T) => boolean,
  budget = UNMATCHED_CHECK_BUDGET,
): string[] | undefined {
  // A pattern that did not even compile matches nothing.
  const pending = patterns.filter((entry) => entry.pattern !== undefined) as Array<{ text: string; pattern: P }>;
  const neverCompiled = patterns.filter((entry) => entry.pattern === undefined).map((entry) => entry.text);
  let left = budget;
  if (pending.length > 0) {
    for (const path of paths) {
      if (left < pending.length) return undefined;
      left -= pending.length;
      for (let i = pending.length - 1; i >= 0; i--) if (matches((pending[i] as { pattern: P }).pattern, path)) pending.splice(i, 1);
      if (pending.length === 0) break;
    }
  }
  const unmatched = new Set([...neverCompiled, ...pending.map((entry) => entry.text)]);
  return patterns.map((entry) => entry.text).filter((text) => unmatched.has(text));
}

function* stepsOf(paths: Iterable<string>, options: PathPatternOptions): Generator<PathStep[]> {
  for (const path of paths) yield pathSteps(path, options);
}

/**
 * {@link unmatchedPatterns} for the kernel's path patterns (kernel/lib/paths/path-pattern.ts) over written paths; the patterns
 * were checked against the limits by the diff already. A blank pattern matches nothing.
 */
export function unmatchedPathPatterns(texts: readonly string[], options: PathPatternOptions, paths: Iterable<string>): string[] | undefined {
  if (texts.length === 0) return [];
  const entries = texts.map((text) => ({ text, pattern: text.trim() === '' ? undefined : compilePathPattern(text, options) }));
  return unmatchedPatterns<PathPattern, PathStep[]>(entries, stepsOf(paths, options), (pattern, steps) => pattern.covers(steps));
}
