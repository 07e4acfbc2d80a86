/**
 * Measures how the time of some work grows when its input doubles, robustly enough for a loaded machine: a warm-up,
 * then the median of several alternating runs of the small and the doubled input. Tests assert the ratio (linear
 * work stays near 2, quadratic near 4), never an absolute time.
 */
import { performance } from 'node:perf_hooks';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Milliseconds of one call of `work`, repeated until at least `minMs` passed (short work is timed in batches). */
function timeOnce(work: () => unknown, minMs: number): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    work();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return elapsed / calls;
}

/**
 * Ratio of the median time of `work(2n)` to that of `work(n)`. `prepare(size)` builds the input outside the timing;
 * `work(input)` is what is timed. A ratio above `recheckAbove` (default 2.5) is measured again, up to `attempts` (default
 * 4) measurements in all, and the lowest kept: other work on a shared machine can spoil some measurements, while
 * super-linear work stays above it every time.
 */
export function doublingRatio<T>(
  prepare: (size: number) => T,
  work: (input: T) => unknown,
  size: number,
  options: { runs?: number; minMs?: number; recheckAbove?: number; attempts?: number } = {},
): number {
  const runs = options.runs ?? 5;
  const minMs = options.minMs ?? 20;
  const small = prepare(size);
  const large = prepare(size * 2);
  work(small);
  work(large);
  const measure = (): number => {
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      smallTimes.push(timeOnce(() => work(small), minMs));
      largeTimes.push(timeOnce(() => work(large), minMs));
    }
    return median(largeTimes) / Math.max(median(smallTimes), 1e-6);
  };
  let lowest = measure();
  for (let again = 1; again < (options.attempts ?? 4) && lowest > (options.recheckAbove ?? 2.5); again++) lowest = Math.min(lowest, measure());
  return lowest;
}
