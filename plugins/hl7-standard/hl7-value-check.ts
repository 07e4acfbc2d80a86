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
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const SEQUENCE_ID = /^\d+$/;
const DATE = /^(\d{4})(?:(\d{2})(?:(\d{2}))?)?$/;
const TIME = /^(\d{2})(?:(\d{2})(?:(\d{2})(?:\.\d{1,4})?)?)?([+-]\d{4})?$/;
const DATE_TIME = /^(\d{4})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:\.\d{1,4})?)?)?)?)?)?([+-]\d{4})?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1] as number;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

function checkCalendar(year: string, month?: string, day?: string): ValueProblem | undefined {
  if (month === undefined) return undefined;
  const m = Number(month);
  if (m < 1 || m > 12) return { code: 'INVALID_DATE', reason: `not a real date (month ${month})` };
  if (day === undefined) return undefined;
  const d = Number(day);
  if (d < 1 || d > daysInMonth(Number(year), m)) return { code: 'INVALID_DATE', reason: `not a real date (day ${day} of ${year}-${month})` };
  return undefined;
}

function checkClock(hour?: string, minute?: string, second?: string, zone?: string): ValueProblem | undefined {
  if (hour !== undefined && Number(hour) > 23) return { code: 'INVALID_DATE', reason: `not a real time (hour ${hour})` };
  if (minute !== undefined && Number(minute) > 59) return { code: 'INVALID_DATE', reason: `not a real time (minute ${minute})` };
  if (second !== undefined && Number(second) > 59) return { code: 'INVALID_DATE', reason: `not a real time (second ${second})` };
  if (zone !== undefined) {
    const h = Number(zone.slice(1, 3));
    const m = Number(zone.slice(3, 5));
    if (h > 14 || m > 59) return { code: 'INVALID_DATE', reason: `not a real time zone offset (${zone})` };
  }
  return undefined;
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
      return NUMBER.test(value) ? undefined : { code: 'INVALID_DATA_TYPE', reason: 'not a number' };
    case 'SI':
      return SEQUENCE_ID.test(value) ? undefined : { code: 'INVALID_DATA_TYPE', reason: 'not a sequence number (digits only)' };
    case 'DT': {
      const match = DATE.exec(value);
      if (!match) return { code: 'INVALID_DATA_TYPE', reason: 'not a date (YYYY[MM[DD]])' };
      return checkCalendar(match[1] as string, match[2], match[3]);
    }
    case 'TM': {
      const match = TIME.exec(value);
      if (!match) return { code: 'INVALID_DATA_TYPE', reason: 'not a time (HH[MM[SS[.S]]][+/-ZZZZ])' };
      return checkClock(match[1], match[2], match[3], match[4]);
    }
    case 'DTM':
    case 'TS': {
      const match = DATE_TIME.exec(value);
      if (!match) return { code: 'INVALID_DATA_TYPE', reason: 'not a date/time (YYYY[MM[DD[HH[MM[SS[.S]]]]]][+/-ZZZZ])' };
      return checkCalendar(match[1] as string, match[2], match[3]) ?? checkClock(match[4], match[5], match[6], match[7]);
    }
    default:
      return undefined;
  }
}
