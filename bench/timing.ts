/**
 * The timing helpers the benches share: a median, rounding for the printed figures, and the median time of a call
 * repeated after warm-up calls (the first calls pay for compiling and for cold caches, which a steady figure leaves out).
 */

/** The median of `values` (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `value` rounded to `digits` decimals, as a number (for the figures and the JSON line). */
export function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

/** Milliseconds `work` took, and what it answered. */
export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await work();
  return [performance.now() - start, result];
}

/** Median milliseconds of `runs` calls of `call`, after `warmUps` calls that are not timed (one by default). */
export async function medianMs(runs: number, call: () => Promise<unknown>, warmUps = 1): Promise<number> {
  for (let i = 0; i < warmUps; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(call))[0]);
  return median(times);
}
