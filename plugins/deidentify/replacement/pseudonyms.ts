/**
 * Stable, realistic replacements for identifying values. Every replacement is chosen by a keyed hash (HMAC-SHA-256
 * with the local key) of the value's kind and the value itself, so the same input maps to the same output across
 * messages, files and runs that share the key, while nobody without the key can map an output back (a plain hash of
 * an MRN could be reversed by hashing every possible MRN). Names and places are drawn from faker's en_US word lists;
 * identifiers, phones and postal codes keep their shape (length, letter case, punctuation), so a receiver that cares
 * about lengths or patterns still accepts them.
 */
import { createHmac, hash } from 'node:crypto';
import { faker } from '@faker-js/faker';
import { deaCheckDigit, deaProblem, isValidNpi, npiCheckDigit } from '../../identifiers/api.ts';
import type { NeedleLedger } from './needle-ledger.ts';
import { type NeedleSet, normaliseNeedle } from './needles.ts';

/** HIPAA Safe Harbor identifier kinds (45 CFR 164.514(b)(2)) this engine replaces, plus free text. */
export const IDENTIFIER_KINDS = [
  'name',
  'address',
  'city',
  'county',
  'postalCode',
  'date',
  'phone',
  'fax',
  'email',
  'ssn',
  'medicalRecordNumber',
  'healthPlanNumber',
  'accountNumber',
  'licenseNumber',
  'vehicleIdentifier',
  'deviceIdentifier',
  'url',
  'ipAddress',
  'biometric',
  'photo',
  'otherIdentifier',
  'freeText',
] as const;

/** One identifier kind. */
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** Kinds replaced by {@link Pseudonymizer.identifier}: one pseudonym per value whatever kind a field says it is. */
const IDENTIFIER_LIKE: ReadonlySet<string> = new Set([
  'ssn', 'medicalRecordNumber', 'healthPlanNumber', 'accountNumber', 'licenseNumber', 'vehicleIdentifier', 'deviceIdentifier', 'otherIdentifier',
]);

/**
 * Three-digit ZIP areas of 20,000 people or fewer (US Census 2000, as HHS guidance on Safe Harbor lists them): their
 * ZIP codes become 000.
 */
export const RESTRICTED_ZIP3: ReadonlySet<string> = new Set([
  '036', '059', '063', '102', '203', '556', '692', '790', '821', '823', '830', '831', '878', '879', '884', '890', '893',
]);

/** Largest number of remembered replacements; the cache is only a speed-up, outputs do not depend on it. */
const CACHE_LIMIT = 200_000;

function words(list: unknown): string[] {
  if (Array.isArray(list)) return list.filter((item): item is string => typeof item === 'string');
  if (list && typeof list === 'object') return Object.values(list).flatMap((value) => words(value));
  return [];
}

/** Word lists, read once from faker's en_US definitions (only plain words: no patterns with placeholders). */
const LISTS = (() => {
  const definitions = faker.definitions as unknown as {
    person: { first_name: unknown; last_name: unknown };
    location: { city_name: unknown; street_name: unknown; street_suffix: unknown; county: unknown };
  };
  const plain = (list: string[]) => [...new Set(list.filter((word) => /^[A-Za-z][A-Za-z' -]*$/.test(word)))].sort();
  return {
    firstNames: plain(words(definitions.person.first_name)),
    lastNames: plain(words(definitions.person.last_name)),
    cities: plain(words(definitions.location.city_name)),
    streets: plain(words(definitions.location.street_name)),
    counties: plain(words(definitions.location.county)),
  };
})();

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/** Applies the letter case of `original` (all upper, all lower, or as listed) to `word`. */
function matchCase(original: string, word: string): string {
  if (original.length > 1 && original === original.toUpperCase() && original !== original.toLowerCase()) return word.toUpperCase();
  if (original === original.toLowerCase() && original !== original.toUpperCase()) return word.toLowerCase();
  return word;
}

/** A remembered pseudonym and the needle of the value it replaced ({@link normaliseNeedle}; undefined when ignored). */
interface CacheEntry {
  made: string;
  needle: string | undefined;
}

/** A stream of pseudo-random bytes derived from one HMAC digest (extended by re-hashing when more are needed). */
class ByteStream {
  private position = 0;
  constructor(
    private block: Buffer,
    private readonly key: Buffer,
  ) {}

  next(): number {
    if (this.position >= this.block.length) {
      this.block = createHmac('sha256', this.key).update(this.block).digest();
      this.position = 0;
    }
    return this.block[this.position++]!;
  }

  /**
   * An integer in [0, bound) (bound up to 2^24) from as few bytes as the bound needs, so one digest serves a whole
   * identifier; the small modulo bias does not matter for pseudonyms.
   */
  below(bound: number): number {
    if (bound <= 256) return this.next() % bound;
    if (bound <= 65_536) return ((this.next() << 8) | this.next()) % bound;
    return ((this.next() << 16) | (this.next() << 8) | this.next()) % bound;
  }
}

/**
 * Keyed, cached replacement of values by kind. One instance per key; cheap to call per field (a cached value costs
 * one map look-up, a new one one HMAC).
 */
export class Pseudonymizer {
  private readonly cache = new Map<string, Map<string, CacheEntry>>();
  private cacheSize = 0;
  private readonly offsets = new Map<string, number>();
  /** Where the replacements of the de-identification under way are recorded (see {@link recording}). */
  private ledger: NeedleLedger | undefined;

  /** @param key the secret of the keyed hash (32 random bytes from the data folder's key file) */
  constructor(private readonly key: Buffer) {
    // Keys longer than the SHA-256 block are hashed first, as RFC 2104 says; ours are 32 bytes.
    const block = Buffer.alloc(64);
    (key.length > 64 ? hash('sha256', key, 'buffer') : key).copy(block);
    this.innerPad = Buffer.from(block.map((byte) => byte ^ 0x36));
    this.outerPad = Buffer.from(block.map((byte) => byte ^ 0x5c));
    this.innerPad.copy(this.innerBlock);
    this.outerPad.copy(this.outerBlock);
  }

  /** The key XOR the HMAC inner and outer pads (RFC 2104), computed once: each value then costs two one-shot hashes. */
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;

  private stream(kind: string, value: string): ByteStream {
    return new ByteStream(this.hmac(`${kind}\0${value}`), this.key);
  }

  /** Inner pad then message, reused by every {@link hmac} whose message fits. */
  private readonly innerBlock = Buffer.alloc(64 + 1024);
  /** Outer pad then inner digest (96 bytes), reused. */
  private readonly outerBlock = Buffer.alloc(96);

  /** HMAC-SHA-256 of `text` (equal to createHmac's, without an object per call; a test checks they agree). */
  hmac(text: string): Buffer {
    // A UTF-16 code unit is at most three UTF-8 bytes: a message that might not fit the reused block gets its own.
    let block = this.innerBlock;
    if (64 + text.length * 3 > block.length) {
      block = Buffer.alloc(64 + text.length * 3);
      this.innerPad.copy(block);
    }
    const length = block.write(text, 64, 'utf8');
    const inner = hash('sha256', block.subarray(0, 64 + length), 'buffer');
    inner.copy(this.outerBlock, 64);
    return hash('sha256', this.outerBlock, 'buffer');
  }

  /**
   * Runs `work` with every replacement made meanwhile recorded in `ledger` (the needles of one message). Calls are
   * synchronous, so one ledger is current at a time; the previous one is restored even when `work` throws.
   */
  recording<T>(ledger: NeedleLedger, work: () => T): T {
    const previous = this.ledger;
    this.ledger = ledger;
    try {
      return work();
    } finally {
      this.ledger = previous;
    }
  }

  /** The needles of the de-identification under way (undefined outside {@link recording}). */
  currentNeedles(): NeedleSet<string> | undefined {
    return this.ledger?.needleSet;
  }

  /** Records a replacement made outside this class (a shifted date, a recognised value) in the current ledger. */
  note(original: string, replacement: string): void {
    this.ledger?.record(original, replacement);
  }

  /**
   * Records a shifted date in the current ledger, in its own form and, for a birth date with a day, as digits in
   * year-month-day and US month-day-year order (`19610615`, `06151961`), so it travels written either way.
   */
  noteDate(original: string, shifted: string, birthDate = false): void {
    if (!this.ledger) return;
    this.ledger.record(original, shifted);
    // Other dates written in free text are found and shifted alike by the date recogniser; a birth date moved into
    // the 90+ year is not a shift, so its other spellings must travel as needles.
    if (!birthDate) return;
    const from = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(original);
    const to = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(shifted);
    if (!from || !to) return;
    this.ledger.record(`${from[1]}${from[2]}${from[3]}`, `${to[1]}${to[2]}${to[3]}`);
    this.ledger.record(`${from[2]}${from[3]}${from[1]}`, `${to[2]}${to[3]}${to[1]}`);
  }

  /**
   * A keyed placeholder of the same shape as `value` for what could not be classified: unlike every other replacement
   * it is not recorded as a needle (an unclassified value is not known to identify anyone, and a code or a field name
   * travelling into the rest of the message would only break its structure).
   */
  placeholder(value: string): string {
    const ledger = this.ledger;
    this.ledger = undefined;
    try {
      return this.shaped('redacted', value);
    } finally {
      this.ledger = ledger;
    }
  }

  private cached(kind: string, value: string, make: (bytes: ByteStream) => string): string {
    // One map per kind: no composite key string is built for every look-up.
    let byValue = this.cache.get(kind);
    if (!byValue) {
      byValue = new Map();
      this.cache.set(kind, byValue);
    }
    const hit = byValue.get(value);
    if (hit !== undefined) {
      this.ledger?.recordNormalised(value, hit.needle, hit.made);
      return hit.made;
    }
    const made = make(this.stream(kind, value));
    if (++this.cacheSize > CACHE_LIMIT) {
      this.cache.clear();
      this.cacheSize = 1;
      this.cache.set(kind, (byValue = new Map()));
    }
    // The value's needle is made once with its pseudonym: every later message meeting the value records it as is.
    const entry: CacheEntry = { made, needle: normaliseNeedle(value) };
    byValue.set(value, entry);
    this.ledger?.recordNormalised(value, entry.needle, made);
    return made;
  }

  /** A whole number of days in ±[30, 395] for a patient key: one offset per patient keeps intervals. */
  dateOffsetDays(patientKey: string): number {
    const known = this.offsets.get(patientKey);
    if (known !== undefined) return known;
    const bytes = this.stream('date-offset', patientKey);
    const days = 30 + bytes.below(366);
    const offset = bytes.next() % 2 === 0 ? -days : days;
    if (this.offsets.size >= CACHE_LIMIT) this.offsets.clear();
    this.offsets.set(patientKey, offset);
    return offset;
  }

  /** A family name for a family name (same input, same output; never the input itself). */
  familyName(value: string): string {
    return this.word('family', value, LISTS.lastNames);
  }

  /** A given name for a given name; a single letter (an initial) becomes another letter. */
  givenName(value: string): string {
    if (value.length === 1) return this.initial(value);
    return this.word('given', value, LISTS.firstNames);
  }

  /** A city name. */
  city(value: string): string {
    return this.word('city', value, LISTS.cities);
  }

  /** A county name. */
  county(value: string): string {
    return /^\d+$/.test(value) ? this.shaped('county', value) : this.word('county', value, LISTS.counties);
  }

  /** A street line: a house number of the same digit count and a street name. */
  streetLine(value: string): string {
    // Cached by the value without its case, the case applied after: the same street in any case maps alike.
    const made = this.cached('street', value.trim().toUpperCase(), (bytes) => {
      const digits = /^\s*(\d+)/.exec(value)?.[1]?.length ?? 3;
      let number = String(1 + bytes.below(9));
      for (let index = 1; index < digits; index++) number += String(bytes.below(10));
      const street = LISTS.streets[bytes.below(LISTS.streets.length)] ?? 'Main Street';
      return `${number} ${street}`;
    });
    return matchCase(value.replace(/\d/g, ''), made);
  }

  /** Free text: removed, with its length kept out of the output as well (length can identify short notes). */
  freeText(): string {
    return 'text removed by de-identification';
  }

  /** An e-mail address at a reserved example domain (RFC 2606), stable per address. */
  email(value: string): string {
    return this.cached('email', value.trim().toLowerCase(), (bytes) => {
      const first = LISTS.firstNames[bytes.below(LISTS.firstNames.length)] ?? 'pat';
      const last = LISTS.lastNames[bytes.below(LISTS.lastNames.length)] ?? 'doe';
      return `${first}.${last}${bytes.below(100)}@example.org`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
    });
  }

  /** A URL at a reserved example domain. */
  url(value: string): string {
    return this.cached('url', value.trim(), (bytes) => `https://example.org/${this.shapedWith(bytes, 'a1b2c3d4')}`);
  }

  /** A UUID (with its `urn:uuid:` prefix when it had one) of the same layout, hexadecimal digits only. */
  uuid(value: string): string {
    return this.cached('uuid', value.toLowerCase(), (bytes) => {
      const prefix = /^urn:uuid:/i.exec(value)?.[0] ?? '';
      return prefix + value.slice(prefix.length).replace(/[0-9a-fA-F]/g, (char) => {
        const digit = '0123456789abcdef'[bytes.below(16)]!;
        return /[A-F]/.test(char) ? digit.toUpperCase() : digit;
      });
    });
  }

  /** An IPv4 address from the documentation range 192.0.2.0/24 (RFC 5737), or an IPv6 one from 2001:db8::/32. */
  ipAddress(value: string): string {
    return this.cached('ip', value.trim(), (bytes) =>
      value.includes(':') ? `2001:db8::${bytes.below(65_535).toString(16)}` : `192.0.2.${1 + bytes.below(254)}`,
    );
  }

  /**
   * An identifier of the same shape: each digit becomes a digit, each letter a letter of the same case, anything
   * else (dashes, dots, spaces) stays where it is. The first digit of an all-digit value is never 0 when the
   * original's was not (receivers that read it as a number keep its length).
   */
  shaped(kind: IdentifierKind | string, value: string): string {
    if (IDENTIFIER_LIKE.has(kind)) return this.identifier(value);
    return this.cached(kind, value, (bytes) => {
      let out = this.shapedWith(bytes, value);
      // A pseudonym equal to its input would leak it (possible for short values): walk to the next one.
      for (let attempt = 0; out === value && attempt < 8; attempt++) out = this.shapedWith(bytes, value);
      return out;
    });
  }

  /** A social security number: an {@link identifier} (an SSN-shaped value keeps an SSN's rules whatever it is called). */
  ssn(value: string): string {
    return this.identifier(value);
  }

  /**
   * An identifier of any kind (record, account, plan, licence number, SSN...): the same value gets the same pseudonym
   * whatever field or type code it came in. A value laid out as an SSN (`123-45-6789`, nine digits) gets a US social
   * security number of the same layout, never with area 000, 666 or 900-999 (not issued); any other value the same
   * shape (see {@link shaped}).
   */
  identifier(value: string): string {
    return this.cached('identifier', value, (bytes) => {
      const digits = value.replace(/\D/g, '');
      if (digits.length !== 9 || !/^(\d{3}-\d{2}-\d{4}|\d{9})$/.test(value.trim())) {
        let out = this.shapedWith(bytes, value);
        for (let attempt = 0; out === value && attempt < 8; attempt++) out = this.shapedWith(bytes, value);
        return out;
      }
      const area = String(1 + bytes.below(665)).padStart(3, '0');
      const safeArea = area === '666' ? '667' : area;
      const group = String(1 + bytes.below(99)).padStart(2, '0');
      const serial = String(1 + bytes.below(9999)).padStart(4, '0');
      const fresh = `${safeArea}${group}${serial}`;
      let index = 0;
      return value.replace(/\d/g, () => fresh[index++]!);
    });
  }

  /** A phone number of the same layout whose area code and exchange start with 2-9 (a valid NANP shape). */
  phone(value: string): string {
    return this.cached('phone', value, (bytes) => {
      let position = 0;
      const out = value.replace(/\d/g, () => {
        const digit = position === 0 || position === 3 ? 2 + bytes.below(8) : bytes.below(10);
        position++;
        return String(digit);
      });
      return out === value ? this.shapedWith(bytes, value) : out;
    });
  }

  /**
   * A postal code under HIPAA Safe Harbor: a US ZIP (or ZIP+4) keeps its first three digits, the rest zeros
   * (`27401-1234` -> `27400-0000`), or becomes all zeros when its three-digit area holds 20,000 people or fewer
   * ({@link RESTRICTED_ZIP3}); other countries' codes get a keyed code of the same letters/digits pattern.
   */
  postalCode(value: string): string {
    const zip = /^(\s*)(\d{3})(\d{2})(-?)(\d{4})?(\s*)$/.exec(value);
    if (!zip) return this.shaped('postalCode', value);
    const area = RESTRICTED_ZIP3.has(zip[2]!) ? '000' : zip[2]!;
    const made = `${zip[1]}${area}00${zip[4]}${zip[5] ? '0000' : ''}${zip[6]}`;
    this.ledger?.record(value, made);
    return made;
  }

  /**
   * An NPI (10 digits starting with 1 or 2) whose Luhn check digit is valid exactly when the original's was: a
   * message that failed for a bad NPI still fails for it, one that passed still passes.
   */
  npi(value: string): string {
    return this.cached('npi', value, (bytes) => {
      let firstNine = String(1 + bytes.below(2));
      for (let index = 1; index < 9; index++) firstNine += String(bytes.below(10));
      const check = npiCheckDigit(firstNine);
      return `${firstNine}${isValidNpi(value) ? check : (check + 1) % 10}`;
    });
  }

  /** A DEA number of the same two letters' shape with a valid check digit. */
  dea(value: string): string {
    return this.cached('dea', value, (bytes) => {
      if (!/^[A-Za-z]{2}\d{7}$/.test(value)) return this.shapedWith(bytes, value);
      let six = '';
      for (let index = 0; index < 6; index++) six += String(bytes.below(10));
      const check = deaCheckDigit(six);
      // As for NPIs: the check digit is right exactly when the original's was.
      return `${value.slice(0, 1)}${UPPER[bytes.below(26)]}${six}${deaProblem(value) === undefined ? check : (check + 1) % 10}`;
    });
  }

  private initial(value: string): string {
    const letter = this.cached('initial', value.toUpperCase(), (bytes) => {
      const made = UPPER[bytes.below(26)]!;
      return made === value.toUpperCase() ? UPPER[(UPPER.indexOf(made) + 1) % 26]! : made;
    });
    return value === value.toLowerCase() ? letter.toLowerCase() : letter;
  }

  private word(kind: string, value: string, list: string[]): string {
    const normalised = value.trim().toUpperCase();
    const made = this.cached(kind, normalised, (bytes) => {
      let word = list[bytes.below(list.length)] ?? 'Doe';
      if (word.toUpperCase() === normalised) word = list[(list.indexOf(word) + 1) % list.length] ?? word;
      return word;
    });
    return matchCase(value.trim(), made);
  }

  private shapedWith(bytes: ByteStream, value: string): string {
    let out = '';
    for (let index = 0; index < value.length; index++) {
      const char = value[index]!;
      if (char >= '0' && char <= '9') out += String(index === 0 && char !== '0' ? 1 + bytes.below(9) : bytes.below(10));
      else if (char >= 'A' && char <= 'Z') out += UPPER[bytes.below(26)];
      else if (char >= 'a' && char <= 'z') out += LOWER[bytes.below(26)];
      else out += char;
    }
    return out;
  }
}
