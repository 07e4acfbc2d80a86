/**
 * Identifier-shaped tokens in free text: social security numbers (`123-45-6789`, or nine digits after `SSN`),
 * values announced as a record, account, member, policy or licence number (`MRN: 88877766`, `acct# A-1234`), and
 * tokens that mix letters and at least four digits (`PATID1234`, `MRN88877766`) or run seven digits or more (codes
 * and identifiers alike: in free text a long number is replaced rather than risked).
 */
import { type Recognised, spansOf } from './recognised.ts';

const SSN = /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])|(?<=\b(?:ssn|social security(?: number| no\.?)?|ss#)\s*[:#]?\s*)\d{9}\b/gi;
const ANNOUNCED =
  /\b(?:mrn|mr#|medical record(?: number| no\.?)?|record(?: number| no\.?| #)|acct|account(?: number| no\.?)?|member(?: id| number)?|policy(?: number| no\.?)?|subscriber(?: id)?|licen[cs]e(?: number| no\.?)?|dl#?|id(?: number| no\.?)?|patient id|chart(?: number| no\.?)?|visit(?: number| no\.?)?|encounter(?: number| no\.?)?)\s*(?:#|:|is|no\.?)?\s*(?<value>[A-Za-z0-9][A-Za-z0-9-]{2,30})/gi;
const MIXED = /\b(?=[A-Za-z0-9-]*\d{4})(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{3,40}\b/g;
const LONG_NUMBER = /(?<![\w.-])\d{7,}(?![\w.-])/g;

/** SSNs, announced identifiers and identifier-shaped tokens. */
export function recogniseIdentifiers(text: string): Recognised[] {
  const found = spansOf(text, SSN, 'ssn');
  found.push(...spansOf(text, ANNOUNCED, 'identifier', (match) => /\d/.test(match.groups!.value!)));
  found.push(...spansOf(text, MIXED, 'identifier'));
  found.push(...spansOf(text, LONG_NUMBER, 'identifier'));
  return found;
}
