/**
 * The key of a patient's date offset, the same whatever standard carried the patient: family name, first given name
 * and birth date (as digits), normalised (case, accents, punctuation, spacing). An HL7 ADT, a FHIR Patient and an
 * NCPDP NewRx of the same person therefore move their dates by the same number of days. Without all three the key
 * falls back to what the message has (its first patient identifier, say), prefixed so the two kinds never collide.
 */

const normalUnicode = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Upper case, runs of anything but letters and digits as one blank, none at the ends; ASCII text read in one pass. */
function normal(value: string): string {
  let out = '';
  let runStart = -1;
  for (let index = 0; index <= value.length; index++) {
    const code = index < value.length ? value.charCodeAt(index) : 32;
    if (code >= 128) return normalUnicode(value);
    const word = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (word && runStart < 0) runStart = index;
    else if (!word && runStart >= 0) {
      out += (out ? ' ' : '') + value.slice(runStart, index);
      runStart = -1;
    }
  }
  return out.toUpperCase();
}

/** The patient key of a person, or `fallback` (prefixed `other:`) when the name or birth date is missing. */
export function patientKey(family: string | undefined, given: string | undefined, birthDate: string | undefined, fallback: string): string {
  const digits = (birthDate ?? '').replace(/\D/g, '').slice(0, 8);
  const last = normal(family ?? '');
  const first = normal(given ?? '').split(' ')[0] ?? '';
  if (last && first && digits.length === 8) return `person:${last}|${first}|${digits}`;
  return fallback ? `other:${fallback}` : '';
}
