/**
 * Format checks of HL7 v2 primitive values (v2.5 chapter 2A): numbers, sequence ids, dates, times and timestamps.
 * A value that does not have the format is an invalid data type; one with the format but no such calendar moment
 * (month 13, 30 February, 25 o'clock) is an invalid date.
 */

/** Outcome of checking one primitive value: undefined when fine. */
export interface ValueProblem {
  code: 'INVALID_DATA_TYPE' | 'INVALID_DATE';
  /** What is wrong, completing "X is ..." (e.g. `not a number`). */
  reason: string;
  /** True when the value's intent is clear despite the defect, so compatibility mode reports a warning. */
  tolerable?: boolean;
}

/*
 * The formats are read with character codes rather than regular expressions: these checks run for every date,
 * time and number of every message, and the hand-written readers accept exactly what these patterns do:
 *   NM  ^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$
 *   SI  ^\d+$
 *   DT  ^\d{4}(?:\d{2}(?:\d{2})?)?$
 *   TM  ^\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?([+-]\d{4})?$
 *   DTM ^\d{4}(?:\d{2}(?:\d{2}(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?)?)?)?([+-]\d{4})?$
 */

function isDigitAt(value: string, pos: number): boolean {
  const code = value.charCodeAt(pos);
  return code >= 48 && code <= 57;
}

/** Number of ASCII digits from `pos` on. */
function countDigits(value: string, pos: number): number {
  let end = pos;
  while (isDigitAt(value, end)) end++;
  return end - pos;
}

/** The two-digit number at `pos` (digits already checked). */
function twoDigitsAt(value: string, pos: number): number {
  return (value.charCodeAt(pos) - 48) * 10 + (value.charCodeAt(pos + 1) - 48);
}

function isNumber(value: string): boolean {
  let pos = value.charCodeAt(0) === 43 || value.charCodeAt(0) === 45 ? 1 : 0;
  const whole = countDigits(value, pos);
  pos += whole;
  let fraction = 0;
  if (value.charCodeAt(pos) === 46) {
    fraction = countDigits(value, pos + 1);
    pos += 1 + fraction;
  }
  return pos === value.length && (whole > 0 || fraction > 0);
}

/**
 * Reads a date or time: `head` digits, then up to `maxGroups` two-digit groups (a fraction of 1 to 4 digits only
 * after the last one), then an optional `+ZZZZ`/`-ZZZZ` zone. Gives the number of groups read, or -1 when the
 * value does not have the format. Taking each group greedily loses nothing: a digit left unread can never start
 * a zone, so no shorter reading could match.
 */
function readMoment(value: string, head: number, maxGroups: number): number {
  const length = value.length;
  if (countDigits(value, 0) < head) return -1;
  let pos = head;
  let groups = 0;
  while (groups < maxGroups && isDigitAt(value, pos) && isDigitAt(value, pos + 1)) {
    pos += 2;
    groups++;
  }
  if (groups === maxGroups && value.charCodeAt(pos) === 46) {
    const digits = Math.min(countDigits(value, pos + 1), 4);
    if (digits === 0) return -1;
    pos += 1 + digits;
  }
  if (pos === length) return groups;
  const sign = value.charCodeAt(pos);
  return (sign === 43 || sign === 45) && pos + 5 === length && countDigits(value, pos + 1) === 4 ? groups : -1;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1] as number;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** Checks the month (and day) of a date read by {@link readMoment}, from its first character; `parts` 0 to 2. */
function checkCalendar(value: string, parts: number): ValueProblem | undefined {
  if (parts < 1) return undefined;
  const m = twoDigitsAt(value, 4);
  if (m < 1 || m > 12) return { code: 'INVALID_DATE', reason: `not a real date (month ${value.slice(4, 6)})` };
  if (parts < 2) return undefined;
  const d = twoDigitsAt(value, 6);
  if (d < 1 || d > daysInMonth(Number(value.slice(0, 4)), m)) {
    return { code: 'INVALID_DATE', reason: `not a real date (day ${value.slice(6, 8)} of ${value.slice(0, 4)}-${value.slice(4, 6)})` };
  }
  return undefined;
}

const CLOCK_LIMITS = [23, 59, 59];
const CLOCK_UNITS = ['hour', 'minute', 'second'];

/** Checks hour, minute and second (those of the `parts` present, from `pos`) and the zone of a time. */
function checkClock(value: string, pos: number, parts: number): ValueProblem | undefined {
  for (let i = 0; i < parts; i++) {
    const at = pos + 2 * i;
    if (twoDigitsAt(value, at) > (CLOCK_LIMITS[i] as number)) {
      return { code: 'INVALID_DATE', reason: `not a real time (${CLOCK_UNITS[i]} ${value.slice(at, at + 2)})` };
    }
  }
  const zone = value.length - 5;
  const sign = value.charCodeAt(zone);
  if (zone >= 0 && (sign === 43 || sign === 45)) {
    if (twoDigitsAt(value, zone + 1) > 14 || twoDigitsAt(value, zone + 3) > 59) {
      return { code: 'INVALID_DATE', reason: `not a real time zone offset (${value.slice(zone)})` };
    }
  }
  return undefined;
}

/**
 * A time or timestamp whose fraction of a second lacks its dot (`20110613122406637`, a common sender defect): all
 * `secondsEnd` digits up to the seconds, then 1 to 4 more digits, then an optional zone. The digits after the
 * seconds can only be a fraction, so the intended value is clear: an invalid data type that compatibility mode
 * tolerates, naming the value meant. When that value is not a real moment, its calendar problem is reported instead.
 */
function undottedFraction(value: string, secondsEnd: number, type: 'TM' | 'DTM'): ValueProblem | undefined {
  const digits = countDigits(value, 0);
  const fraction = digits - secondsEnd;
  if (fraction < 1 || fraction > 4) return undefined;
  const zone = value.slice(digits);
  if (zone !== '' && !(zone.length === 5 && (zone[0] === '+' || zone[0] === '-') && countDigits(zone, 1) === 4)) return undefined;
  const intended = `${value.slice(0, secondsEnd)}.${value.slice(secondsEnd)}`;
  const real = type === 'TM' ? checkClock(intended, 0, 3) : (checkCalendar(intended, 2) ?? checkClock(intended, 8, 3));
  if (real) return real;
  return {
    code: 'INVALID_DATA_TYPE',
    reason: `not a valid ${type === 'TM' ? 'time' : 'date/time'}: the fraction of a second lacks its dot (likely meant "${intended}")`,
    tolerable: true,
  };
}

/** The format of each data type this module checks, as a finding's `expected` names it. */
const PRIMITIVE_FORMATS: Readonly<Record<string, string>> = {
  NM: 'a number',
  SI: 'digits only',
  DT: 'YYYY[MM[DD]]',
  TM: 'HH[MM[SS[.S]]][+/-ZZZZ]',
  DTM: 'YYYY[MM[DD[HH[MM[SS[.S]]]]]][+/-ZZZZ]',
  TS: 'YYYY[MM[DD[HH[MM[SS[.S]]]]]][+/-ZZZZ]',
};

/**
 * `expected` of a finding of {@link checkPrimitiveValue}: the data type and its format (`DT YYYY[MM[DD]]`), and for an
 * invalid date that the moment must exist.
 */
export function expectedPrimitive(dataType: string, problem: ValueProblem): string {
  const format = `${dataType} ${PRIMITIVE_FORMATS[dataType] ?? ''}`.trim();
  return problem.code === 'INVALID_DATE' ? `a real calendar moment, ${format}` : format;
}

/** Data types whose values this module checks. */
export const CHECKED_PRIMITIVES: ReadonlySet<string> = new Set(['NM', 'SI', 'DT', 'TM', 'DTM', 'TS']);

/**
 * Checks one primitive value of the given data type (`TS` is checked as its DTM time component). Empty values
 * and the null value `""` are fine here (emptiness is the optionality check's concern).
 */
export function checkPrimitiveValue(dataType: string, value: string): ValueProblem | undefined {
  if (value === '' || value === '""') return undefined;
  switch (dataType) {
    case 'NM':
      return isNumber(value) ? undefined : { code: 'INVALID_DATA_TYPE', reason: 'not a number' };
    case 'SI':
      return countDigits(value, 0) === value.length ? undefined : { code: 'INVALID_DATA_TYPE', reason: 'not a sequence number (digits only)' };
    case 'DT': {
      const parts = value.length === 4 || value.length === 6 || value.length === 8 ? readMoment(value, 4, 2) : -1;
      if (parts < 0 || 4 + 2 * parts !== value.length) return { code: 'INVALID_DATA_TYPE', reason: 'not a date (YYYY[MM[DD]])' };
      return checkCalendar(value, parts);
    }
    case 'TM': {
      const parts = readMoment(value, 2, 2);
      if (parts < 0) return undottedFraction(value, 6, 'TM') ?? { code: 'INVALID_DATA_TYPE', reason: 'not a time (HH[MM[SS[.S]]][+/-ZZZZ])' };
      return checkClock(value, 0, 1 + parts);
    }
    case 'DTM':
    case 'TS': {
      const parts = readMoment(value, 4, 5);
      if (parts < 0) {
        return undottedFraction(value, 14, 'DTM') ?? { code: 'INVALID_DATA_TYPE', reason: 'not a date/time (YYYY[MM[DD[HH[MM[SS[.S]]]]]][+/-ZZZZ])' };
      }
      return checkCalendar(value, Math.min(parts, 2)) ?? checkClock(value, 8, Math.max(parts - 2, 0));
    }
    default:
      return undefined;
  }
}
