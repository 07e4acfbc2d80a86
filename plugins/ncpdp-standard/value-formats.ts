/**
 * Value formats shared by the SCRIPT and Telecommunication rules: calendar dates in both standards' spellings,
 * date-times, decimals and the 11-digit NDC.
 */

/** True when year, month and day form a real calendar date. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

/** XML Schema date `CCYY-MM-DD` (SCRIPT), a real calendar day. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** XML Schema dateTime (SCRIPT `SentTime`, `DateTime`): date, `T`, time, optional fraction and zone. */
export function isIsoDateTime(value: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-](0\d|1[0-4]):[0-5]\d)?$/.exec(value);
  return m !== null && isIsoDate(m[1]);
}

/** Telecommunication date `CCYYMMDD`, a real calendar day. */
export function isCcyymmdd(value: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A non-negative decimal with at most `maxDigits` digits in all and `maxDecimals` after the point. */
export function isDecimal(value: string, maxDigits: number, maxDecimals: number): boolean {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return false;
  const decimals = m[2]?.length ?? 0;
  return decimals <= maxDecimals && m[1].length + decimals <= maxDigits;
}

/** NDC in the 11-digit 5-4-2 billing form, no hyphens. */
export function isNdc11(value: string): boolean {
  return /^\d{11}$/.test(value);
}
