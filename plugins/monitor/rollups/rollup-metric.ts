/**
 * The metrics a roll-up answers and the one formula that turns summed parts into each. The store's reader and any
 * fake of the monitor's contract compute a metric here, so a ratio or an average means the same everywhere.
 */

/** Metrics the roll-ups answer. Ratios and averages are computed from summed parts, never averaged. */
export const ROLLUP_METRICS = ['messagesTotal', 'messagesFailed', 'messagesSuccessful', 'errorRate', 'averageLatencyMs', 'p99LatencyMs'] as const;

/** One metric of {@link ROLLUP_METRICS}. */
export type RollupMetric = (typeof ROLLUP_METRICS)[number];

/** The summed parts a metric is computed from. */
export interface MetricParts {
  messages: number;
  failed: number;
  latencySumMs: number;
  latencyCount: number;
}

/**
 * A metric from summed parts: a rate or an average is null where no message (or no usable latency) was counted, and
 * the average latency is rounded to whole milliseconds. p99 comes from a histogram, so the caller passes it in.
 */
export function rollupMetricValue(metric: RollupMetric, parts: MetricParts, p99: number | null): number | null {
  switch (metric) {
    case 'messagesTotal':
      return parts.messages;
    case 'messagesFailed':
      return parts.failed;
    case 'messagesSuccessful':
      return parts.messages - parts.failed;
    case 'errorRate':
      return parts.messages > 0 ? parts.failed / parts.messages : null;
    case 'averageLatencyMs':
      return parts.latencyCount > 0 ? Math.round(parts.latencySumMs / parts.latencyCount) : null;
    case 'p99LatencyMs':
      return p99;
  }
}
