/**
 * Compares two NCPDP messages path by path (ncpdp-paths.ts): SCRIPT by element path, Telecommunication by
 * `Header.<id>` and `AM<segment>.<field>`. Ignored fields are patterns: an exact path, a path prefix (ignores the
 * subtree: `Header` ignores every Header element), `*` standing for any run of characters within one step
 * (`*.MessageID`, `AM0*.D2`) and `**` for any number of steps. Occurrence numbers are matched as written (`Name[1]`
 * is the first `Name`, `[*]` any), or ignored when the pattern has none.
 */
import { DifferenceList } from '../../kernel/standards/issue-list.ts';
import type { DiffOptions, DiffResult } from '../../kernel/standards-registry.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import { createPathMatcher, type PathPatternOptions } from '../../kernel/lib/paths/path-pattern.ts';
import { flattenMessage } from './ncpdp-paths.ts';
import { unmatchedPathPatterns } from '../../kernel/lib/paths/pattern-usage.ts';

/** How NCPDP paths read to the kernel's step matcher: from the first step, `@` attributes, `Name` is `Name[1]`. */
const NCPDP_PATTERN_OPTIONS: PathPatternOptions = { anchor: 'start', attributes: true, implicitIndex: 1 };

/**
 * Compiles ignore patterns into one matcher of paths (kernel/lib/paths/path-pattern.ts: step by step, never a regular
 * expression). More than 100 patterns, or one longer than 256 characters, is refused with 400 naming the entry.
 */
export function createIgnoreMatcher(patterns: readonly string[]): (path: string) => boolean {
  return createPathMatcher(patterns, 'ignoredFields', NCPDP_PATTERN_OPTIONS);
}

/** Differences between two parsed messages, in the left message's order then additions in the right's. */
export function diffNcpdp(left: NcpdpMessage, right: NcpdpMessage, options: DiffOptions): DiffResult {
  return diffFlattened(flattenMessage(left), flattenMessage(right), options);
}

/**
 * Differences between two flattened messages (path to value), honouring the ignore patterns: every difference
 * counted, at most `maxDifferences` listed (kernel/standards/issue-list.ts).
 */
export function diffFlattened(leftValues: ReadonlyMap<string, string>, rightValues: ReadonlyMap<string, string>, options: DiffOptions): DiffResult {
  const ignored = createIgnoreMatcher(options.ignoredFields);
  const differences = new DifferenceList(options.maxDifferences);
  for (const [path, leftValue] of leftValues) {
    const rightValue = rightValues.get(path);
    // Equal values first: only a path that differs is matched against the patterns.
    if (rightValue === leftValue || ignored(path)) continue;
    if (rightValue === undefined) differences.add({ field: path, leftValue, rightValue: '', changeType: 'removed' });
    else differences.add({ field: path, leftValue, rightValue, changeType: 'modified' });
  }
  for (const [path, rightValue] of rightValues) {
    if (!leftValues.has(path) && !ignored(path)) differences.add({ field: path, leftValue: '', rightValue, changeType: 'added' });
  }
  return {
    differences: differences.differences,
    totalDifferences: differences.count,
    totals: differences.totals(),
    truncated: differences.truncated,
    ignoredFields: [...options.ignoredFields],
    unmatchedIgnoredFields: unmatchedPathPatterns(options.ignoredFields, NCPDP_PATTERN_OPTIONS, pathsOfBoth(leftValues, rightValues)),
  };
}

/** Every path of the left message, then those only the right one has. */
function* pathsOfBoth(leftValues: ReadonlyMap<string, string>, rightValues: ReadonlyMap<string, string>): Generator<string> {
  yield* leftValues.keys();
  for (const path of rightValues.keys()) if (!leftValues.has(path)) yield path;
}
