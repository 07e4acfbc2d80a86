/**
 * Identifiers that look real and pass their format checks but can never belong to a real person or practitioner:
 * SSNs in the never-issued 9xx area, phone numbers in the 555-0100..0199 block NANPA reserves for fiction, NPIs
 * whose Luhn check (over the 80840 card-issuer prefix, as CMS defines it) is valid, and DEA numbers with a valid
 * check digit.
 */

import { deaCheckDigit, npiCheckDigit } from '../identifiers/api.ts';

/** Draws integers; the seeded faker supplies it so identifiers are deterministic. */
export type IntSource = (min: number, max: number) => number;

/** Registrant-type letters a DEA number may start with (DEA Diversion Control, registrant categories). */
export const DEA_REGISTRANT_TYPES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'P', 'R', 'S', 'T', 'U', 'X'] as const;

function digits(int: IntSource, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(int(0, 9));
  return out;
}

/** `9XX-XX-XXXX`: the SSA never issues area numbers 900-999, so these cannot collide with a real SSN. */
export function syntheticSsn(int: IntSource): string {
  return `9${digits(int, 2)}-${String(int(1, 99)).padStart(2, '0')}-${String(int(1, 9999)).padStart(4, '0')}`;
}

/** `(AAA) 555-01XX` with the given real area code: 555-0100..0199 is reserved for fictional use. */
export function syntheticPhone(int: IntSource, areaCode: string): { phone: string; line: string } {
  const line = `01${digits(int, 2)}`;
  return { phone: `(${areaCode}) 555-${line}`, line };
}

/** A 10-digit NPI (first digit 1 or 2, as issued) with a valid check digit. */
export function syntheticNpi(int: IntSource): string {
  const firstNine = `${int(1, 2)}${digits(int, 8)}`;
  return `${firstNine}${npiCheckDigit(firstNine)}`;
}

/**
 * A DEA number for a practitioner: registrant type, the first letter of the family name (as the DEA assigns it),
 * six digits and the check digit.
 */
export function syntheticDea(int: IntSource, familyName: string): string {
  const type = DEA_REGISTRANT_TYPES[int(0, DEA_REGISTRANT_TYPES.length - 1)];
  const initial = /^[A-Za-z]/.test(familyName) ? familyName[0].toUpperCase() : 'X';
  const six = digits(int, 6);
  return `${type}${initial}${six}${deaCheckDigit(six)}`;
}
