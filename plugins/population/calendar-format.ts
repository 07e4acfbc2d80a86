/**
 * ISO 8601 formatting of UTC instants without building a Date per value: a population of a million patients formats
 * tens of millions of instants, and `Date#toISOString` dominates the run otherwise. Civil-from-days after Howard
 * Hinnant's public-domain algorithm (chrono-Compatible Low-Level Date Algorithms).
 */

const DAY_MS = 86_400_000;

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** `YYYY-MM-DD` of an epoch-millisecond instant, in UTC. */
export function isoDateOf(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** `YYYY-MM-DDTHH:MM:SSZ` of an epoch-millisecond instant (whole seconds), in UTC. */
export function isoInstantOf(ms: number): string {
  const inDay = ((ms % DAY_MS) + DAY_MS) % DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  return `${isoDateOf(ms)}T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}Z`;
}

/** Epoch milliseconds of a `YYYY-MM-DD` date at midnight UTC. */
export function msOfIsoDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** One day in milliseconds. */
export const ONE_DAY_MS = DAY_MS;
