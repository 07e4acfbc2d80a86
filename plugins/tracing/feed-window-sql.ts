/**
 * A window of one interface's feed in SQL, for the engines that judge it in the database: the condition that picks
 * its rows, and its bound. A window holds the messages received from `sinceMs` (and before `untilMs`) in arrival
 * order (received time, file, index), at most `cap` of them: when more were received, the window ends before the
 * first one past the cap, exactly the messages a read of `cap` rows in that order gives.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FeedReader, FeedWindow } from './feed-index.ts';

/** The key of a feed row in arrival order: received time (ms), file, index in file. */
export type FeedKey = readonly [receivedMs: number, fileId: number, indexInFile: number];

/** A window bounded by its cap: the rows of `window` before `before` (all of them when undefined). */
export interface BoundedWindow {
  window: FeedWindow;
  before: FeedKey | undefined;
  /** Rows in the bounded window. */
  rows: number;
  /** Whether the window held more rows than the cap. */
  more: boolean;
}

/** The condition picking the rows of a bounded window; `alias` names the feed table in the query. */
export function windowCondition(bounded: Pick<BoundedWindow, 'window' | 'before'>, alias = 'tracing_feed'): RawBuilder<unknown> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const { window, before } = bounded;
  const parts: Array<RawBuilder<unknown>> = [sql`${column('interface_id')} = ${window.interfaceId}`, sql`${column('received_ms')} >= ${window.sinceMs}`];
  if (window.untilMs !== undefined) parts.push(sql`${column('received_ms')} < ${window.untilMs}`);
  if (before !== undefined) {
    parts.push(sql`(${column('received_ms')}, ${column('file_id')}, ${column('index_in_file')}) < (${before[0]}, ${before[1]}, ${before[2]})`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * Bounds a window by `cap` rows: counts at most cap + 1 of them and, when there are more, finds where it ends.
 * `totals.aggregates` are aggregates over the bounded window's rows (the feed table named `totals.alias`, of which
 * they read `totals.columns`), computed in the same pass when the window is within its cap, answered in `totals` in
 * the order given.
 */
export async function boundWindow(
  reader: FeedReader,
  window: FeedWindow,
  cap: number,
  totals: { aggregates: ReadonlyArray<RawBuilder<unknown>>; columns: readonly string[]; alias: string } = { aggregates: [], columns: [], alias: 'tracing_feed' },
): Promise<BoundedWindow & { totals: unknown[] }> {
  const { alias } = totals;
  const all = windowCondition({ window, before: undefined }, alias);
  // every column named: PostgreSQL's rows are objects by column name
  const aggregates = sql.join([sql`count(*) as rows_counted`, ...totals.aggregates.map((total, i) => sql`${total} as ${sql.ref(`total_${i}`)}`)]);
  // the counting pass reads only the columns the aggregates use (`columns`)
  const read = sql.join(totals.columns.length > 0 ? totals.columns.map((column) => sql.ref(`${alias}.${column}`)) : [sql`1 as counted`]);
  const [first] = await reader.rows(
    sql`select ${aggregates} from (select ${read} from tracing_feed as ${sql.table(alias)} where ${all}
      order by received_ms, file_id, index_in_file limit ${cap + 1}) as ${sql.table(alias)}`.compile(reader.db),
  );
  const rows = Number(first![0]);
  if (rows <= cap) return { window, before: undefined, rows, more: false, totals: first!.slice(1) };
  const before = (await endOfWindow(reader, window, cap))!;
  const [bounded] = await reader.rows(sql`select ${aggregates} from tracing_feed as ${sql.table(alias)} where ${windowCondition({ window, before }, alias)}`.compile(reader.db));
  return { window, before, rows: cap, more: true, totals: bounded!.slice(1) };
}

/**
 * Where a window bounded by `cap` rows ends: the key of its first row past the cap, or undefined when it holds at
 * most `cap` rows. Steps through the keys of the first `cap` rows in arrival order and reads no other column.
 */
export async function endOfWindow(reader: FeedReader, window: FeedWindow, cap: number): Promise<FeedKey | undefined> {
  const [end] = await reader.rows(
    sql`select received_ms, file_id, index_in_file from tracing_feed where ${windowCondition({ window, before: undefined })}
      order by received_ms, file_id, index_in_file limit 1 offset ${cap}`.compile(reader.db),
  );
  return end === undefined ? undefined : [Number(end[0]), Number(end[1]), Number(end[2])];
}

/** Orders feed keys in arrival order. */
export function compareKeys(a: FeedKey, b: FeedKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
