/**
 * Latency between two interfaces: each message on the destination is paired with the same message on the source,
 * and the hop takes destination received time minus source received time (when each file landed in its folder).
 *
 * Pairing, in this order: an acknowledgement (MSA-2 set) pairs with the source message whose control id it answers;
 * any other message pairs with a source message of the same control id; failing that, with a source message of the
 * same patient and message type whose MSH-7 lies within `matchWindowMs` of its own (an engine that re-stamps MSH-10
 * usually keeps MSH-7 close). Each source message pairs at most once, the earliest unpaired first. Cost is linear in
 * the messages of both sides (hash maps keyed by control id and by patient + type).
 */

/** What pairing reads of a message. */
export interface LatencyMessage {
  id: string;
  receivedAtMs: number;
  /** MSH-7 in ms, or null. */
  messageTimeMs: number | null;
  controlId: string | null;
  acknowledgedControlId: string | null;
  /** `ADT^A01`. */
  messageType: string;
  /** First patient identifier and its authority; null, or absent, when unknown. */
  patientId?: string | null;
  patientAuthority?: string | null;
}

/** The key of the patient-and-time fallback: patient (with authority) and type; null without a patient or MSH-7. */
function patientTypeKey(message: LatencyMessage): string | null {
  if (message.patientId === undefined || message.patientId === null || message.messageTimeMs === null) return null;
  return `${message.patientId}\u0000${message.patientAuthority ?? ''}\u0000${message.messageType}`;
}

/** Default window of the MSH-7 fallback pairing: 5 minutes. */
export const DEFAULT_MATCH_WINDOW_MS = 300_000;

/** A pair: the hop's latency in ms and the destination's received time (for the hourly series). */
export interface LatencyPair {
  sourceId: string;
  destinationId: string;
  latencyMs: number;
  destinationReceivedAtMs: number;
  /** How the pair was made. */
  by: 'ack' | 'control-id' | 'patient-and-time';
}

/** Pairs and the counts of what stayed unpaired on each side. */
export interface PairingResult {
  pairs: LatencyPair[];
  unmatchedSource: number;
  unmatchedDestination: number;
  /**
   * Destination messages that reached the patient-and-time fallback: no acknowledgement, no source message of their
   * control id, and an MSH-7. When none did, the patient keys played no part, so pairing without them (null) gave
   * the same pairs.
   */
  fallbackCandidates: number;
}

/** The source messages of one key beyond the first, and how far the front ones are used up. */
class Queue {
  head = 0;
  constructor(readonly messages: LatencyMessage[]) {}
}

/**
 * A queue of source messages per key, consumed front to back (earliest first). A key with one message (the usual
 * control id) keeps the message itself, not a queue.
 */
class KeyedQueue {
  private readonly entries = new Map<string, LatencyMessage | Queue>();

  add(key: string, message: LatencyMessage): void {
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, message);
    else if (entry instanceof Queue) entry.messages.push(message);
    else this.entries.set(key, new Queue([entry, message]));
  }

  /** The earliest message under `key` not yet used and accepted by `accept`, marked used. */
  take(key: string, used: Set<LatencyMessage>, accept?: (message: LatencyMessage) => boolean): LatencyMessage | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (!(entry instanceof Queue)) {
      if (used.has(entry) || (accept !== undefined && !accept(entry))) return undefined;
      used.add(entry);
      return entry;
    }
    const queue = entry.messages;
    while (entry.head < queue.length && used.has(queue[entry.head]!)) entry.head++;
    for (let i = entry.head; i < queue.length; i++) {
      const candidate = queue[i]!;
      if (used.has(candidate) || (accept !== undefined && !accept(candidate))) continue;
      used.add(candidate);
      return candidate;
    }
    return undefined;
  }
}

/**
 * Pairs destination messages with source messages. Both lists in arrival order. The time-window fallback scans
 * only the source messages of the same patient and type.
 */
export function pairMessages(
  source: readonly LatencyMessage[],
  destination: readonly LatencyMessage[],
  matchWindowMs: number = DEFAULT_MATCH_WINDOW_MS,
): PairingResult {
  const byControlId = new KeyedQueue();
  const byPatientType = new KeyedQueue();
  for (const message of source) {
    if (message.controlId) byControlId.add(message.controlId, message);
    const key = patientTypeKey(message);
    if (key !== null) byPatientType.add(key, message);
  }
  // messages by identity: each source message pairs at most once
  const used = new Set<LatencyMessage>();
  const pairs: LatencyPair[] = [];
  let fallbackCandidates = 0;
  for (const message of destination) {
    let partner: LatencyMessage | undefined;
    let by: LatencyPair['by'] = 'control-id';
    if (message.acknowledgedControlId) {
      partner = byControlId.take(message.acknowledgedControlId, used);
      by = 'ack';
    } else {
      if (message.controlId) partner = byControlId.take(message.controlId, used);
      if (!partner && message.messageTimeMs !== null) fallbackCandidates++;
      const key = partner ? null : patientTypeKey(message);
      if (key !== null) {
        const time = message.messageTimeMs!;
        partner = byPatientType.take(key, used, (candidate) => Math.abs((candidate.messageTimeMs ?? Infinity) - time) <= matchWindowMs);
        by = 'patient-and-time';
      }
    }
    if (!partner) continue;
    pairs.push({
      sourceId: partner.id,
      destinationId: message.id,
      latencyMs: message.receivedAtMs - partner.receivedAtMs,
      destinationReceivedAtMs: message.receivedAtMs,
      by,
    });
  }
  return { pairs, unmatchedSource: source.length - used.size, unmatchedDestination: destination.length - pairs.length, fallbackCandidates };
}

/** Summary of latencies: extremes and nearest-rank quantiles (a quantile is always an observed value). */
export interface LatencySummary {
  count: number;
  minMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

/** The nearest-rank q-quantile (0 < q <= 1) of ascending values. */
export function nearestRank(sorted: ArrayLike<number>, q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Summarises ascending latencies. */
function summaryOfSorted(sorted: Float64Array): LatencySummary {
  return {
    count: sorted.length,
    minMs: sorted.length > 0 ? sorted[0]! : null,
    p50Ms: nearestRank(sorted, 0.5),
    p95Ms: nearestRank(sorted, 0.95),
    p99Ms: nearestRank(sorted, 0.99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : null,
  };
}

/** One hour of the latency series. */
export interface LatencyHour extends LatencySummary {
  /** Start of the UTC hour (ISO 8601). */
  hour: string;
}

/** The latencies of pairs by the start (ms) of the destination's received UTC hour. */
export function latenciesByHour(pairs: readonly LatencyPair[]): Map<number, number[]> {
  const byHour = new Map<number, number[]>();
  for (const pair of pairs) {
    const hour = Math.floor(pair.destinationReceivedAtMs / 3_600_000) * 3_600_000;
    const bucket = byHour.get(hour);
    if (bucket) bucket.push(pair.latencyMs);
    else byHour.set(hour, [pair.latencyMs]);
  }
  return byHour;
}

/** The hours of latencies by hour, oldest first, each hour's latencies ascending. */
function sortedHours(byHour: ReadonlyMap<number, readonly number[]>): Array<[hour: number, sorted: Float64Array]> {
  return [...byHour.entries()].sort((a, b) => a[0] - b[0]).map(([hour, values]) => [hour, Float64Array.from(values).sort()]);
}

function hourOf([hour, sorted]: [number, Float64Array]): LatencyHour {
  return { hour: new Date(hour).toISOString(), ...summaryOfSorted(sorted) };
}

/**
 * Latencies by hour (see {@link latenciesByHour}) summarised at once: all of them together, and the hourly series
 * (hours without a pair are absent; oldest first). Each hour is sorted once; the summary of all reads the sorted
 * hours merged.
 */
export function summariseHours(byHour: ReadonlyMap<number, readonly number[]>): { summary: LatencySummary; series: LatencyHour[] } {
  const hours = sortedHours(byHour);
  return { summary: summaryOfSorted(mergeAscending(hours.map(([, sorted]) => sorted))), series: hours.map(hourOf) };
}

/** Ascending runs merged into one, two by two (log2 of the runs passes over the values). */
function mergeAscending(runs: readonly Float64Array[]): Float64Array {
  let level = runs;
  while (level.length > 1) {
    const next: Float64Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? mergeTwo(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0] ?? new Float64Array(0);
}

function mergeTwo(a: Float64Array, b: Float64Array): Float64Array {
  const merged = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}
