/**
 * Latency pairing in the database, for the usual case: every destination message pairs by its control id (or, an
 * acknowledgement, by MSA-2) with the one source message of that id. One pass reads the destination's window in the
 * feed's order, each message looking its key up in the source's window through the feed's control-id index, and only
 * the latencies and their hours cross into JavaScript; the source's window is only counted.
 *
 * The join gives the pairs of {@link pairMessages} exactly when no key is taken twice and no destination message
 * would reach the patient-and-time fallback:
 *
 * - no source message the join pairs is marked repeated (the feed marks a control id another row of the interface
 *   carries): each destination message then finds one source message, the only one of its control id;
 * - no destination message without MSA-2 is marked repeated, and, when the window holds acknowledgements, its keys
 *   (MSA-2, else the control id) are counted distinct: no two destination messages then take the same source one;
 * - every destination message without MSA-2 and with an MSH-7 is paired.
 *
 * A source message of a repeated control id that no destination message names changes no pair. When it is not so,
 * the answer is undefined and the caller pairs in order, message by message (latency-pairing.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import type { FeedReader, FeedWindow } from './feed-index.ts';
import { boundWindow, endOfWindow, windowCondition } from './feed-window-sql.ts';

/** What a latency read pairs: two windows and the source's message type (`ADT`, `ADT^A01`), if any. */
export interface FeedLatencyQuery {
  source: FeedWindow;
  destination: FeedWindow;
  /** Upper-case type: source messages of it, and destination messages of it or acknowledgements. */
  messageType: string | undefined;
  /** Most messages read of each window (the first of it). */
  cap: number;
}

/** Pairs made in the database. */
export interface FeedLatencyPairs {
  /** Latencies (ms) by the start of the destination's received hour (ms). */
  latenciesByHour: Map<number, number[]>;
  pairs: number;
  /** Pairs made by MSA-2. */
  acks: number;
  unmatchedSource: number;
  unmatchedDestination: number;
  /** Whether a window held more messages than the cap. */
  truncated: boolean;
}

const HOUR_MS = 3_600_000;

/** The key a destination message pairs by: MSA-2 when set, else its control id (null when neither). */
function destinationKey(alias: string): RawBuilder<string | null> {
  const ack = sql.ref(`${alias}.acknowledged_control_id`);
  const control = sql.ref(`${alias}.control_id`);
  return sql`case when ${ack} <> '' then ${ack} when ${control} <> '' then ${control} end`;
}

/** Whether a destination message would try the patient-and-time fallback when unpaired: no MSA-2, an MSH-7. */
function fallbackCandidate(alias: string): RawBuilder<boolean> {
  return sql`coalesce(${sql.ref(`${alias}.acknowledged_control_id`)}, '') = '' and ${sql.ref(`${alias}.message_time_ms`)} is not null`;
}

/** The message-type condition of a side (the destination keeps its acknowledgements whatever their type). */
function typeCondition(alias: string, messageType: string | undefined, destination: boolean): RawBuilder<unknown> {
  if (messageType === undefined) return sql`1 = 1`;
  const type = sql.ref(`${alias}.message_type`);
  // `ADT` names ADT^A01 and every other event: the type itself, or it and a caret at the start (in characters)
  const prefix = `${messageType}^`;
  const matches = sql`(${type} = ${messageType} or substr(${type}, 1, ${[...prefix].length}) = ${prefix})`;
  return destination ? sql`(${matches} or ${sql.ref(`${alias}.acknowledged_control_id`)} is not null)` : matches;
}

/** The pairs, or undefined when the join would not give the pairs made in order (see the file comment). */
export async function pairInFeed(reader: FeedReader, query: FeedLatencyQuery): Promise<FeedLatencyPairs | undefined> {
  const sourceType = typeCondition('s', query.messageType, false);
  const source = await boundWindow(reader, query.source, query.cap, {
    aggregates: [sql`count(case when ${sourceType} then 1 end)`],
    columns: query.messageType === undefined ? [] : ['message_type'],
    alias: 's',
  });
  const sourceMessages = Number(source.totals[0]);
  const destinationEnd = await endOfWindow(reader, query.destination, query.cap);
  const inSource = sql`${windowCondition(source, 's')} and ${sourceType}`;
  const inDestination = sql`${windowCondition({ window: query.destination, before: destinationEnd }, 'd')} and ${typeCondition('d', query.messageType, true)}`;
  const pass = await joinedPass(reader, inSource, inDestination, query.destination.sinceMs);
  if (pass.unsure > 0) return undefined;
  if (pass.acks > 0) {
    const [keys] = await reader.rows(sql`select count(${destinationKey('d')}) as keyed, count(distinct ${destinationKey('d')}) as distinct_keys from tracing_feed d where ${inDestination}`.compile(reader.db));
    if (Number(keys![0]) !== Number(keys![1])) return undefined;
  }
  return {
    latenciesByHour: pass.latenciesByHour,
    pairs: pass.pairs,
    acks: pass.pairedAcks,
    unmatchedSource: sourceMessages - pass.pairs,
    unmatchedDestination: pass.messages - pass.pairs,
    truncated: source.more || destinationEnd !== undefined,
  };
}

/** What the one pass over the destination's window answers (see {@link joinedPass}). */
interface JoinedPass {
  /** Destination messages (of the type, or acknowledgements). */
  messages: number;
  /** Of them, acknowledgements (MSA-2 set). */
  acks: number;
  /**
   * Of them, those the join may not pair as in order: paired with a source message marked repeated, marked
   * repeated themselves without MSA-2, or left unpaired when they would try the patient-and-time fallback.
   */
  unsure: number;
  pairs: number;
  /** Pairs made by MSA-2. */
  pairedAcks: number;
  latenciesByHour: Map<number, number[]>;
}

/**
 * One pass over the destination's window (`inDestination`, alias `d`) in the feed's order, each message looking its
 * key up in the source's window (`inSource`, alias `s`) through the control-id index, which holds the source's
 * received time and mark (without a message type no row of the source is read): a left join, so the same pass counts
 * the unpaired and what decides whether the join may answer. The latencies (null for a message left unpaired) come
 * as one array and the destination's hours (counted from the hour of `sinceMs`) as another, built from the same rows
 * in the same order (each row steps both aggregates): no grouping, so no sort of the joined rows in the database.
 */
async function joinedPass(reader: FeedReader, inSource: RawBuilder<unknown>, inDestination: RawBuilder<unknown>, sinceMs: number): Promise<JoinedPass> {
  const paired = sql`s.received_ms is not null`;
  const ack = sql`d.acknowledged_control_id <> ''`;
  const repeatedWithoutAck = sql`coalesce(d.acknowledged_control_id, '') = '' and d.repeated = 1 and d.control_id <> ''`;
  // every row's value, null when unpaired (a filter on the aggregate costs more than the nulls)
  const inOrder = (value: RawBuilder<unknown>) => (reader.dialect === 'sqlite' ? sql`json_group_array(${value})` : sql`json_agg(${value})`);
  // hours from the window's first one: small numbers, never below 0, so the division is the floor
  const firstHourMs = Math.floor(sinceMs / HOUR_MS) * HOUR_MS;
  // SQLite, without statistics, would rather scan the source's window for each message once the source's type is
  // asked (a column the index lacks)
  const byControlId = reader.dialect === 'sqlite' ? sql`indexed by tracing_feed_control_id` : sql``;
  const [row] = await reader.rows(
    sql`select count(*) as messages, count(case when ${ack} then 1 end) as acks,
        count(case when s.repeated = 1 or (${repeatedWithoutAck}) or (not (${paired}) and ${fallbackCandidate('d')}) then 1 end) as unsure,
        count(s.received_ms) as pairs, count(case when ${paired} and ${ack} then 1 end) as paired_acks,
        ${inOrder(sql`d.received_ms - s.received_ms`)} as latencies,
        ${inOrder(sql`(d.received_ms - cast(${firstHourMs} as bigint)) / ${sql.lit(HOUR_MS)}`)} as hours
      from tracing_feed d left join tracing_feed s ${byControlId} on s.control_id = ${destinationKey('d')} and ${inSource}
      where ${inDestination}`.compile(reader.db),
  );
  const [messages, acks, unsure, pairs, pairedAcks] = row!.slice(0, 5).map(Number) as [number, number, number, number, number];
  const latencies = jsonArray(row![5]);
  const hours = jsonArray(row![6]);
  const latenciesByHour = new Map<number, number[]>();
  let hour: unknown;
  let bucket: number[] = [];
  for (let i = 0; i < latencies.length; i++) {
    if (latencies[i] === null) continue;
    if (hours[i] !== hour) {
      hour = hours[i];
      const hourMs = firstHourMs + Number(hour) * HOUR_MS;
      bucket = latenciesByHour.get(hourMs) ?? [];
      latenciesByHour.set(hourMs, bucket);
    }
    bucket.push(Number(latencies[i]));
  }
  return { messages, acks, unsure, pairs, pairedAcks, latenciesByHour };
}

/** A JSON array the database aggregated: text on SQLite, parsed already on PostgreSQL, null when empty there. */
function jsonArray(value: unknown): unknown[] {
  if (value === null) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as unknown[];
}
