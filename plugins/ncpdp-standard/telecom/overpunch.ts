/**
 * Signed overpunch, the COBOL convention Telecommunication D.0 uses for signed amounts (format s9(n)v99): the last
 * character carries both the last digit and the sign. `{` = +0, `A`..`I` = +1..+9, `}` = -0, `J`..`R` = -1..-9.
 * "1000{" is +100.00, "25J" is -2.51.
 */

const POSITIVE = '{ABCDEFGHI';
const NEGATIVE = '}JKLMNOPQR';

/** A decoded overpunched amount, in cents (an integer: money is never a float here). */
export interface OverpunchAmount {
  cents: number;
  negative: boolean;
}

/** Decodes an overpunched amount with two implied decimals; undefined when the text is not one. */
export function decodeOverpunch(value: string): OverpunchAmount | undefined {
  if (!/^\d{0,13}[{}A-R]$/.test(value)) return undefined;
  const last = value[value.length - 1];
  let digit = POSITIVE.indexOf(last);
  let negative = false;
  if (digit < 0) {
    digit = NEGATIVE.indexOf(last);
    negative = true;
  }
  const magnitude = Number(`${value.slice(0, -1)}${digit}`);
  return { cents: negative ? -magnitude : magnitude, negative };
}

/** Encodes an amount in cents as an overpunched string (at least three characters: "00{" is 0.00). */
export function encodeOverpunch(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Overpunch amounts are whole cents, got ${cents}`);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const last = Number(digits[digits.length - 1]);
  return digits.slice(0, -1) + (cents < 0 ? NEGATIVE[last] : POSITIVE[last]);
}
