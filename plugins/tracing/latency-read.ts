/**
 * Latency between two interfaces over a window of the feed (see latency-pairing.ts for the pairing rules). Usually
 * every destination message pairs by its key with the one source message of it: the database joins the windows and
 * answers the latencies by hour (feed-latency-sql.ts). Otherwise pairing goes in order, message by message; patients
 * matter only to a destination message that neither an acknowledgement nor a control id paired: they are read, and
 * the pairing done again, only when there is one. Each window reads at most `maxScanMessages` messages.
 */
import type { FeedColumn, FeedIndex, FeedWindow } from './feed-index.ts';
import { pairInFeed } from './feed-latency-sql.ts';
import { latenciesByHour, pairMessages, summariseHours, type LatencyHour, type LatencyMessage, type LatencySummary } from './latency-pairing.ts';

/** What latency pairing reads of every message of both windows; the patient only when the fallback needs it. */
const PAIRING_COLUMNS: readonly FeedColumn[] = ['controlId', 'acknowledgedControlId', 'messageType', 'messageTimeMs'];
const PATIENT_COLUMNS: readonly FeedColumn[] = [...PAIRING_COLUMNS, 'patientId', 'patientAuthority'];

/** What a latency read measures. */
export interface LatencyQuery {
  fromInterface: string;
  toInterface: string;
  messageType?: string;
  since: Date;
  until?: Date;
  matchWindowMs?: number;
}

/** Answer of a latency read. */
export interface LatencyResult extends LatencySummary {
  fromInterface: string;
  toInterface: string;
  messageType: string | null;
  since: string;
  until: string;
  matchWindowMs: number;
  unmatched: { source: number; destination: number };
  pairedBy: { controlId: number; ack: number; patientAndTime: number };
  series: LatencyHour[];
  truncated: boolean;
}

/** The bounds a latency read keeps to (from the plugin config). */
export interface LatencyLimits {
  /** Most messages read of each window. */
  maxScanMessages: number;
  /** Window of the MSH-7 fallback pairing, in ms, unless the query gives one. */
  matchWindowMs: number;
}

/** The latency of `query` over the feed, at `nowMs` (the end of a window without `until`). */
export async function readLatency(feed: FeedIndex, query: LatencyQuery, limits: LatencyLimits, nowMs: number): Promise<LatencyResult> {
  const until = query.until ?? new Date(nowMs);
  const matchWindowMs = query.matchWindowMs ?? limits.matchWindowMs;
  const cap = limits.maxScanMessages;
  let truncated = false;
  const wanted = query.messageType?.toUpperCase();
  const matchesType = (m: LatencyMessage) => wanted === undefined || m.messageType === wanted || m.messageType.startsWith(`${wanted}^`);
  // Without an explicit until the window is open-ended: a message received at this very instant still counts.
  const windowOf = (interfaceId: string): FeedWindow =>
    query.until === undefined ? { interfaceId, sinceMs: query.since.getTime() } : { interfaceId, sinceMs: query.since.getTime(), untilMs: query.until.getTime() };
  const read = async (interfaceId: string, isDestination: boolean, columns: readonly FeedColumn[]): Promise<LatencyMessage[]> => {
    const window = await feed.read(windowOf(interfaceId), columns, cap + 1);
    if (window.length > cap) {
      truncated = true;
      window.length = cap;
    }
    // feed messages are pairing messages as they are; the type filter names the source's messages, and
    // acknowledgements on the destination answer them whatever their type
    if (wanted === undefined) return window;
    return window.filter((message) => matchesType(message) || (isDestination && message.acknowledgedControlId !== null));
  };
  const pair = async (columns: readonly FeedColumn[]) => {
    truncated = false;
    const source = await read(query.fromInterface, false, columns);
    const destination = await read(query.toInterface, true, columns);
    return pairMessages(source, destination, matchWindowMs);
  };
  // the join in the database first; pairing in order when it cannot answer (see the file comment)
  const joined = await feed.snapshot((reader) =>
    pairInFeed(reader, { source: windowOf(query.fromInterface), destination: windowOf(query.toInterface), messageType: wanted, cap }),
  );
  let byHour: Map<number, number[]>;
  const pairedBy = { controlId: 0, ack: 0, patientAndTime: 0 };
  let unmatched: LatencyResult['unmatched'];
  if (joined !== undefined) {
    byHour = joined.latenciesByHour;
    pairedBy.ack = joined.acks;
    pairedBy.controlId = joined.pairs - joined.acks;
    unmatched = { source: joined.unmatchedSource, destination: joined.unmatchedDestination };
    truncated = joined.truncated;
  } else {
    let result = await pair(PAIRING_COLUMNS);
    if (result.fallbackCandidates > 0) result = await pair(PATIENT_COLUMNS);
    for (const pair of result.pairs) {
      if (pair.by === 'ack') pairedBy.ack++;
      else if (pair.by === 'control-id') pairedBy.controlId++;
      else pairedBy.patientAndTime++;
    }
    byHour = latenciesByHour(result.pairs);
    unmatched = { source: result.unmatchedSource, destination: result.unmatchedDestination };
  }
  const { summary, series } = summariseHours(byHour);
  return {
    fromInterface: query.fromInterface,
    toInterface: query.toInterface,
    messageType: wanted ?? null,
    since: query.since.toISOString(),
    until: until.toISOString(),
    matchWindowMs,
    ...summary,
    unmatched,
    pairedBy,
    series,
    truncated,
  };
}
