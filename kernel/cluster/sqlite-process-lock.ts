/**
 * An embedded SQLite store belongs to one service process. The service holds an exclusive SQLite lock on a small
 * companion database (`<store file>.lock` beside the store) for as long as it runs; a second service on the same
 * store finds it locked and is refused at start with a message naming the file. The operating system releases the
 * lock when the process ends however it ends (kill -9 included), so no stale lock is ever left behind. One-shot CLI
 * commands do not take it: they may read and write the store while the service runs, as SQLite allows.
 */
import SQLiteDatabase from 'better-sqlite3';

/** A held lock. */
export interface ProcessLock {
  readonly file: string;
  release(): void;
}

/** Takes the service lock of the store `storeFile`; throws a clear error when another process holds it. */
export function lockSqliteStore(storeFile: string): ProcessLock {
  const file = `${storeFile}.lock`;
  const database = new SQLiteDatabase(file, { timeout: 0 });
  try {
    database.pragma('locking_mode = EXCLUSIVE');
    // the first write takes the exclusive lock, kept until the connection closes (exclusive locking mode)
    database.exec('create table if not exists service_lock (pid integer); begin exclusive; delete from service_lock; insert into service_lock values (' + process.pid + '); commit');
  } catch (error) {
    database.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new Error(
        `Another workbench service is running on the SQLite store ${storeFile} (it holds the lock ${file}). An ` +
          'embedded store serves one process: stop the other service, give this one its own dataDir, or share a ' +
          'PostgreSQL store (storage.url) to run several nodes.',
        { cause: error },
      );
    }
    throw error;
  }
  return {
    file,
    release: () => {
      if (database.open) database.close();
    },
  };
}
