/**
 * Latency pairing in the database, for the usual case: every destination message pairs by its control id (or, an
 * acknowledgement, by MSA-2) with the one source message of that id. The destination's window is joined with the
 * source's through the feed's control-id index, and only the latencies cross into JavaScript, one array of numbers
 * per hour of the destination's received time.
 *
 * The join gives the pairs of {@link pairMessages} exactly when no key can be taken twice: the source's control
 * ids are distinct in its window and so are the destination's keys (MSA-2 of an acknowledgement, else the control
 * id), and no destination message would reach the patient-and-time fallback. Control ids are known distinct when no
 * row of the window is marked repeated (the feed marks a control id another row of the interface carries); MSA-2
 * keys are counted. When it is not so, the answer is undefined and the caller pairs in order, message by message
 * (latency-pairing.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import type { FeedReader, FeedWindow } from './feed-index.ts';
import { boundWindow, windowCondition } from './feed-window-sql.ts';

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
  // a source window whose control ids are none of them repeated holds each once
  const sourceType = typeCondition('s', query.messageType, false);
  const source = await boundWindow(reader, query.source, query.cap, {
    aggregates: [sql`count(case when ${sourceType} then 1 end)`, sql`count(case when ${sourceType} and s.repeated = 1 and s.control_id <> '' then 1 end)`],
    columns: ['message_type', 'repeated', 'control_id'],
    alias: 's',
  });
  const [sourceMessages, sourceRepeated] = source.totals.map(Number) as [number, number];
  if (sourceRepeated > 0) return undefined;
  // nor a destination window without acknowledgements; one with them is checked key by key
  const destinationType = typeCondition('d', query.messageType, true);
  const destination = await boundWindow(reader, query.destination, query.cap, {
    aggregates: [
      sql`count(case when ${destinationType} then 1 end)`,
      sql`count(case when ${destinationType} and d.acknowledged_control_id <> '' then 1 end)`,
      sql`count(case when ${destinationType} and coalesce(d.acknowledged_control_id, '') = '' and d.repeated = 1 and d.control_id <> '' then 1 end)`,
      sql`count(case when ${destinationType} and ${fallbackCandidate('d')} then 1 end)`,
    ],
    columns: ['message_type', 'acknowledged_control_id', 'repeated', 'control_id', 'message_time_ms'],
    alias: 'd',
  });
  const [destinationMessages, destinationAcks, destinationRepeated, candidates] = destination.totals.map(Number) as [number, number, number, number];
  if (destinationRepeated > 0) return undefined;
  const inSource = sql`${windowCondition(source, 's')} and ${sourceType}`;
  const inDestination = sql`${windowCondition(destination, 'd')} and ${destinationType}`;
  if (destinationAcks > 0) {
    const [keys] = await reader.rows(sql`select count(${destinationKey('d')}) as keyed, count(distinct ${destinationKey('d')}) as distinct_keys from tracing_feed d where ${inDestination}`.compile(reader.db));
    if (Number(keys![0]) !== Number(keys![1])) return undefined;
  }
  const latencies = reader.dialect === 'sqlite' ? sql`json_group_array(d.received_ms - s.received_ms)` : sql`json_agg(d.received_ms - s.received_ms)`;
  const hours = await reader.rows(
    sql`select d.received_ms / ${sql.lit(HOUR_MS)} as hour, count(*) as pairs, count(case when d.acknowledged_control_id <> '' then 1 end) as acks,
        count(case when ${fallbackCandidate('d')} then 1 end) as candidates, ${latencies} as latencies
      from tracing_feed d join tracing_feed s on s.control_id = ${destinationKey('d')} and ${inSource}
      where ${inDestination}
      group by d.received_ms / ${sql.lit(HOUR_MS)}`.compile(reader.db),
  );
  const latenciesByHour = new Map<number, number[]>();
  let pairs = 0;
  let acks = 0;
  let pairedCandidates = 0;
  for (const [hour, count, ackCount, candidateCount, values] of hours) {
    pairs += Number(count);
    acks += Number(ackCount);
    pairedCandidates += Number(candidateCount);
    const list = (typeof values === 'string' ? JSON.parse(values) : values) as Array<number | string>;
    latenciesByHour.set(Number(hour) * HOUR_MS, list.map(Number));
  }
  // a destination message without an acknowledgement left unpaired would try the patients: pair in order then
  if (candidates > pairedCandidates) return undefined;
  return {
    latenciesByHour,
    pairs,
    acks,
    unmatchedSource: sourceMessages - pairs,
    unmatchedDestination: destinationMessages - pairs,
    truncated: source.more || destination.more,
  };
}
