/**
 * What a free-text recogniser reports: a span of the text and the Safe Harbor kind it holds. Recognisers are plain
 * functions over a string (one concern per file beside this one); free-text-scrubber.ts runs them all and replaces
 * what they find.
 */

/** Kinds of values found in free text, each replaced its own way. */
export type RecognisedKind =
  | 'givenName'
  | 'familyName'
  | 'ssn'
  | 'phone'
  | 'email'
  | 'url'
  | 'ipAddress'
  | 'identifier'
  | 'street'
  | 'city'
  | 'postalCode'
  | 'date'
  | 'age';

/** One value found in a text (UTF-16 offsets, end exclusive). */
export interface Recognised {
  start: number;
  end: number;
  kind: RecognisedKind;
}

/** Every match of a global regular expression as spans of `kind` (group `value` when the pattern names one). */
export function spansOf(text: string, pattern: RegExp, kind: RecognisedKind, accept?: (match: RegExpExecArray) => boolean): Recognised[] {
  const found: Recognised[] = [];
  pattern.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    if (accept && !accept(match)) continue;
    const value = match.groups?.value;
    const start = value === undefined ? match.index : match.index + match[0].indexOf(value);
    found.push({ start, end: start + (value ?? match[0]).length, kind });
  }
  return found;
}
