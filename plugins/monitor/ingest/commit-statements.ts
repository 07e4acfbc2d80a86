/**
 * The statements of one ledger commit, run in one transaction on either store. On embedded SQLite they are prepared
 * once and kept, and run on the database's own handle inside a transaction taken while Kysely's connection is held
 * (so no other query runs in between): no query building, no preparing per batch. On PostgreSQL (or SQLite without
 * its handle) they run in a Kysely transaction, inserts as multi-row statements. Statements are written with `?`
 * placeholders, in SQL both stores accept (`on conflict ... do update` included). Long inserts take turns with the
 * rest of the event loop (kernel LoopSlice) while the connection stays held.
 */
import type SQLiteDatabase from 'better-sqlite3';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';

/** The store a commit writes to. */
export interface CommitStore {
  // the monitor's tables; statements here are plain SQL
  db: Kysely<any>;
  dialect: 'sqlite' | 'postgres';
  /** The SQLite handle behind `db`, when there is one (prepared statements). */
  sqlite?: SQLiteDatabase.Database;
}

/** What a commit can run. */
export interface CommitStatements {
  /** Runs a statement. */
  run(sql: string, params: readonly unknown[]): Promise<void>;
  /** The first row a query returns. */
  first<T>(sql: string, params: readonly unknown[]): Promise<T | undefined>;
  /**
   * Inserts rows, each an array of values in `columns` order; `onConflict` (an `on conflict ...` clause) applies to
   * every row. Rows of one call must not conflict with each other.
   */
  insert(table: string, columns: readonly string[], rows: readonly unknown[][], onConflict?: string): Promise<void>;
}

/** Most values bound in one multi-row insert (PostgreSQL allows 65,535). */
const MAX_VALUES_PER_INSERT = 30_000;

/** Most rows in one multi-row insert. */
const MAX_ROWS_PER_INSERT = 500;

function insertSql(table: string, columns: readonly string[], rowCount: number, onConflict: string | undefined): string {
  const row = `(${columns.map(() => '?').join(', ')})`;
  const values = Array.from({ length: rowCount }, () => row).join(', ');
  return `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${values}${onConflict ? ` ${onConflict}` : ''}`;
}

/** Prepared statements of each SQLite handle, by SQL text (a commit uses a handful of texts). */
const preparedByHandle = new WeakMap<SQLiteDatabase.Database, Map<string, SQLiteDatabase.Statement>>();

function sqliteStatements(handle: SQLiteDatabase.Database): CommitStatements {
  let prepared = preparedByHandle.get(handle);
  if (!prepared) {
    prepared = new Map();
    preparedByHandle.set(handle, prepared);
  }
  const statement = (sql: string): SQLiteDatabase.Statement => {
    let found = prepared.get(sql);
    if (!found) {
      found = handle.prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  return {
    async run(sql, params) {
      statement(sql).run(params);
    },
    async first<T>(sql: string, params: readonly unknown[]) {
      return statement(sql).get(params) as T | undefined;
    },
    async insert(table, columns, rows, onConflict) {
      if (rows.length === 0) return;
      const insert = statement(insertSql(table, columns, 1, onConflict));
      // the rows of a batch file of 100,000 messages take seconds: other work gets its turns meanwhile (Kysely's
      // connection stays held, so no other statement runs inside this transaction)
      const slice = new LoopSlice();
      for (const row of rows) {
        insert.run(row);
        if (slice.spent()) await slice.pass();
      }
    },
  };
}

function kyselyStatements(trx: Transaction<unknown>, dialect: CommitStore['dialect']): CommitStatements {
  const execute = (sql: string, params: readonly unknown[]) => {
    let n = 0;
    const text = dialect === 'postgres' ? sql.replace(/\?/g, () => `$${++n}`) : sql;
    return trx.executeQuery(CompiledQuery.raw(text, [...params]));
  };
  return {
    async run(sql, params) {
      await execute(sql, params);
    },
    async first<T>(sql: string, params: readonly unknown[]) {
      return (await execute(sql, params)).rows[0] as T | undefined;
    },
    async insert(table, columns, rows, onConflict) {
      const perInsert = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_VALUES_PER_INSERT / columns.length)));
      for (let i = 0; i < rows.length; i += perInsert) {
        const chunk = rows.slice(i, i + perInsert);
        await execute(insertSql(table, columns, chunk.length, onConflict), chunk.flat());
      }
    },
  };
}

/** Runs `work` in one transaction: everything it ran is stored, or (it threw) nothing is. */
export async function inCommitTransaction<T>(store: CommitStore, work: (statements: CommitStatements) => Promise<T>): Promise<T> {
  const { sqlite } = store;
  if (!sqlite) return store.db.transaction().execute((trx) => work(kyselyStatements(trx, store.dialect)));
  // holding Kysely's only connection keeps every other query out of this transaction
  return store.db.connection().execute(async () => {
    sqlite.exec('begin immediate');
    try {
      const result = await work(sqliteStatements(sqlite));
      sqlite.exec('commit');
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('rollback');
      throw error;
    }
  });
}
