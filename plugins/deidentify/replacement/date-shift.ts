/**
 * Date shifting that keeps a value's precision and format: the calendar date moves by a whole number of days, the
 * time of day and zone stay, so intervals between a patient's dates are kept. A year alone is kept as it is (HIPAA
 * Safe Harbor allows the year); a year and month move with the first of that month.
 */

import { civilFromDays, daysFromCivil } from '../../../kernel/lib/time/civil-date.ts';

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

function shiftParts(year: number, month: number, day: number, days: number): { year: number; month: number; day: number } | undefined {
  // 30 February and the like are not dates: left for the validator to report, never turned into a real date.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return civilFromDays(daysFromCivil(year, month, day) + days);
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * Shifts an HL7 v2 date or timestamp (`YYYY[MM[DD[HHMM[SS[.S]]]]][+ZZZZ]`) by `days`; undefined when the value is
 * not one (then the caller decides what to do with it).
 */
export function shiftHl7Date(value: string, days: number): string | undefined {
  const match = /^(\d{4})(\d{2})?(\d{2})?(.*)$/.exec(value);
  if (!match) return undefined;
  const [, yearText, monthText, dayText, rest] = match as unknown as [string, string, string | undefined, string | undefined, string];
  // Time of day, fractional seconds (with or without the dot, as real feeds send them) and zone are kept as sent.
  if (!/^\d*(\.\d*)?([+-]\d{4})?$/.test(rest)) return undefined;
  if (monthText === undefined) return value;
  const moved = shiftParts(Number(yearText), Number(monthText), dayText === undefined ? 1 : Number(dayText), days);
  if (!moved) return undefined;
  return `${pad(moved.year, 4)}${pad(moved.month, 2)}${dayText === undefined ? '' : pad(moved.day, 2)}${rest}`;
}

/** Shifts an ISO 8601 date or dateTime (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm:ss...`); undefined otherwise. */
export function shiftIsoDate(value: string, days: number): string | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(T[0-9:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
  if (!match) return undefined;
  const [, yearText, monthText, dayText, time] = match;
  if (monthText === undefined) return value;
  const moved = shiftParts(Number(yearText), Number(monthText), dayText === undefined ? 1 : Number(dayText), days);
  if (!moved) return undefined;
  return `${pad(moved.year, 4)}-${pad(moved.month, 2)}${dayText === undefined ? '' : `-${pad(moved.day, 2)}`}${time ?? ''}`;
}

/** True when a string looks like an ISO date or dateTime with at least a month (what {@link shiftIsoDate} moves). */
export function looksLikeIsoDate(value: string): boolean {
  return value.length >= 7 && value.length <= 35 && value.charCodeAt(4) === 45 /* - */ && /^\d{4}-\d{2}/.test(value);
}

/** The year every birth date of a patient older than 89 moves into (Safe Harbor: ages over 89 count as 90 or older). */
export function ninetyPlusYear(now: Date = new Date()): number {
  return now.getUTCFullYear() - 90;
}

/**
 * A birth date (HL7 `YYYYMMDD...` or ISO `YYYY-MM-DD...`) that makes its patient older than 89 today, moved into
 * the single 90-or-older year: 1 January of {@link ninetyPlusYear}, at the original's precision (a year alone stays a
 * year). Undefined when the patient is 89 or younger (the caller then shifts the date as any other).
 */
export function ninetyPlusBirthDate(value: string, now: Date = new Date()): string | undefined {
  const match = /^(\d{4})(-?)(\d{2})?-?(\d{2})?/.exec(value.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = match[3] ? Number(match[3]) : 1;
  const day = match[4] ? Number(match[4]) : 1;
  const today = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
  const age = today.year - year - (today.month < month || (today.month === month && today.day < day) ? 1 : 0);
  if (age <= 89) return undefined;
  const target = String(ninetyPlusYear(now));
  if (!match[3]) return target;
  const separator = match[2] ?? '';
  return `${target}${separator}01${match[4] ? `${separator}01` : ''}`;
}
