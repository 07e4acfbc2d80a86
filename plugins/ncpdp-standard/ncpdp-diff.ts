/**
 * Compares two NCPDP messages path by path (ncpdp-paths.ts): SCRIPT by element path, Telecommunication by
 * `Header.<id>` and `AM<segment>.<field>`. Ignored fields are patterns: an exact path, a path prefix (ignores the
 * subtree: `Header` ignores every Header element), `*` standing for any run of characters within one step
 * (`*.MessageID`, `AM0*.D2`) and `**` for any number of steps. Occurrence numbers are matched as written (`Name[1]`
 * is the first `Name`, `[*]` any), or ignored when the pattern has none.
 */
import type { DiffResult, Difference } from '../../kernel/standards-registry.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import { createPathMatcher, type PathPatternOptions } from '../../kernel/path-pattern.ts';
import { flattenMessage } from './ncpdp-paths.ts';

/** How NCPDP paths read to the kernel's step matcher: from the first step, `@` attributes, `Name` is `Name[1]`. */
const NCPDP_PATTERN_OPTIONS: PathPatternOptions = { anchor: 'start', attributes: true, implicitIndex: 1 };

/**
 * Compiles ignore patterns into one matcher of paths (kernel/path-pattern.ts: step by step, never a regular
 * expression). More than 100 patterns, or one longer than 256 characters, is refused with 400 naming the entry.
 */
export function createIgnoreMatcher(patterns: readonly string[]): (path: string) => boolean {
  return createPathMatcher(patterns, 'ignoredFields', NCPDP_PATTERN_OPTIONS);
}

/** Differences between two parsed messages, in the left message's order then additions in the right's. */
export function diffNcpdp(left: NcpdpMessage, right: NcpdpMessage, ignoredFields: readonly string[]): DiffResult {
  return diffFlattened(flattenMessage(left), flattenMessage(right), ignoredFields);
}

/** Differences between two flattened messages (path to value), honouring the ignore patterns. */
export function diffFlattened(leftValues: ReadonlyMap<string, string>, rightValues: ReadonlyMap<string, string>, ignoredFields: readonly string[]): DiffResult {
  const ignored = createIgnoreMatcher(ignoredFields);
  const differences: Difference[] = [];
  for (const [path, leftValue] of leftValues) {
    if (ignored(path)) continue;
    const rightValue = rightValues.get(path);
    if (rightValue === undefined) differences.push({ field: path, leftValue, rightValue: '', changeType: 'removed' });
    else if (rightValue !== leftValue) differences.push({ field: path, leftValue, rightValue, changeType: 'modified' });
  }
  for (const [path, rightValue] of rightValues) {
    if (!leftValues.has(path) && !ignored(path)) differences.push({ field: path, leftValue: '', rightValue, changeType: 'added' });
  }
  return { differences, totalDifferences: differences.length, ignoredFields: [...ignoredFields] };
}
