/**
 * Bounded excerpts of input. A value a caller sent (a URL, a header, a field of a message) can be megabytes and can
 * be a patient's data: error messages and log lines repeat at most a short excerpt of it, and say how much was left
 * out.
 */

/** Characters of caller input an error message repeats at most. */
export const EXCERPT_CHARACTERS = 200;

/** `text` itself when short, else its first `max` characters and how many were left out. */
export function excerpt(text: string, max = EXCERPT_CHARACTERS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
