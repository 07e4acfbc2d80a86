/**
 * Checkpoints of the embedded SQLite store off the event loop. In WAL mode SQLite copies the log back into the
 * database file when it passes `wal_autocheckpoint` pages, inside the commit that passed it: one commit in a few
 * thousand then held the event loop 150 to 250 ms (copying and syncing 64 MB). The store turns automatic checkpoints
 * off and this runs them in a worker thread on a connection of its own, every `intervalMs`; a passive checkpoint
 * never blocks the writer or readers, and the next commit after a complete one starts the log again from its head.
 */
import { Worker } from 'node:worker_threads';

/** What the checkpoint thread answers after each checkpoint. */
interface CheckpointAnswer {
  /** Pages in the log, and how many of them are now in the database file. */
  log?: number;
  checkpointed?: number;
  error?: string;
}

/** The checkpoint thread of one database file. */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private inFlight = false;
  private stopped = false;
  private exited = false;
  private lastAnswer: CheckpointAnswer | undefined;

  /**
   * Starts the thread on `file` (which must exist, in WAL mode); `onError` hears a checkpoint that failed (the next
   * one is tried at the next interval).
   */
  constructor(file: string, intervalMs: number, onError: (message: string) => void) {
    this.worker = new Worker(new URL('./sqlite-checkpoint-worker.mjs', import.meta.url), {
      workerData: { file },
      // it runs one statement now and then: a small heap keeps its memory small
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 24 },
    });
    this.worker.unref();
    this.worker.on('message', (answer: CheckpointAnswer) => {
      this.inFlight = false;
      this.lastAnswer = answer;
      if (answer.error && !this.stopped) onError(answer.error);
    });
    this.worker.on('error', (error) => {
      if (!this.stopped) onError(error.message);
    });
    this.worker.once('exit', () => (this.exited = true));
    this.timer = setInterval(() => this.request(), intervalMs);
    this.timer.unref();
  }

  /** Asks for a checkpoint now, unless one is under way. */
  request(): void {
    if (this.inFlight || this.stopped) return;
    this.inFlight = true;
    this.worker.postMessage('checkpoint');
  }

  /** The last checkpoint's answer: pages in the log and pages copied (undefined before the first). */
  get last(): Readonly<CheckpointAnswer> | undefined {
    return this.lastAnswer;
  }

  /** Ends the thread and closes its connection; resolves once it has ended. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.exited) return;
    const ended = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    // the thread is unreferenced while it serves: waiting for its end must keep the process alive
    this.worker.ref();
    this.worker.postMessage('stop');
    await ended;
  }
}
