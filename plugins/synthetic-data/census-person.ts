/**
 * Synthetic people drawn to look like the population of a US area: age from the census age pyramid, sex by the
 * female share of the age band, race and Hispanic origin by the area's census shares, a real city/ZIP of a state
 * drawn by state population, and the same never-real identifiers as every other synthetic person. Built for volume:
 * a few faker look-ups and integer draws per person, no string templates.
 */
import type { SyntheticPerson, SyntheticRandom } from './synthetic-types.ts';
import { CDC_ETHNICITIES, CDC_RACES } from './cdc-race-ethnicity.ts';
import { enUsFaker } from './faker-locale.ts';
import { isoDate, sameDayYearsBefore } from './synthetic-dates.ts';
import { syntheticPhone, syntheticSsn } from './synthetic-identifiers.ts';
import { type AreaDemographics, areaDemographics, US_AGE_BANDS } from './us-census-distributions.ts';
import { areaCodesOfState, US_PLACES, type UsPlace } from './us-places.ts';

/** Prefix of every generated medical record number, so a synthetic MRN is recognisable anywhere. */
export const SYNTHETIC_MRN_PREFIX = 'SYN';

/** A source of census-like synthetic people for one area. */
export interface CensusPersonSource {
  /** The area's demographics the draws follow. */
  readonly demographics: AreaDemographics;
  /** The next person; `sequence` (0-based, unique in the population) makes the MRN and account number unique. */
  person(random: SyntheticRandom, sequence: number): SyntheticPerson;
}

/** Draws an index from cumulative weights. */
function cumulative(weights: readonly number[]): (random: SyntheticRandom) => number {
  const sums: number[] = [];
  let total = 0;
  for (const weight of weights) sums.push((total += weight));
  const scale = 1_000_000;
  return (random) => {
    const point = (random.int(0, scale - 1) / scale) * total;
    let low = 0;
    let high = sums.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sums[mid] > point) high = mid;
      else low = mid + 1;
    }
    return low;
  };
}

const DAY_MS = 86_400_000;

/**
 * Birth-date windows by age for one reference date: a person aged N was born between the day after the (N+1)th
 * birthday would fall and the Nth birthday itself. Computed once per age instead of per person.
 */
function birthWindows(reference: Date): Array<{ earliest: number; spanDays: number }> {
  const windows = [];
  for (let age = 0; age <= 120; age++) {
    const latest = sameDayYearsBefore(reference, age).getTime();
    const earliest = sameDayYearsBefore(reference, age + 1).getTime() + DAY_MS;
    windows.push({ earliest, spanDays: Math.round((latest - earliest) / DAY_MS) });
  }
  return windows;
}

const MARITAL_ADULT = ['S', 'M', 'M', 'M', 'D', 'W'] as const;

/** A source for `us` or `us-XX`; undefined for an area the census tables do not know. */
export function createCensusPersonSource(area: string): CensusPersonSource | undefined {
  const demographics = areaDemographics(area);
  if (!demographics) return undefined;
  const ageBand = cumulative(US_AGE_BANDS.map((b) => b.percent));
  const state = cumulative(demographics.stateWeights);
  const placesByState = new Map<string, UsPlace[]>();
  for (const place of US_PLACES) {
    if (!placesByState.has(place.state)) placesByState.set(place.state, []);
    placesByState.get(place.state)?.push(place);
  }
  const raceCodes = CDC_RACES.map((r) => r.code);
  const race = cumulative(raceCodes.map((code) => demographics.racePercent[code] ?? 0));
  let windows: { reference: number; byAge: Array<{ earliest: number; spanDays: number }> } | undefined;
  const birthDate = (random: SyntheticRandom, ageYears: number): string => {
    if (windows?.reference !== random.referenceDate.getTime()) {
      windows = { reference: random.referenceDate.getTime(), byAge: birthWindows(random.referenceDate) };
    }
    const window = windows.byAge[ageYears];
    return isoDate(new Date(window.earliest + random.int(0, window.spanDays) * DAY_MS));
  };
  const hispanicPerMillion = Math.round(demographics.hispanicPercent * 10_000);
  const names = generatorListsOnce();
  return {
    demographics,
    person(random, sequence) {
      const band = US_AGE_BANDS[ageBand(random)];
      const ageYears = random.int(band.minAge, band.maxAge);
      const sex = random.int(0, 9999) < band.femalePercent * 100 ? 'F' : 'M';
      const fakerSex = sex === 'F' ? 'female' : 'male';
      const givenName = pickFrom(random, names.givenBySex[fakerSex]);
      const middleName = pickFrom(random, names.middleBySex[fakerSex]);
      const familyName = pickFrom(random, names.familyNames);
      const stateCode = demographics.states[state(random)];
      const places = placesByState.get(stateCode) ?? US_PLACES;
      const place = places[random.int(0, places.length - 1)];
      const codes = areaCodesOfState(place.state);
      const areaCode = codes[random.int(0, codes.length - 1)];
      const { phone, line } = syntheticPhone(random.int, areaCode);
      const hispanic = random.int(0, 999_999) < hispanicPerMillion;
      const raceConcept = CDC_RACES[race(random)];
      const local = `${givenName}.${familyName}`.toLowerCase().replace(/[^a-z.]/g, '');
      return {
        sex,
        givenName,
        middleName,
        familyName,
        birthDate: birthDate(random, ageYears),
        ageYears,
        ssn: syntheticSsn(random.int),
        phone,
        phoneParts: { areaCode, exchange: '555', line },
        // Reserved example.com mailboxes (RFC 2606): a generated address can never reach anyone.
        email: `${local}${random.int(1, 999)}@example.com`,
        address: {
          line1: `${random.int(1, 9899)} ${pickFrom(random, names.streetNames)}`,
          city: place.city,
          state: place.state,
          zip: place.zip,
          county: place.county,
          country: 'USA',
        },
        mrn: `${SYNTHETIC_MRN_PREFIX}${String(sequence + 1).padStart(8, '0')}`,
        accountNumber: `${SYNTHETIC_MRN_PREFIX}A${String(sequence + 1).padStart(9, '0')}`,
        maritalStatus: ageYears < 18 ? 'S' : MARITAL_ADULT[random.int(0, MARITAL_ADULT.length - 1)],
        race: { ...raceConcept },
        ethnicity: { ...(hispanic ? CDC_ETHNICITIES[0] : CDC_ETHNICITIES[1]) },
        language: hispanic && random.int(1, 10) <= 4 ? 'es' : 'en',
      };
    },
  };
}

/** The name and street lists synthetic people are drawn from: faker's en_US (then en) lists. */
function generatorLists() {
  const definitions = enUsFaker().rawDefinitions;
  const first = definitions.person?.first_name;
  const middle = definitions.person?.middle_name;
  const byKey = (group: unknown, key: string): readonly string[] => (group as Record<string, string[] | undefined> | null | undefined)?.[key] ?? [];
  return {
    givenBySex: { female: byKey(first, 'female'), male: byKey(first, 'male') },
    middleBySex: { female: byKey(middle, 'female'), male: byKey(middle, 'male') },
    familyNames: byKey(definitions.person?.last_name, 'generic'),
    streetNames: definitions.location?.street_name ?? [],
  };
}

function pickFrom(random: SyntheticRandom, list: readonly string[]): string {
  return list[random.int(0, list.length - 1)];
}

type GeneratorLists = ReturnType<typeof generatorLists>;
let lists: GeneratorLists | undefined;
let listSets: { givenNames: Set<string>; familyNames: Set<string>; streetNames: Set<string>; placeKeys: Set<string> } | undefined;

/** The lists, read on first use (so merely loading this module never loads faker). */
function generatorListsOnce(): GeneratorLists {
  lists ??= generatorLists();
  return lists;
}

function generatorSets(): NonNullable<typeof listSets> {
  const l = generatorListsOnce();
  listSets ??= {
    givenNames: new Set([...l.givenBySex.female, ...l.givenBySex.male, ...l.middleBySex.female, ...l.middleBySex.male]),
    familyNames: new Set(l.familyNames),
    streetNames: new Set(l.streetNames),
    placeKeys: new Set(US_PLACES.map((p) => `${p.city}|${p.state}|${p.zip}`)),
  };
  return listSets;
}

/** True when a given and family name both come from the census source's name lists. */
export function isGeneratorName(givenName: string, familyName: string): boolean {
  const sets = generatorSets();
  return sets.givenNames.has(givenName) && sets.familyNames.has(familyName);
}

/** True when an address is one the census source makes: a house number on a listed street in a listed city/ZIP. */
export function isGeneratorAddress(line1: string, city: string, state: string, zip: string): boolean {
  const match = /^\d+ (.+)$/.exec(line1);
  const sets = generatorSets();
  return match !== null && sets.streetNames.has(match[1]) && sets.placeKeys.has(`${city}|${state}|${zip}`);
}
