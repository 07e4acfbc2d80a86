/**
 * MSH-7 (HL7 DTM/TS: `YYYY[MM[DD[HH[MM[SS[.S...]]]]]][+/-ZZZZ]`) as an instant. A time without an offset is read in
 * the machine's local time zone, the zone of the interface engine on an analyst's workstation; an impossible date
 * or time gives undefined, so such a message has no latency.
 */
const DTM = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.(\d{1,4}))?(?:([+-])(\d{2})(\d{2}))?$/;

/** Milliseconds since the epoch of an MSH-7 value, or undefined. */
export function parseMessageTime(text: string): number | undefined {
  const match = DTM.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', fraction, sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = fraction ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
  let epoch: number;
  if (sign) {
    const offsetHours = Number(oh);
    const offsetMinutes = Number(om);
    if (offsetHours > 14 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '+' ? 1 : -1);
    epoch = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset;
    if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  } else {
    const local = new Date(year, month - 1, day, hour, minute, second, ms);
    if (local.getDate() !== day) return undefined;
    epoch = local.getTime();
  }
  return Number.isFinite(epoch) ? epoch : undefined;
}
