/**
 * Check digits of practitioner identifiers, shared by the generators that make them and the validators that check
 * them: the NPI (CMS NPPES: Luhn over the card-issuer prefix 80840 followed by the first nine digits) and the DEA
 * registration number (DEA: (d1+d3+d5) + 2*(d2+d4+d6), last digit of the sum). Pure functions, exported to other
 * plugins through `api.ts`.
 */

/** Luhn check digit of a digit string (doubling starts at the rightmost payload digit). */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    let digit = payload.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** NPI check digit for the first nine digits (the 80840 prefix makes it an ISO 7812 card number). */
export function npiCheckDigit(firstNine: string): number {
  return luhnCheckDigit(`80840${firstNine}`);
}

/** Why an NPI is wrong, or undefined when it is a valid NPI. */
export function npiProblem(value: string): 'format' | 'check-digit' | undefined {
  if (!/^\d{10}$/.test(value)) return 'format';
  return npiCheckDigit(value.slice(0, 9)) === value.charCodeAt(9) - 48 ? undefined : 'check-digit';
}

/** DEA check digit for the six digits after the two letters. */
export function deaCheckDigit(sixDigits: string): number {
  const d = [...sixDigits].map((c) => c.charCodeAt(0) - 48);
  return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10;
}

/** Why a DEA number is wrong, or undefined when it is valid (2 letters, or letter + 9, then 7 digits). */
export function deaProblem(value: string): 'format' | 'check-digit' | undefined {
  if (!/^[A-Z][A-Z9]\d{7}$/.test(value)) return 'format';
  return deaCheckDigit(value.slice(2, 8)) === value.charCodeAt(8) - 48 ? undefined : 'check-digit';
}

/** True when a 10-digit NPI carries a valid check digit. */
export function isValidNpi(npi: string): boolean {
  return npiProblem(npi) === undefined;
}
