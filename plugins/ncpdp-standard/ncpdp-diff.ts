/**
 * Compares two NCPDP messages path by path (ncpdp-paths.ts): SCRIPT by element path, Telecommunication by
 * `Header.<id>` and `AM<segment>.<field>`. Ignored fields are patterns: an exact path, a path prefix (ignores the
 * subtree: `Header` ignores every Header element), and `*` standing for any run of characters within one step
 * (`*.MessageID`, `AM0*.D2`). Occurrence numbers are matched as written, or ignored when the pattern has none.
 */
import type { DiffResult, Difference } from '../../kernel/standards-registry.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import { flattenMessage, stripOccurrences } from './ncpdp-paths.ts';

/** Compiles an ignore pattern into a matcher of paths. */
export function compileIgnorePattern(pattern: string): (path: string) => boolean {
  const escaped = pattern
    .trim()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]*');
  const regex = new RegExp(`^${escaped}(?:$|[.@\\[])`);
  return (path) => regex.test(path) || regex.test(stripOccurrences(path));
}

/** Differences between two parsed messages, in the left message's order then additions in the right's. */
export function diffNcpdp(left: NcpdpMessage, right: NcpdpMessage, ignoredFields: readonly string[]): DiffResult {
  return diffFlattened(flattenMessage(left), flattenMessage(right), ignoredFields);
}

/** Differences between two flattened messages (path to value), honouring the ignore patterns. */
export function diffFlattened(leftValues: ReadonlyMap<string, string>, rightValues: ReadonlyMap<string, string>, ignoredFields: readonly string[]): DiffResult {
  const matchers = ignoredFields.filter((p) => p.trim() !== '').map(compileIgnorePattern);
  const ignored = (path: string) => matchers.some((match) => match(path));
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
