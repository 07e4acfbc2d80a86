/**
 * Public surface of the identifiers plugin: format and check-digit rules of practitioner identifiers (NPI, DEA) and
 * the Luhn algorithm behind the NPI. Pure functions, for validators and generators alike: validating a message never
 * needs the synthetic-data plugin (generation) to be on.
 */
export { deaCheckDigit, deaProblem, isValidNpi, luhnCheckDigit, npiCheckDigit, npiProblem } from './check-digits.ts';
