/**
 * Calendar check of FHIR R4 `date`, `dateTime` and `instant` values. @medplum/core checks their format with the
 * R4 regular expressions, which bound the month (01-12), hour (00-23), minute, second and zone but let any day
 * 01-31 through in any month: `1981-02-29` and `2023-04-31` match. This finds those days that are not on the
 * calendar. Partial dates (`1981`, `1981-02`) have no day and are fine; R4 never allows hour 24 (its regexes
 * stop at 23), so that is the format check's finding, not this one's.
 */

/** FHIR primitive types whose values hold a calendar date. */
export const CALENDAR_TYPES: ReadonlySet<string> = new Set(['date', 'dateTime', 'instant']);

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1] ?? 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * Why a date value is not on the calendar (`day 29 does not exist in February 1981`), or undefined when it is, or
 * when the value is not a full date in the FHIR format at all (the format check reports that).
 */
export function calendarProblem(value: string): string | undefined {
  const match = FULL_DATE.exec(value);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const last = daysInMonth(year, month);
  if (day <= last) return undefined;
  const monthName = new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return `day ${match[3]} does not exist in ${monthName} ${match[1]} (it has ${last} days)`;
}
