// The embedded SQLite store's checkpoints, in a thread of their own: copying the write-ahead log back into the
// database file (and syncing it) took 150 to 250 ms at a time on the event loop when SQLite ran it inside a commit.
// This thread holds a second connection to the same file and runs a passive checkpoint whenever the main thread asks
// (it never waits for, nor blocks, the writer or the readers). Plain JavaScript, so it loads the same way from the
// sources and from the compiled build.
import { parentPort, workerData } from 'node:worker_threads';
import SQLiteDatabase from 'better-sqlite3';

const database = new SQLiteDatabase(workerData.file, { fileMustExist: true });
// never wait for a lock: a checkpoint that finds one taken is tried again at the next request
database.pragma('busy_timeout = 0');
// a checkpoint copies pages from the log to the file: it needs no cache of its own
database.pragma('cache_size = 16');

parentPort.on('message', (message) => {
  if (message === 'stop') {
    database.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = database.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ log: result.log, checkpointed: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
