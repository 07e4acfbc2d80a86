/**
 * The synthetic-data service: deterministic sources of synthetic people built on a seeded faker. Each source owns its
 * own faker instance, so two generators never disturb each other's sequence.
 */
import { randomInt } from 'node:crypto';
import type { SyntheticDataService, SyntheticRandom } from './synthetic-types.ts';
import { newEnUsFaker } from './faker-locale.ts';
import { buildClinician, buildPerson } from './synthetic-person.ts';

/** The reference instant of every seeded source: fixed so seeded output is the same on any day. */
export const SEEDED_REFERENCE_DATE = '2025-06-15T12:00:00Z';

/**
 * A deterministic source. With a seed the reference date is {@link SEEDED_REFERENCE_DATE}; without one a random seed
 * and the current time are used, so each call gives fresh data.
 */
export function createSyntheticRandom(seed?: number): SyntheticRandom {
  const effectiveSeed = seed ?? randomInt(0, 2 ** 31 - 1);
  const referenceDate = new Date(seed === undefined ? Date.now() : Date.parse(SEEDED_REFERENCE_DATE));
  const faker = newEnUsFaker();
  faker.seed(effectiveSeed);
  // faker's own date helpers default to "now": pin them to the reference date as well.
  faker.setDefaultRefDate(referenceDate);
  const int = (min: number, max: number): number => faker.number.int({ min, max });
  return {
    faker,
    referenceDate,
    seed: effectiveSeed,
    person: (options) => buildPerson(faker, referenceDate, options),
    clinician: () => buildClinician(faker),
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick() needs at least one item.');
      return items[int(0, items.length - 1)];
    },
    recentDate: (daysBack = 30) => new Date(referenceDate.getTime() - int(0, daysBack * 86_400) * 1000),
  };
}

/** The service registered under `SYNTHETIC_DATA`. */
export function createSyntheticDataService(): SyntheticDataService {
  return { createRandom: createSyntheticRandom };
}
