/**
 * ISO 8601 formatting of UTC instants without building a Date per value: a population of a million patients formats
 * tens of millions of instants, and `Date#toISOString` dominates the run otherwise.
 */

import { civilFromDays } from '../../../kernel/lib/time/civil-date.ts';

const DAY_MS = 86_400_000;

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** `YYYY-MM-DD` of an epoch-millisecond instant, in UTC. */
export function isoDateOf(ms: number): string {
  const { year, month, day } = civilFromDays(Math.floor(ms / DAY_MS));
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
