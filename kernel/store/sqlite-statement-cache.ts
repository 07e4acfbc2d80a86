/**
 * Kysely's SQLite driver prepares every statement it runs anew: for the short queries of a polled dashboard,
 * compiling the SQL costs more than running it. The store hands Kysely this view of the database instead, which
 * keeps the prepared statements of the most recently used SQL texts and hands them out again. SQLite recompiles a
 * kept statement by itself when the schema changed under it; a kept statement still busy (a stream read in
 * progress) is never handed out twice: a fresh one is prepared for that call.
 */
import type SQLiteDatabase from 'better-sqlite3';

/** What Kysely's SqliteDialect needs of a database. */
export interface PreparingDatabase {
  prepare(sql: string): SQLiteDatabase.Statement;
  close(): void;
}

/** Statements kept at most (least recently used first out). */
const DEFAULT_CAPACITY = 500;

/** Wraps a better-sqlite3 database so statements are prepared once per SQL text (up to `capacity` texts). */
export function cachingStatements(database: SQLiteDatabase.Database, capacity = DEFAULT_CAPACITY): PreparingDatabase {
  const kept = new Map<string, SQLiteDatabase.Statement>();
  return {
    prepare(sql) {
      const statement = kept.get(sql);
      if (statement && !statement.busy) {
        // most recently used last: Map keeps insertion order
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const fresh = database.prepare(sql);
      if (statement) return fresh;
      if (kept.size >= capacity) {
        const oldest = kept.keys().next().value;
        if (oldest !== undefined) kept.delete(oldest);
      }
      kept.set(sql, fresh);
      return fresh;
    },
    close() {
      kept.clear();
      database.close();
    },
  };
}
