/**
 * The salted identity hash compared between a learned sample and a generated population: SHA-256 over a per-profile
 * random salt and the normalised given name, family name, birth date and five-digit ZIP. Only the hash is kept, so
 * a profile never holds a real name, birth date or address.
 */
import { createHash } from 'node:crypto';

function normalise(text: string): string {
  return text.normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

/** Hex SHA-256 of salt and the normalised identity; birth date as `YYYY-MM-DD`, ZIP cut to five digits. */
export function identityHash(salt: string, givenName: string, familyName: string, birthDate: string, zip: string): string {
  const identity = [normalise(givenName), normalise(familyName), birthDate.slice(0, 10), zip.replace(/\D/g, '').slice(0, 5)].join('|');
  return createHash('sha256').update(salt).update('|').update(identity).digest('hex');
}
