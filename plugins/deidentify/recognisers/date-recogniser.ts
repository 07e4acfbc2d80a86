/**
 * Dates in free text, and how one is shifted in its own format: `06/15/1961`, `6-15-61`, `1961-06-15`, `1961/6/15`,
 * `19610615` (a valid date of eight digits, with a time of day after it or not), `June 15, 1961`, `15 Jun 1961` and
 * `June 1961`. Ages over 89 (`92 years old`, `age 93`, `91 y/o`) are found here too (Safe Harbor folds them into 90+).
 */
import { type Recognised, spansOf } from './recognised.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const NUMERIC_MDY = /(?<![\w/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\w/-])/g;
const NUMERIC_YMD = /(?<![\w/.-])(\d{4})([/.-])(\d{1,2})\2(\d{1,2})(?![\w/-])/g;
const COMPACT = /(?<![\w.-])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:\d{2,6}(?:\.\d+)?)?(?:[+-]\d{4})?(?![\w.-])/g;
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\.?,?\\s+(\\d{4})\\b`, 'gi');
const MONTH_YEAR = new RegExp(`\\b(${MONTH})\\.?,?\\s+(\\d{4})\\b`, 'gi');
const OLD_AGE = /\b(?:(?<value>9\d|1[0-4]\d)\s*(?:-\s*)?(?:years?|yrs?|y\/?o|yo)\b|(?:age[ds]?|aged)\s*:?\s*(?<value2>9\d|1[0-4]\d)\b)/gi;

const validDay = (year: number, month: number, day: number) => {
  if (month < 1 || month > 12 || day < 1) return false;
  return new Date(Date.UTC(year, month - 1, day)).getUTCMonth() === month - 1;
};

/** Dates and ages over 89 in `text`. */
export function recogniseDates(text: string): Recognised[] {
  const found = spansOf(text, NUMERIC_MDY, 'date', (match) => {
    const [a, b, year] = [Number(match[1]), Number(match[3]), Number(match[4]!.length === 2 ? `19${match[4]}` : match[4])];
    return validDay(year, a, b) || validDay(year, b, a);
  });
  found.push(...spansOf(text, NUMERIC_YMD, 'date', (match) => validDay(Number(match[1]), Number(match[3]), Number(match[4]))));
  found.push(...spansOf(text, COMPACT, 'date', (match) => validDay(Number(match[1]), Number(match[2]), Number(match[3]))));
  found.push(...spansOf(text, MONTH_DAY_YEAR, 'date'));
  found.push(...spansOf(text, DAY_MONTH_YEAR, 'date'));
  found.push(...spansOf(text, MONTH_YEAR, 'date'));
  OLD_AGE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = OLD_AGE.exec(text)) !== null) {
    const value = match.groups!.value ?? match.groups!.value2!;
    const start = match.index + match[0].indexOf(value);
    found.push({ start, end: start + value.length, kind: 'age' });
  }
  return found;
}

const DAY_MS = 86_400_000;
const pad = (value: number, like: string) => String(value).padStart(like.length, '0');

function moved(year: number, month: number, day: number, days: number): { year: number; month: number; day: number } {
  const at = new Date(Date.UTC(year, month - 1, day) + days * DAY_MS);
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
}

function monthIndex(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase());
}

function monthLike(original: string, index: number): string {
  const full = MONTH_NAMES[index]!;
  const word = original.replace(/\.$/, '');
  const made = word.length <= 3 ? full.slice(0, 3) : full;
  if (word === word.toUpperCase()) return made.toUpperCase();
  if (word === word.toLowerCase()) return made.toLowerCase();
  return made;
}

/**
 * A recognised date moved by `days`, written as it was (separators, widths, month names, a two-digit year); the year
 * alone or an unreadable value is returned unchanged (the caller then replaces it otherwise).
 */
export function shiftDateText(value: string, days: number): string | undefined {
  let match = /^(\d{4})([/.-])(\d{1,2})\2(\d{1,2})$/.exec(value);
  if (match) {
    const to = moved(Number(match[1]), Number(match[3]), Number(match[4]), days);
    return `${to.year}${match[2]}${pad(to.month, match[3]!)}${match[2]}${pad(to.day, match[4]!)}`;
  }
  match = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/.exec(value);
  if (match) {
    const short = match[4]!.length === 2;
    const year = Number(short ? (Number(match[4]) > 30 ? `19${match[4]}` : `20${match[4]}`) : match[4]);
    const monthFirst = Number(match[1]) <= 12;
    const [month, day] = monthFirst ? [Number(match[1]), Number(match[3])] : [Number(match[3]), Number(match[1])];
    const to = moved(year, month, day, days);
    const [first, second] = monthFirst ? [to.month, to.day] : [to.day, to.month];
    return `${pad(first, match[1]!)}${match[2]}${pad(second, match[3]!)}${match[2]}${short ? String(to.year).slice(-2) : to.year}`;
  }
  match = /^(\d{4})(\d{2})(\d{2})(.*)$/.exec(value);
  if (match) {
    const to = moved(Number(match[1]), Number(match[2]), Number(match[3]), days);
    return `${to.year}${pad(to.month, '00')}${pad(to.day, '00')}${match[4]}`;
  }
  match = /^([A-Za-z]+\.?)(\s+)(\d{1,2})((?:st|nd|rd|th)?,?\s+)(\d{4})$/.exec(value);
  if (match && monthIndex(match[1]!) >= 0) {
    const to = moved(Number(match[5]), monthIndex(match[1]!) + 1, Number(match[3]), days);
    const suffix = match[4]!.replace(/st|nd|rd|th/, '');
    return `${monthLike(match[1]!, to.month - 1)}${match[2]}${to.day}${suffix}${to.year}`;
  }
  match = /^(\d{1,2})((?:st|nd|rd|th)?\s+(?:of\s+)?)([A-Za-z]+\.?)(,?\s+)(\d{4})$/.exec(value);
  if (match && monthIndex(match[3]!) >= 0) {
    const to = moved(Number(match[5]), monthIndex(match[3]!) + 1, Number(match[1]), days);
    return `${to.day}${match[2]!.replace(/st|nd|rd|th/, '')}${monthLike(match[3]!, to.month - 1)}${match[4]}${to.year}`;
  }
  match = /^([A-Za-z]+\.?)(,?\s+)(\d{4})$/.exec(value);
  if (match && monthIndex(match[1]!) >= 0) {
    const to = moved(Number(match[3]), monthIndex(match[1]!) + 1, 1, days);
    return `${monthLike(match[1]!, to.month - 1)}${match[2]}${to.year}`;
  }
  return undefined;
}
