/**
 * What a stopped service's store holds of the monitor's ingest, counted straight from its tables: the ledger rows,
 * the messages they count, the message rows, their distinct control ids and the minute roll-ups. The crash
 * scenarios (scripts/monitor-crash-scenario.ts and the tests that kill a service mid-file) check that these agree to
 * the message, on the embedded SQLite file or on a PostgreSQL store.
 */
import SQLiteDatabase from 'better-sqlite3';
import pg from 'pg';

/** The store to count: the service's SQLite file, or the URL of its PostgreSQL store (search_path included). */
export type CountedStore = { sqliteFile: string } | { postgresUrl: string };

/** The counts of a store's monitor tables. */
export interface LedgerTotals {
  /** Every ledger row, replaced versions included. */
  ledgerRows: number;
  /** Rows of files as they are now (not `replaced`). */
  currentRows: number;
  /** Rows of files committed in slices and not all stored (`partial`). */
  partialRows: number;
  /** Paths with more than one current row (a file counted twice). */
  pathsCountedTwice: number;
  /** Messages the ledger rows count (replaced versions included: their messages stay counted). */
  ledgerMessages: number;
  messageRows: number;
  distinctControlIds: number;
  /** Messages of the minute roll-ups. */
  rollupMessages: number;
}

/** Each figure's query; every one answers a single row with `n`. */
const QUERIES: Record<keyof LedgerTotals, string> = {
  ledgerRows: 'select count(*) as n from monitor_files',
  currentRows: "select count(*) as n from monitor_files where state <> 'replaced'",
  partialRows: "select count(*) as n from monitor_files where state = 'partial'",
  pathsCountedTwice:
    "select count(*) as n from (select path from monitor_files where state <> 'replaced' group by interface_id, path having count(*) > 1) as twice",
  ledgerMessages: 'select coalesce(sum(message_count), 0) as n from monitor_files',
  messageRows: 'select count(*) as n from monitor_messages',
  distinctControlIds: 'select count(distinct control_id) as n from monitor_messages',
  rollupMessages: 'select coalesce(sum(messages), 0) as n from monitor_minutes',
};

/** One ledger row as the checks read it. */
export interface LedgerFile {
  path: string;
  state: string;
  messageCount: number;
  failedCount: number;
}

/** Runs queries of no parameters on the store, one connection for all; answers each query's rows. */
async function queryStore(store: CountedStore, queries: readonly string[]): Promise<Array<Array<Record<string, unknown>>>> {
  if ('sqliteFile' in store) {
    const db = new SQLiteDatabase(store.sqliteFile, { readonly: true });
    try {
      return queries.map((query) => db.prepare(query).all() as Array<Record<string, unknown>>);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.postgresUrl });
  await client.connect();
  try {
    const answers: Array<Array<Record<string, unknown>>> = [];
    for (const query of queries) answers.push((await client.query(query)).rows);
    return answers;
  } finally {
    await client.end();
  }
}

/** Counts a store's monitor tables (the service that writes them should be stopped). */
export async function ledgerTotals(store: CountedStore): Promise<LedgerTotals> {
  const names = Object.keys(QUERIES) as Array<keyof LedgerTotals>;
  const answers = await queryStore(store, names.map((name) => QUERIES[name]));
  // PostgreSQL answers counts and sums as text (bigint, numeric)
  return Object.fromEntries(names.map((name, i) => [name, Number(answers[i][0].n)])) as unknown as LedgerTotals;
}

/** Every ledger row of the store, oldest first. */
export async function ledgerFiles(store: CountedStore): Promise<LedgerFile[]> {
  const [rows] = await queryStore(store, ['select path, state, message_count, failed_count from monitor_files order by id']);
  return rows.map((row) => ({
    path: String(row.path),
    state: String(row.state),
    messageCount: Number(row.message_count),
    failedCount: Number(row.failed_count),
  }));
}
