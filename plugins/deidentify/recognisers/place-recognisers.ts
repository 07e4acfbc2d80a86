/**
 * Places in free text: street addresses (a house number, one to four words and a street kind: `2222 Home Street`,
 * `12 N. Main St.`, `PO Box 123`) and ZIP codes announced by a state abbreviation or the word ZIP (`NC 27401`,
 * `zip 27401-1234`), and the city before such a state and ZIP (`Greensboro, NC 27401`).
 */
import { type Recognised, spansOf } from './recognised.ts';

const STREET_KINDS =
  'street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|circle|cir|terrace|ter|highway|hwy|parkway|pkwy|trail|trl|square|sq|alley|plaza';
const STREET = new RegExp(
  `\\b\\d{1,6}[A-Za-z]?\\s+(?:[A-Za-z][A-Za-z'.]*\\s+){1,4}(?:${STREET_KINDS})\\b\\.?(?:,?\\s*(?:apt|apartment|suite|ste|unit|#)\\.?\\s*[A-Za-z0-9-]{1,6})?|\\bP\\.?\\s?O\\.?\\s+box\\s+\\d{1,8}\\b`,
  'gi',
);
const STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI';
const ZIP = new RegExp(`(?:\\b(?:${STATES})\\.?,?\\s+|\\bzip(?:\\s*code)?\\s*[:#]?\\s*)(?<value>\\d{5}(?:-\\d{4})?)\\b`, 'g');
/** A city: one to three capitalised words right before a state abbreviation and a ZIP (`Greensboro, NC 27401`). */
const CITY = new RegExp(`(?<value>\\b[A-Z][A-Za-z.'-]+(?:[ ][A-Z][A-Za-z.'-]+){0,2}),?[ ]+(?:${STATES})\\.?,?[ ]+\\d{5}(?:-\\d{4})?\\b`, 'g');
const ZIP_WORD = /\bzip(?:\s*code)?\s*[:#]?\s*(?<value>\d{5}(?:-\d{4})?)\b/gi;

/** Street addresses and ZIP codes. */
export function recognisePlaces(text: string): Recognised[] {
  const found = spansOf(text, STREET, 'street');
  found.push(...spansOf(text, ZIP, 'postalCode'));
  found.push(...spansOf(text, ZIP_WORD, 'postalCode'));
  found.push(...spansOf(text, CITY, 'city'));
  return found;
}
