/**
 * Durations as a person reads them: the largest unit that keeps the number at least 1 (ms, s, min, h, d), one
 * decimal at most. The one formatter for every place a person reads a duration (text and HTML reports, report
 * e-mails, alert titles and messages, the web pages); JSON keeps milliseconds. Plain code without Node modules, so the
 * pages' bundle can use it too.
 */

const UNITS: ReadonlyArray<[string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/** `850 ms`, `1.5 s`, `2 min`, `3.2 h`, `14.5 d`; `n/a` for null. */
export function humanDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'n/a';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  for (const [unit, size] of UNITS) {
    if (abs >= size) return `${sign}${Math.round((abs / size) * 10) / 10} ${unit}`;
  }
  return `${sign}${Math.round(abs)} ms`;
}
