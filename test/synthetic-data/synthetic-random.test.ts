import { describe, expect, it } from 'vitest';
import { birthDateForAge } from '../../plugins/synthetic-data/synthetic-dates.ts';
import { DEA_REGISTRANT_TYPES } from '../../plugins/synthetic-data/synthetic-identifiers.ts';
import { deaProblem, isValidNpi, luhnCheckDigit, npiCheckDigit } from '../../plugins/identifiers/api.ts';
import { createSyntheticDataService, SEEDED_REFERENCE_DATE } from '../../plugins/synthetic-data/synthetic-random.ts';
import { US_STATE_AREA_CODES } from '../../plugins/synthetic-data/us-places-data.ts';
import { US_PLACES } from '../../plugins/synthetic-data/us-places.ts';
import { USPS_ZIP_PREFIX_RANGES } from './usps-zip-prefixes.ts';

/** Completed years between a birth date (`YYYY-MM-DD`) and the reference instant, counted in UTC. */
function ageOn(birthDate: string, reference: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  const refMonth = reference.getUTCMonth() + 1;
  const refDay = reference.getUTCDate();
  const beforeBirthday = refMonth < m || (refMonth === m && refDay < d);
  return reference.getUTCFullYear() - y - (beforeBirthday ? 1 : 0);
}

/** True when a DEA number has a registrant-type letter, a letter, seven digits and a valid check digit. */
function isValidDea(dea: string): boolean {
  return (DEA_REGISTRANT_TYPES as readonly string[]).includes(dea[0] ?? '') && deaProblem(dea) === undefined;
}

const service = createSyntheticDataService();
const SEEDS = [1, 7, 42, 2024, 987_654];
const PEOPLE_PER_SEED = 200;

function peopleOf(seed: number | undefined, count = PEOPLE_PER_SEED) {
  const random = service.createRandom(seed);
  return Array.from({ length: count }, () => random.person());
}

describe('determinism', () => {
  it('gives the same people, clinicians and draws for the same seed', () => {
    const draw = (seed: number) => {
      const r = service.createRandom(seed);
      return { people: [r.person(), r.person({ sex: 'F', minAge: 20, maxAge: 30 })], doc: r.clinician(), n: r.int(1, 1000), d: r.recentDate(10).toISOString() };
    };
    expect(draw(42)).toEqual(draw(42));
  });

  it('uses the fixed reference date when seeded', () => {
    expect(service.createRandom(3).referenceDate.toISOString()).toBe(new Date(SEEDED_REFERENCE_DATE).toISOString());
  });

  it('gives different people for different seeds', () => {
    expect(peopleOf(1, 5)).not.toEqual(peopleOf(2, 5));
  });

  it('gives fresh people on every call without a seed', () => {
    const a = service.createRandom();
    const b = service.createRandom();
    expect([a.person(), a.person()]).not.toEqual([b.person(), b.person()]);
  });

  it('keeps sources independent: drawing from one does not shift another', () => {
    const alone = service.createRandom(9).person();
    const other = service.createRandom(9);
    service.createRandom(10).person();
    expect(other.person()).toEqual(alone);
  });
});

describe('never-real identifiers', () => {
  const people = SEEDS.flatMap((seed) => peopleOf(seed));

  it('puts every SSN in the never-issued 900-999 area', () => {
    for (const p of people) {
      expect(p.ssn).toMatch(/^9\d{2}-\d{2}-\d{4}$/);
      expect(p.ssn).not.toMatch(/-00-|-0000$/);
    }
  });

  it('puts every phone in 555-0100..0199 with an area code of the address state', () => {
    for (const p of people) {
      expect(p.phone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
      expect(p.phone).toBe(`(${p.phoneParts.areaCode}) 555-${p.phoneParts.line}`);
      expect(US_STATE_AREA_CODES[p.address.state]).toContain(p.phoneParts.areaCode);
    }
  });

  it('gives clinicians NPIs and DEA numbers with valid check digits', () => {
    const random = service.createRandom(5);
    for (let i = 0; i < 500; i++) {
      const doc = random.clinician();
      expect(isValidNpi(doc.npi), doc.npi).toBe(true);
      expect(isValidDea(doc.dea), doc.dea).toBe(true);
      expect(doc.dea[1]).toBe(doc.familyName[0].toUpperCase());
      expect(doc.phone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
    }
  });

  it('computes check digits as the published examples do', () => {
    // CMS example NPI 1234567893; Luhn reference number 7992739871 -> 3; DEA example AB1234563.
    expect(npiCheckDigit('123456789')).toBe(3);
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567894')).toBe(false);
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isValidDea('AB1234563')).toBe(true);
    expect(isValidDea('AB1234564')).toBe(false);
    expect(isValidDea('QB1234563')).toBe(false);
  });
});

describe('consistency', () => {
  const people = SEEDS.flatMap((seed) => peopleOf(seed));

  it('gives a birth date at which the person is exactly ageYears old on the reference date', () => {
    const reference = new Date(SEEDED_REFERENCE_DATE);
    for (const p of people) expect(ageOn(p.birthDate, reference), p.birthDate).toBe(p.ageYears);
  });

  it('respects the requested sex and age range', () => {
    const random = service.createRandom(11);
    for (let i = 0; i < 100; i++) {
      const p = random.person({ sex: 'M', minAge: 65, maxAge: 70 });
      expect(p.sex).toBe('M');
      expect(p.ageYears).toBeGreaterThanOrEqual(65);
      expect(p.ageYears).toBeLessThanOrEqual(70);
    }
  });

  it('keeps ages exact at both ends of the birth-date window, leap days included', () => {
    const lowest = (min: number) => min;
    const highest = (_min: number, max: number) => max;
    for (const iso of ['2024-02-29T00:00:00Z', '2025-03-01T23:59:59Z', '2025-12-31T12:00:00Z', '2025-01-01T00:00:00Z']) {
      const reference = new Date(iso);
      for (const age of [0, 1, 3, 4, 50, 90]) {
        for (const pickDay of [lowest, highest]) expect(ageOn(birthDateForAge(reference, age, pickDay), reference), `${iso} ${age}`).toBe(age);
      }
    }
  });

  it('draws city, state, ZIP and county from one real place', () => {
    const known = new Set(US_PLACES.map((pl) => `${pl.city}|${pl.state}|${pl.zip}|${pl.county}`));
    for (const p of people) {
      expect(known.has(`${p.address.city}|${p.address.state}|${p.address.zip}|${p.address.county}`)).toBe(true);
      expect(p.address.country).toBe('USA');
    }
  });

  it('has place data whose ZIPs fall in their state USPS prefix ranges, covering 50 states and DC', () => {
    for (const place of US_PLACES) {
      const prefix = Number(place.zip.slice(0, 3));
      const ranges = USPS_ZIP_PREFIX_RANGES[place.state];
      expect(ranges, place.state).toBeDefined();
      expect(ranges.some(([lo, hi]) => prefix >= lo && prefix <= hi), `${place.city} ${place.state} ${place.zip}`).toBe(true);
      expect(US_STATE_AREA_CODES[place.state]?.length, place.state).toBeGreaterThan(0);
    }
    expect(new Set(US_PLACES.map((p) => p.state))).toEqual(new Set(Object.keys(USPS_ZIP_PREFIX_RANGES)));
  });

  it('uses CDC race and ethnicity codes and reserved e-mail domains', () => {
    for (const p of people) {
      expect(['1002-5', '2028-9', '2054-5', '2076-8', '2106-3', '2131-1']).toContain(p.race.code);
      expect(['2135-2', '2186-5']).toContain(p.ethnicity.code);
      expect(p.email).toMatch(/@example\.com$/);
      expect(p.mrn).toMatch(/^[1-9]\d{7}$/);
      expect(p.accountNumber).toMatch(/^[1-9]\d{9}$/);
    }
    // minors are single
    expect(new Set(people.filter((p) => p.ageYears < 18).map((p) => p.maritalStatus))).toEqual(new Set(['S']));
  });
});
