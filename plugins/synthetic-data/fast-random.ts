/**
 * A seeded source whose integer draws come from a small, fast generator (SplitMix32 by Sebastiano Vigna, public
 * domain) instead of faker's Mersenne Twister: volume generators draw hundreds of integers per record, and faker's
 * per-call option handling costs more than the rest of the record. Faker-backed helpers (person, clinician, faker
 * itself) still come from the base source, so the result is as deterministic as the base.
 */
import type { SyntheticRandom } from './synthetic-types.ts';

/** A 32-bit SplitMix generator returning floats in [0, 1). */
function splitMix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4_294_967_296;
  };
}

/** The base source with fast integer, pick and date draws seeded from the base's seed. */
export function createFastRandom(base: SyntheticRandom): SyntheticRandom {
  const next = splitMix32(base.seed);
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    faker: base.faker,
    referenceDate: base.referenceDate,
    seed: base.seed,
    person: (options) => base.person(options),
    clinician: () => base.clinician(),
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick() needs at least one item.');
      return items[int(0, items.length - 1)];
    },
    recentDate: (daysBack = 30) => new Date(base.referenceDate.getTime() - int(0, daysBack * 86_400) * 1000),
  };
}
