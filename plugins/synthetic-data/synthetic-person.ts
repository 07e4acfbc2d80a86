/**
 * Builds synthetic patients and clinicians from a seeded faker: names drawn by sex, a birth date matching the age on
 * the reference date, a real city/state/ZIP with a phone number of that state, and never-issued identifiers.
 */
import type { Faker } from '@faker-js/faker';
import type { SyntheticClinician, SyntheticPerson } from './synthetic-types.ts';
import { CDC_ETHNICITIES, CDC_RACES, CDC_RACE_WEIGHTS, HISPANIC_SHARE_PERCENT } from './cdc-race-ethnicity.ts';
import { birthDateForAge } from './synthetic-dates.ts';
import { type IntSource, syntheticDea, syntheticNpi, syntheticPhone, syntheticSsn } from './synthetic-identifiers.ts';
import { areaCodesOfState, US_PLACES } from './us-places.ts';

/** Options of {@link buildPerson} (same as `SyntheticRandom.person`). */
export interface PersonOptions {
  sex?: 'F' | 'M';
  minAge?: number;
  maxAge?: number;
}

/** Default age range: newborns to the very old, as a hospital census spans. */
const DEFAULT_MIN_AGE = 0;
const DEFAULT_MAX_AGE = 90;

function intSourceOf(faker: Faker): IntSource {
  return (min, max) => faker.number.int({ min, max });
}

/** One synthetic patient, consistent across its fields. */
export function buildPerson(faker: Faker, referenceDate: Date, options: PersonOptions = {}): SyntheticPerson {
  const int = intSourceOf(faker);
  const sex = options.sex ?? (int(0, 1) === 0 ? 'F' : 'M');
  const fakerSex = sex === 'F' ? 'female' : 'male';
  const minAge = options.minAge ?? DEFAULT_MIN_AGE;
  const maxAge = Math.max(minAge, options.maxAge ?? DEFAULT_MAX_AGE);
  const ageYears = int(minAge, maxAge);
  const givenName = faker.person.firstName(fakerSex);
  const middleName = faker.person.middleName(fakerSex);
  const familyName = faker.person.lastName();
  const place = faker.helpers.arrayElement(US_PLACES);
  const areaCode = faker.helpers.arrayElement(areaCodesOfState(place.state));
  const { phone, line } = syntheticPhone(int, areaCode);
  const race = faker.helpers.weightedArrayElement(CDC_RACES.map((value) => ({ value, weight: CDC_RACE_WEIGHTS[value.code] })));
  const hispanic = int(1, 100) <= HISPANIC_SHARE_PERCENT;
  const ethnicity = hispanic ? CDC_ETHNICITIES[0] : CDC_ETHNICITIES[1];
  // Reserved example.com mailboxes: a generated address can never reach anyone.
  const email = faker.internet
    .email({ firstName: givenName, lastName: familyName, provider: 'example.com' })
    .toLowerCase();
  return {
    sex,
    givenName,
    middleName,
    familyName,
    birthDate: birthDateForAge(referenceDate, ageYears, int),
    ageYears,
    ssn: syntheticSsn(int),
    phone,
    phoneParts: { areaCode, exchange: '555', line },
    email,
    address: {
      line1: faker.location.streetAddress(int(1, 5) === 1),
      city: place.city,
      state: place.state,
      zip: place.zip,
      county: place.county,
      country: 'USA',
    },
    mrn: faker.string.numeric({ length: 8, allowLeadingZeros: false }),
    accountNumber: faker.string.numeric({ length: 10, allowLeadingZeros: false }),
    maritalStatus: ageYears < 18 ? 'S' : faker.helpers.arrayElement(['S', 'M', 'D', 'W'] as const),
    race: { ...race },
    ethnicity: { ...ethnicity },
    language: hispanic && int(1, 10) <= 4 ? 'es' : 'en',
  };
}

/** One synthetic clinician with a valid-looking (but never issued) NPI and DEA number. */
export function buildClinician(faker: Faker): SyntheticClinician {
  const int = intSourceOf(faker);
  const fakerSex = int(0, 1) === 0 ? 'female' : 'male';
  const givenName = faker.person.firstName(fakerSex);
  const familyName = faker.person.lastName();
  const place = faker.helpers.arrayElement(US_PLACES);
  const { phone } = syntheticPhone(int, faker.helpers.arrayElement(areaCodesOfState(place.state)));
  return { givenName, familyName, npi: syntheticNpi(int), dea: syntheticDea(int, familyName), phone };
}
