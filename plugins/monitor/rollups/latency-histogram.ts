/**
 * Latency histogram of the minute roll-ups: logarithmic buckets growing by 5 %, so a p99 read from the buckets is
 * the upper edge of the bucket holding the 99th percentile: never below the exact value and at most 5 % above it
 * (latencies of 1 ms and less, negative ones from a sender clock running ahead included, share bucket 0).
 */

/** Growth factor between bucket edges. */
export const LATENCY_BUCKET_GROWTH = 1.05;
const LOG_GROWTH = Math.log(LATENCY_BUCKET_GROWTH);

/** Bucket of a latency in milliseconds. */
export function latencyBucket(latencyMs: number): number {
  if (!(latencyMs > 1)) return 0;
  return Math.ceil(Math.log(latencyMs) / LOG_GROWTH - 1e-9);
}

/** Upper edge (ms) of a bucket. */
export function bucketUpperMs(bucket: number): number {
  return bucket <= 0 ? 1 : Math.pow(LATENCY_BUCKET_GROWTH, bucket);
}

/** The quantile `q` (0..1) of a histogram (bucket -> count), as the upper edge of its bucket; null when empty. */
export function histogramQuantile(counts: ReadonlyMap<number, number>, q: number): number | null {
  let total = 0;
  for (const count of counts.values()) total += count;
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket) ?? 0;
    if (seen >= rank) return Math.ceil(bucketUpperMs(bucket));
  }
  return null;
}
