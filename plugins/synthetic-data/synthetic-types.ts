/**
 * The shapes the synthetic-data service produces (people, clinicians, addresses) and the service itself. The
 * plugin's own modules import them from here and `api.ts` re-exports them, so the public surface does not import the
 * modules that implement it and they do not import it back.
 */
import type { Faker } from '@faker-js/faker';

/** A postal address whose city, state and ZIP belong together. */
export interface SyntheticAddress {
  line1: string;
  city: string;
  /** Two-letter USPS state code. */
  state: string;
  /** Five-digit ZIP code. */
  zip: string;
  county?: string;
  country: 'USA';
}

/** A synthetic patient, internally consistent (name by sex, birth date by age). */
export interface SyntheticPerson {
  sex: 'F' | 'M';
  givenName: string;
  middleName: string;
  familyName: string;
  /** `YYYY-MM-DD`. */
  birthDate: string;
  ageYears: number;
  /** `9XX-XX-XXXX`, never issued. */
  ssn: string;
  /** `(AAA) 555-01XX`. */
  phone: string;
  /** Area code and local parts, for formats that need them apart. */
  phoneParts: { areaCode: string; exchange: '555'; line: string };
  email: string;
  address: SyntheticAddress;
  /** Medical record number (facility-local identifier). */
  mrn: string;
  /** Visit or account number. */
  accountNumber: string;
  maritalStatus: 'S' | 'M' | 'D' | 'W';
  /** CDC race code (e.g. 2106-3 White) and its display. */
  race: { code: string; display: string };
  /** CDC ethnicity code and its display. */
  ethnicity: { code: string; display: string };
  /** ISO 639-1 language. */
  language: string;
}

/** A synthetic clinician. */
export interface SyntheticClinician {
  givenName: string;
  familyName: string;
  /** 10-digit NPI with a valid Luhn check digit (prefix 80840). */
  npi: string;
  /** DEA registration number with a valid check digit. */
  dea: string;
  phone: string;
}

/** A deterministic source of synthetic values: the same seed gives the same sequence on any machine. */
export interface SyntheticRandom {
  /** The seeded faker instance (en_US), for anything this interface lacks. */
  readonly faker: Faker;
  /** The fixed reference instant all relative dates derive from (never "now" when seeded). */
  readonly referenceDate: Date;
  /** The seed in use (drawn at random when none was given), so a fresh run can be replayed. */
  readonly seed: number;
  person(options?: { sex?: 'F' | 'M'; minAge?: number; maxAge?: number }): SyntheticPerson;
  clinician(): SyntheticClinician;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A date-time within `daysBack` days before the reference date. */
  recentDate(daysBack?: number): Date;
}

/** The service registered under {@link SYNTHETIC_DATA}. */
export interface SyntheticDataService {
  /**
   * A new deterministic source. With a seed, the reference date is fixed (2025-06-15T12:00:00Z) so output is
   * byte-identical on any machine and day; without a seed, a random seed and the current time are used.
   */
  createRandom(seed?: number): SyntheticRandom;
}
