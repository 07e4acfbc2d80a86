/**
 * What {@link scanFeed} finds in one interface's window, found in the database so only the findings cross into
 * JavaScript: the MSH-13 jumps and the messages of repeated control ids, the same findings in the same order.
 *
 * - Repeated control ids: the window's rows the feed marked repeated (another row of the interface has their control
 *   id), grouped by sender and control id; a group of two or more is a repeat within the window.
 * - Jumps, per sender (application and facility): each message with a number of 0 or more after the sender's
 *   previous one. On PostgreSQL, or with many senders, a window function (LAG over arrival order, partitioned by
 *   sender) answers the jumps with both messages. On SQLite with a few senders, each sender's numbers are read as
 *   one column of numbers in arrival order (no object per row, no sort: the feed's own order) and scanned here; the
 *   messages on each side of a jump are then read by their number, the n-th message of a number being the n-th one
 *   the scan saw.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FeedMessage, FeedReader, FeedWindow } from './feed-index.ts';
import type { FeedFindings } from './interface-gaps.ts';
import { boundWindow, compareKeys, windowCondition, type BoundedWindow, type FeedKey } from './feed-window-sql.ts';

/** Most senders whose numbers are read one sender at a time (each read goes through the window once). */
const COLUMN_SCAN_SENDERS = 8;

/** Values per `in (...)` list. */
const VALUES_PER_STATEMENT = 500;

/** What a feed row read by this engine holds: its key, sender, control id and number. */
const ROW_COLUMNS = sql`received_ms, file_id, index_in_file, sending_application, sending_facility, control_id, sequence_number`;

/** A window's findings, with how many messages it held and whether the cap cut it. */
export interface FeedScan {
  findings: FeedFindings;
  messagesRead: number;
  more: boolean;
}

type Sender = readonly [application: string | null, facility: string | null];

/**
 * The findings of one interface's window of at most `cap` messages (see the file comment); on SQLite a window of at
 * most `columnSenders` senders is scanned by columns.
 */
export async function scanFeedWindow(reader: FeedReader, window: FeedWindow, cap: number, columnSenders = COLUMN_SCAN_SENDERS): Promise<FeedScan> {
  // the usual window has one sender: told by the extremes of its parts in the counting pass
  const bounded = await boundWindow(reader, window, cap, {
    aggregates: [
      sql`count(sending_application)`, sql`min(sending_application)`, sql`max(sending_application)`,
      sql`count(sending_facility)`, sql`min(sending_facility)`, sql`max(sending_facility)`,
    ],
    columns: ['sending_application', 'sending_facility'],
    alias: 'tracing_feed',
  });
  const where = windowCondition(bounded);
  const senders = soleSender(bounded.rows, bounded.totals) ?? ((await reader.rows(sql`select distinct sending_application, sending_facility from tracing_feed where ${where}`.compile(reader.db))) as unknown as Sender[]);
  const jumps =
    reader.dialect === 'sqlite' && senders.length <= columnSenders
      ? await jumpsByColumns(reader, bounded, senders)
      : await jumpsByWindowFunction(reader, window.interfaceId, where);
  const repeated = await repeatedControlIds(reader, window.interfaceId, where);
  return { findings: { jumps, repeated }, messagesRead: bounded.rows, more: bounded.more };
}

/**
 * The senders of a window of `rows` rows when it has at most one, from each part's count of values, least and
 * greatest value (a part is the same on every row when all have it and the least is the greatest, or none has it);
 * undefined when the window may have several.
 */
function soleSender(rows: number, totals: readonly unknown[]): Sender[] | undefined {
  if (rows === 0) return [];
  const part = (at: number): { same: boolean; value: string | null } => {
    const count = Number(totals[at]);
    if (count === 0) return { same: true, value: null };
    return { same: count === rows && totals[at + 1] === totals[at + 2], value: totals[at + 1] as string };
  };
  const application = part(0);
  const facility = part(3);
  return application.same && facility.same ? [[application.value, facility.value]] : undefined;
}

/** A feed message of a row read with ROW_COLUMNS (from `at` on); its other parts are read later, when shown. */
function messageOf(interfaceId: string, row: readonly unknown[], at = 0): FeedMessage {
  return {
    id: `${row[at + 1]}.${row[at + 2]}`,
    interfaceId,
    receivedAtMs: Number(row[at]),
    sendingApplication: row[at + 3] as string | null,
    sendingFacility: row[at + 4] as string | null,
    controlId: row[at + 5] as string | null,
    sequenceNumber: row[at + 6] === null ? null : Number(row[at + 6]),
    acknowledgedControlId: null,
    messageType: '',
    messageTimeMs: null,
    patientId: null,
    patientAuthority: null,
    contentDigest: null,
  };
}

function keyOf(message: FeedMessage): FeedKey {
  const dot = message.id.indexOf('.');
  return [message.receivedAtMs, Number(message.id.slice(0, dot)), Number(message.id.slice(dot + 1))];
}

/** Whether a sender's parts match a row's (null matches null only). */
function senderCondition([application, facility]: Sender): RawBuilder<unknown> {
  return sql`sending_application is not distinct from ${application} and sending_facility is not distinct from ${facility}`;
}

/** The jumps in arrival order of the message after each: LAG over each sender's numbered messages. */
async function jumpsByWindowFunction(reader: FeedReader, interfaceId: string, where: RawBuilder<unknown>): Promise<FeedFindings['jumps']> {
  const rows = await reader.rows(
    sql`select * from (
      select ${ROW_COLUMNS},
        lag(received_ms) over sender_order as before_received_ms, lag(file_id) over sender_order as before_file_id,
        lag(index_in_file) over sender_order as before_index, lag(sending_application) over sender_order as before_application,
        lag(sending_facility) over sender_order as before_facility, lag(control_id) over sender_order as before_control_id,
        lag(sequence_number) over sender_order as before_number
      from tracing_feed where ${where} and sequence_number >= 0
      window sender_order as (partition by sending_application, sending_facility order by received_ms, file_id, index_in_file)
    ) as numbered
    where sequence_number > 0 and before_number > 0 and sequence_number > before_number + 1
    order by received_ms, file_id, index_in_file`.compile(reader.db),
  );
  return rows.map((row) => ({ before: messageOf(interfaceId, row, 7), after: messageOf(interfaceId, row) }));
}

/**
 * The jumps in arrival order of the message after each: each sender's numbers read as a column and scanned, then
 * the messages on each side read by number (the n-th message of a number in the window is the n-th the scan saw).
 */
async function jumpsByColumns(reader: FeedReader, bounded: BoundedWindow, senders: readonly Sender[]): Promise<FeedFindings['jumps']> {
  const where = windowCondition(bounded);
  const jumps: FeedFindings['jumps'] = [];
  for (const sender of senders) {
    // the window's only sender needs no condition
    const numbered = senders.length === 1 ? sql`${where} and sequence_number >= 0` : sql`${where} and ${senderCondition(sender)} and sequence_number >= 0`;
    const numbers = (await reader.column(sql`select sequence_number from tracing_feed where ${numbered} order by received_ms, file_id, index_in_file`.compile(reader.db))).map(Number);
    // places of the messages after each jump (the message before is the one before it)
    const afterAt: number[] = [];
    for (let i = 1; i < numbers.length; i++) {
      const number = numbers[i]!;
      const last = numbers[i - 1]!;
      if (number > 0 && last > 0 && number > last + 1) afterAt.push(i);
    }
    if (afterAt.length === 0) continue;
    // the place of each message wanted, and the n-th occurrence of its number it is
    const wanted = new Map<number, number[]>();
    for (const i of afterAt) for (const place of [i - 1, i]) wanted.set(numbers[place]!, []);
    for (let i = 0; i < numbers.length; i++) wanted.get(numbers[i]!)?.push(i);
    const messageAt = new Map<number, FeedMessage>();
    const values = [...wanted.keys()];
    for (let v = 0; v < values.length; v += VALUES_PER_STATEMENT) {
      const chunk = values.slice(v, v + VALUES_PER_STATEMENT);
      const rows = await reader.rows(
        sql`select ${ROW_COLUMNS} from tracing_feed where ${numbered} and sequence_number in (${sql.join(chunk)})
          order by received_ms, file_id, index_in_file`.compile(reader.db),
      );
      const seen = new Map<number, number>();
      for (const row of rows) {
        const number = Number(row[6]);
        const occurrence = seen.get(number) ?? 0;
        seen.set(number, occurrence + 1);
        const place = wanted.get(number)?.[occurrence];
        if (place !== undefined) messageAt.set(place, messageOf(bounded.window.interfaceId, row));
      }
    }
    for (const i of afterAt) jumps.push({ before: messageAt.get(i - 1)!, after: messageAt.get(i)! });
  }
  return jumps.sort((a, b) => compareKeys(keyOf(a.after), keyOf(b.after)));
}

/**
 * The messages of every control id a sender used more than once in the window, in arrival order: of the window's
 * rows marked repeated (their control id is on another row of the interface), those whose sender and control id
 * come twice or more in the window.
 */
async function repeatedControlIds(reader: FeedReader, interfaceId: string, where: RawBuilder<unknown>): Promise<FeedMessage[]> {
  const rows = await reader.rows(
    sql`select ${ROW_COLUMNS} from tracing_feed where ${where} and repeated = 1 and control_id <> '' order by received_ms, file_id, index_in_file`.compile(reader.db),
  );
  const groupKey = (row: readonly unknown[]) => JSON.stringify([row[3], row[4], row[5]]);
  const uses = new Map<string, number>();
  for (const row of rows) uses.set(groupKey(row), (uses.get(groupKey(row)) ?? 0) + 1);
  return rows.filter((row) => uses.get(groupKey(row))! > 1).map((row) => messageOf(interfaceId, row));
}
