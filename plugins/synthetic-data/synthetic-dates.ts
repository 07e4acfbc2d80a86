/**
 * Calendar arithmetic in UTC for birth dates, so an age is exact relative to a reference instant on any machine
 * regardless of its time zone.
 */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a date in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The same calendar day `years` earlier, in UTC; 29 February falls back to 28 February in a common year (rolling
 * forward to 1 March would make the person a day too young).
 */
export function sameDayYearsBefore(reference: Date, years: number): Date {
  const year = reference.getUTCFullYear() - years;
  const month = reference.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(reference.getUTCDate(), lastDay)));
}

/**
 * A birth date at which the person is exactly `ageYears` old on the reference date: a day drawn between the day
 * after the (age + 1)th birthday would fall and the age-th birthday itself.
 */
export function birthDateForAge(reference: Date, ageYears: number, int: (min: number, max: number) => number): string {
  const latest = sameDayYearsBefore(reference, ageYears);
  const earliest = new Date(sameDayYearsBefore(reference, ageYears + 1).getTime() + DAY_MS);
  const spanDays = Math.round((latest.getTime() - earliest.getTime()) / DAY_MS);
  return isoDate(new Date(earliest.getTime() + int(0, spanDays) * DAY_MS));
}
