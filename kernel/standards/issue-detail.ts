/**
 * The `expected` and `actual` of a validation finding (kernel/standards-registry.ts): short, bounded strings a person
 * and the triage read beside the sentence. A list of allowed codes is cut to a bound and says how many more there
 * are; a value found is excerpted, never more than about sixty characters, as it can be long and can be a patient's.
 */
import { excerpt } from '../lib/text/text-excerpt.ts';

/** Characters of a value found that a finding repeats at most. */
export const ACTUAL_CHARACTERS = 60;

/** Allowed codes a finding lists at most. */
export const EXPECTED_CODES = 10;

/** `actual` of a finding: the value found, excerpted; `empty` for an empty value. */
export function actualValue(value: string): string {
  return value === '' ? 'empty' : excerpt(value, ACTUAL_CHARACTERS);
}

/**
 * `expected` of a finding that wants one of some codes: `one of A, B, C`, at most {@link EXPECTED_CODES} of them and
 * `… and N more` when there are more. `total` is the count of codes when `codes` is only a sample of them.
 */
export function expectedCodes(codes: Iterable<string>, total?: number): string {
  const shown: string[] = [];
  let count = 0;
  for (const code of codes) {
    if (shown.length < EXPECTED_CODES) shown.push(code);
    count++;
  }
  const all = Math.max(count, total ?? 0);
  const more = all - shown.length;
  return `one of ${shown.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`;
}

/** `expected` and `actual` of a required value that is missing. */
export const MISSING_VALUE: Readonly<{ expected: string; actual: string }> = { expected: 'a value', actual: 'empty' };
