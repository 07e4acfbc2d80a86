/**
 * The ingest queue: settled files wait here (one entry per path, the latest stat wins) and one consumer reads,
 * judges against the ledger, validates and commits them in batches. One consumer keeps the ledger's judgement and
 * its write in order, so two reads of one path can never both count.
 *
 * The flow is one way: watcher -> queue -> reader -> one commit -> after-commit listeners, in the order they were
 * added (alert rules, `message.ingested`, traffic evaluation). The watch manager tells the queue which interfaces are
 * watched ({@link IngestQueue.watching}); the queue never calls back into it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';
import type { Clock } from '../../../kernel/clock.ts';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import type { MonitoredInterface } from '../api.ts';
import type { CommitStore } from './commit-statements.ts';
import { currentRows, ledgerKey, judgeByContent, judgeByStat, PARTIAL_STATE, renamedFrom, sha256, sha256InSlices, type CommittedFile } from './ledger.ts';
import { commitBatch } from './batch-commit.ts';
import type { ReadFile } from './read-file.ts';
import { isPooledReading, readContent, type ContentReaders, type ContentReading, type PooledReading } from './message-reading.ts';
import type { ReceivedFile } from '../../../kernel/lib/input/received-files.ts';
import { settledContent } from './settled-content.ts';
import { OpenTails } from './open-tails.ts';
import type { FileRow, MonitorDatabase } from '../monitor-tables.ts';
import type { LatencyLimits } from './rollup-writer.ts';
import type { SettledFile } from './folder-watcher.ts';

/** A settled file of an interface, with the instant it was seen settled. */
export interface IngestJob extends SettledFile {
  interfaceId: string;
  settledAtMs: number;
  /** Commits of this file that failed so far (the database refused the whole batch); absent on the first try. */
  failedAttempts?: number;
}

/** Pause (ms) before a batch of a burst, for files settling meanwhile to join it. */
const GATHER_MS = 20;

/** Most bytes of content read into one batch (a larger single file is a batch of its own). */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** A batch starting within this many ms of the end of the previous one belongs to a burst. */
const BURST_MS = 250;

/** Longest wait before a file whose batch could not be committed is tried again. */
const MAX_RETRY_DELAY_MS = 60_000;

/**
 * New files of an interface in a batch from which they are read in a worker thread (when the service has a worker
 * pool): fewer are read here, where a thread hop would cost more than it frees.
 */
const POOLED_READ_MIN_FILES = 16;

/**
 * A batch taken from the queue: its files' ledger rows, and the readings of its small new files under way in a
 * worker thread, keyed by {@link ledgerKey} (empty when they are read here). While one batch commits, the next one
 * is prepared, so its files are read meanwhile.
 */
interface PreparedBatch {
  jobs: IngestJob[];
  /** The ledger rows, or why they could not be read (the batch then fails as a whole and is tried again). */
  rows: Map<string, FileRow> | { failed: unknown };
  pooled: Promise<Map<string, ReceivedFile>>;
}

/** What the queue needs. */
export interface IngestQueueDeps {
  db: Kysely<MonitorDatabase>;
  /** Where commits write (the same database, with its SQLite handle when there is one). */
  commitStore: CommitStore;
  clock: Clock;
  logger: Logger;
  /** Splits and validates HL7 content (a large message through the kernel's runner, in the worker pool). */
  readers: ContentReaders;
  maxFileBytes: number;
  batchFiles: number;
  /** The settle time: a file found changed when read is looked at again this much later. */
  settleMs: number;
  /**
   * How long (ms) a file whose last message is still open and failed is held back for its writer to finish it
   * (open-tails.ts); 0 judges it at once.
   */
  openTailGraceMs?: number;
  keepRaw: boolean;
  /** Bounds of usable latency (stale and clock-skew latencies are counted apart in the roll-ups). */
  latencyLimits?: LatencyLimits;
  /** Told why a batch could not be committed (a full disk opens the service's `storage-full` condition). */
  onCommitFailed?: (error: unknown) => void;
  /** The guard the queue's timers run under (a file tried again later, a held file's end of grace). */
  background: Pick<BackgroundJobs, 'after'>;
}

/** A committed file with the interface it was read for. */
export interface CommittedIngest extends CommittedFile {
  monitored: MonitoredInterface;
}

/** Called after each commit with what it stored, in the order listeners were added. */
export type AfterCommitListener = (files: CommittedIngest[]) => Promise<void> | void;

/** Settled files waiting to be read, and the loop that reads them. */
export class IngestQueue {
  private readonly waiting = new Map<string, IngestJob>();
  /** Paths of the batches taken and not finished yet: a newer job of one waits until its batch committed. */
  private readonly taken = new Set<string>();
  /** Interfaces being watched, with their settings: a job of any other is dropped. */
  private readonly watched = new Map<string, MonitoredInterface>();
  private readonly listeners: AfterCommitListener[] = [];
  /** Files whose last message waits for its writer to finish it. */
  private readonly openTails: OpenTails;
  private running: Promise<void> | undefined;
  /** When the last batch ended (performance.now()), to tell a burst from a lone file. */
  private lastBatchEndedMs = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private runEndedMs: number | null = null;

  constructor(private readonly deps: IngestQueueDeps) {
    this.openTails = new OpenTails(deps.openTailGraceMs ?? 0, deps.background);
  }

  /** Queues a settled file (replacing an older entry of the same path) and starts the loop if idle. */
  enqueue(job: IngestJob): void {
    if (this.stopped) return;
    const key = ledgerKey(job.interfaceId, job.relativePath);
    this.waiting.delete(key);
    this.waiting.set(key, job);
    this.kick();
  }

  /** Adds an after-commit listener (alert rules, events, evaluations), run after the ones added before it. */
  afterCommit(listener: AfterCommitListener): void {
    this.listeners.push(listener);
  }

  /** An interface is watched with these settings: its jobs are read with them. */
  watching(monitored: MonitoredInterface): void {
    this.watched.set(monitored.id, monitored);
  }

  /** An interface stopped being watched (disabled, unreachable, changed, removed): its waiting jobs are dropped. */
  notWatching(interfaceId: string): void {
    this.watched.delete(interfaceId);
    for (const [key, job] of this.waiting) if (job.interfaceId === interfaceId) this.waiting.delete(key);
    this.openTails.dropInterface(interfaceId);
  }

  /**
   * Whether a file of an interface waits in the queue, is in a batch being read or committed, or is held for its
   * writer to finish its last message.
   */
  has(interfaceId: string, relativePath: string): boolean {
    const key = ledgerKey(interfaceId, relativePath);
    return this.waiting.has(key) || this.taken.has(key) || this.openTails.has(key);
  }

  /** Files held for their writers to finish their last messages (open-tails.ts). */
  get held(): number {
    return this.openTails.size;
  }

  /** Whether a batch is being read or committed now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** When the loop last ended, by the kernel clock (null: it has not run yet). */
  get lastRunEndedMs(): number | null {
    return this.runEndedMs;
  }

  /** Starts the loop unless it runs; when it ends with files waiting (queued as it finished), it starts again. */
  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      this.runEndedMs = this.deps.clock.nowMs();
      if (this.waiting.size > 0) this.kick();
    });
  }

  /** Queues a file again after `delayMs` (the settle time by default), with the instant it is then seen. */
  private retryLater(job: IngestJob, delayMs = this.deps.settleMs): void {
    this.deps.background.after('retry-file', delayMs, () => this.enqueue({ ...job, settledAtMs: this.deps.clock.nowMs() }));
  }

  /** Files waiting. */
  get size(): number {
    return this.waiting.size;
  }

  /** Resolves once nothing waits and nothing is being committed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops taking jobs; the batch being committed finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    this.openTails.clear();
    await this.idle();
  }

  private async loop(): Promise<void> {
    let ahead: PreparedBatch | undefined;
    while ((this.waiting.size > 0 || ahead) && !this.stopped) {
      let batch = ahead;
      ahead = undefined;
      if (!batch) {
        // A file after a quiet spell goes at once (a lone file is counted without delay). During a burst (a batch
        // ended moments ago) the loop lets files settle for a moment before taking the next batch: reading and
        // committing hold the event loop, so without the pause each batch would hold the one or two files that
        // settled meanwhile, and every file would pay a commit of its own.
        const inBurst = performance.now() - this.lastBatchEndedMs < BURST_MS;
        if (inBurst && !this.batchFull()) await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
        if (this.stopped) break;
        batch = this.prepare(this.takeBatch());
        if (batch.jobs.length === 0) break;
      }
      // with a full batch already waiting (a backlog), it is taken now: its files are read in a worker thread while
      // this batch commits (paths of this batch stay out of it, so no file is judged against a ledger about to change)
      if (this.batchFull()) ahead = this.prepare(this.takeBatch());
      try {
        await this.process(batch);
      } catch (error) {
        // nothing of the batch counted (the transaction rolled back, or the ledger could not be read): every file is
        // tried again, later each time, since no file-system event may ever come for it again
        const failedAttempts = Math.max(...batch.jobs.map((job) => job.failedAttempts ?? 0)) + 1;
        const delayMs = Math.min(MAX_RETRY_DELAY_MS, Math.max(this.deps.settleMs, 250) * 2 ** Math.min(failedAttempts - 1, 16));
        this.deps.logger.error({ err: error, files: batch.jobs.length, retryInMs: delayMs }, 'monitor could not commit a batch of files; it is tried again');
        this.deps.onCommitFailed?.(error);
        for (const job of batch.jobs) this.retryLater({ ...job, failedAttempts }, delayMs);
      } finally {
        for (const job of batch.jobs) this.taken.delete(ledgerKey(job.interfaceId, job.relativePath));
      }
      this.lastBatchEndedMs = performance.now();
    }
    // stopped with a batch prepared: its files are let go, as the waiting ones are
    if (ahead) for (const job of ahead.jobs) this.taken.delete(ledgerKey(job.interfaceId, job.relativePath));
  }

  /** Whether the files waiting fill a batch already (by count or by size). */
  private batchFull(): boolean {
    let files = 0;
    let bytes = 0;
    for (const [key, job] of this.waiting) {
      if (this.taken.has(key)) continue;
      files++;
      bytes += job.size;
      if (files >= this.deps.batchFiles || bytes >= MAX_BATCH_BYTES) return true;
    }
    return false;
  }

  /**
   * Takes the next batch out of the waiting files: at most `batchFiles` files and, beyond its first file, at most
   * MAX_BATCH_BYTES of content, so the messages held in memory until the commit stay bounded whatever the files hold.
   * A path of a batch not finished yet stays waiting.
   */
  private takeBatch(): IngestJob[] {
    const batch: IngestJob[] = [];
    let bytes = 0;
    for (const [key, job] of this.waiting) {
      if (this.taken.has(key)) continue;
      if (batch.length > 0 && bytes + job.size > MAX_BATCH_BYTES) break;
      batch.push(job);
      this.waiting.delete(key);
      this.taken.add(key);
      bytes += job.size;
      if (batch.length >= this.deps.batchFiles) break;
    }
    return batch;
  }

  /**
   * Reads the batch's ledger rows and starts reading its small new files in a worker thread (those of an interface
   * with at least POOLED_READ_MIN_FILES of them, when there is a pool). Never rejects: a failure is kept in the batch.
   */
  private prepare(jobs: IngestJob[]): PreparedBatch {
    const rowsRead = currentRows(this.deps.db, jobs);
    const batch: PreparedBatch = { jobs, rows: new Map(), pooled: Promise.resolve(new Map()) };
    batch.pooled = rowsRead.then(
      (rows) => {
        batch.rows = rows;
        return this.readInWorker(jobs, rows);
      },
      (error: unknown) => {
        batch.rows = { failed: error };
        return new Map<string, ReceivedFile>();
      },
    );
    return batch;
  }

  /**
   * The worker thread's readings of the batch's new files that are small (read here otherwise, and in the pool
   * each when large), by interface; a group whose reading failed (pool busy, stopping) is read here instead.
   */
  private async readInWorker(jobs: IngestJob[], rows: ReadonlyMap<string, FileRow>): Promise<Map<string, ReceivedFile>> {
    const read = new Map<string, ReceivedFile>();
    const readFiles = this.deps.readers.readFiles;
    if (!readFiles) return read;
    const byInterface = new Map<string, IngestJob[]>();
    for (const job of jobs) {
      const key = ledgerKey(job.interfaceId, job.relativePath);
      if (rows.has(key) || job.size > this.deps.maxFileBytes || !this.deps.readers.validateHere(job.size)) continue;
      const group = byInterface.get(job.interfaceId);
      if (group) group.push(job);
      else byInterface.set(job.interfaceId, [job]);
    }
    for (const [interfaceId, group] of byInterface) {
      const monitored = this.watched.get(interfaceId);
      if (!monitored || group.length < POOLED_READ_MIN_FILES) continue;
      const options = { standard: monitored.standard, read: { mode: monitored.validationMode, profile: monitored.profileName ?? undefined, firstIndex: 0 } };
      try {
        const files = await readFiles(group.map((job) => ({ path: job.absolutePath, expectedSize: job.size })), options);
        files?.forEach((file, index) => read.set(ledgerKey(interfaceId, group[index].relativePath), file));
      } catch (error) {
        this.deps.logger.debug({ err: error, files: group.length }, 'monitor files not read in a worker thread; read on the event loop');
      }
    }
    return read;
  }

  private async process(batch: PreparedBatch): Promise<void> {
    const files: ReadFile[] = [];
    const monitoredOf = new Map<string, MonitoredInterface>();
    const pooled = await batch.pooled;
    const { rows } = batch;
    if (!(rows instanceof Map)) throw rows.failed;
    const slice = new LoopSlice();
    for (const job of batch.jobs) {
      const monitored = this.watched.get(job.interfaceId);
      if (!monitored) continue;
      monitoredOf.set(job.interfaceId, monitored);
      const key = ledgerKey(job.interfaceId, job.relativePath);
      const file = await this.read(job, monitored, rows.get(key), pooled.get(key));
      if (file) files.push(file);
      // Reading and judging files is synchronous work chained by promises that never wait (SQLite answers at once):
      // a whole batch took 0.3 to 1 s of the event loop. Hand it back every few milliseconds, so every base's
      // requests (health above all) are answered between files, and it takes turns with other background work.
      if (slice.spent()) await slice.pass();
    }
    if (files.length === 0 || this.stopped) return;
    await this.recogniseRenames(files, monitoredOf);
    await commitBatch(this.deps, files, async (committed) => {
      const withInterface: CommittedIngest[] = [];
      for (const entry of committed) {
        const monitored = monitoredOf.get(entry.file.interfaceId);
        if (monitored) withInterface.push({ ...entry, monitored });
      }
      for (const listener of this.listeners) {
        try {
          await listener(withInterface);
        } catch (error) {
          // the batch is stored; a listener's failure must not make it count again
          this.deps.logger.error({ err: error }, 'an after-commit listener of the monitor failed');
        }
      }
    });
  }

  /**
   * A file new at its path whose content is that of a counted file of the interface whose path is gone was renamed
   * (live, or while nothing watched): the same delivery, so it moves that file's ledger row and counts nothing more,
   * unless that row is `partial` (committed in slices, not all stored when the service stopped): then the messages
   * after its stored count go with the move, as they would have at the old path. One look-up per interface for the
   * batch.
   */
  private async recogniseRenames(files: ReadFile[], monitoredOf: ReadonlyMap<string, MonitoredInterface>): Promise<void> {
    const fresh = files.filter((file) => file.verdict.kind === 'new' && file.size > 0);
    if (fresh.length === 0) return;
    const rootOf = (interfaceId: string) => monitoredOf.get(interfaceId)?.directoryPath ?? '';
    const before = await renamedFrom(this.deps.db, fresh, (interfaceId, path) => existsSync(join(rootOf(interfaceId), path)));
    if (before.size === 0) return;
    files.forEach((file, index) => {
      const row = file.verdict.kind === 'new' ? before.get(ledgerKey(file.interfaceId, file.path)) : undefined;
      if (!row) return;
      if (row.state === PARTIAL_STATE) {
        // the same content as when its slices began: what was read past the stored count is what is left to commit
        const stored = Number(row.message_count);
        files[index] = { ...file, verdict: { kind: 'renamed', row }, messages: file.messages.filter((m) => m.indexInFile >= stored) };
        return;
      }
      // it keeps the state it was counted with (an unparsable file renamed is still that file)
      const state = row.state === 'unparsable' || row.state === 'empty' ? row.state : 'ingested';
      files[index] = { ...file, verdict: { kind: 'renamed', row }, state, error: row.error, messages: [] };
    });
  }

  /**
   * Reads and judges one file; undefined when there is nothing to count (already counted, vanished, moving). The
   * read is synchronous on purpose: settled message files are small, and a synchronous read does not queue behind
   * the thousands of stat calls a watcher issues when a folder fills up. A file of a megabyte or more (a batch file)
   * is read in steps in the thread pool instead, so its copy never holds the event loop.
   */
  private async read(job: IngestJob, monitored: MonitoredInterface, row: FileRow | undefined, inWorker?: ReceivedFile): Promise<ReadFile | undefined> {
    const byStat = judgeByStat(row, job.size, job.mtimeMs);
    if (byStat?.kind === 'unchanged') return undefined;
    const receivedAt = new Date(job.settledAtMs).toISOString();
    const base = { interfaceId: job.interfaceId, path: job.relativePath, receivedAt };
    if (job.size > this.deps.maxFileBytes) {
      const problem = `The file is ${job.size} bytes, over the limit of ${this.deps.maxFileBytes} (maxFileBytes); it was not read.`;
      const reading = await readContent(Buffer.alloc(0), { readers: this.deps.readers, monitored, receivedAtMs: job.settledAtMs, skip: 0 });
      reading.messages[0].errors[0].message = problem;
      return {
        ...base,
        size: job.size,
        mtimeMs: job.mtimeMs,
        hash: sha256(Buffer.from(`oversized:${job.size}:${job.mtimeMs}`)),
        verdict: row ? { kind: 'rewritten', row } : { kind: 'new' },
        state: 'unparsable',
        error: problem,
        messages: reading.messages,
      };
    }
    const got = await settledContent(job, inWorker);
    if ('code' in got) {
      this.openTails.release(ledgerKey(job.interfaceId, job.relativePath));
      if (got.code !== 'ENOENT') this.deps.logger.warn({ file: job.relativePath, code: got.code }, 'monitor could not read a file');
      return undefined;
    }
    const { content, after } = got;
    if (after.size !== content.length || after.mtimeMs !== job.mtimeMs) {
      // written to since it settled: look again after the settle time with what it is now
      this.retryLater({ ...job, size: after.size, mtimeMs: after.mtimeMs });
      return undefined;
    }
    const key = ledgerKey(job.interfaceId, job.relativePath);
    const pooled = isPooledReading(inWorker) ? inWorker : undefined;
    const judged = await this.judge(job, monitored, row, byStat === undefined, content, pooled);
    if (judged.reading?.openFrom === undefined) {
      this.openTails.release(key);
      return judged.file;
    }
    // the last message is open and failed: its writer may not have finished it
    // the grace period is the writer's time, as the settle time is: measured by the machine's clock, not the kernel's
    const tail = this.openTails.observe(key, job.interfaceId, `${content.length}:${job.mtimeMs}`, performance.now());
    if (tail.due) {
      this.openTails.release(key);
      return judged.file;
    }
    this.openTails.lookAgainIn(key, tail.remainingMs, () => this.enqueue({ ...job, settledAtMs: this.deps.clock.nowMs() }));
    // count the whole messages before it; the ledger records the file up to where it starts
    const { verdict } = judged.file;
    // a row committed in part counts fewer messages than its bytes hold: its count decides what is left
    const counted = verdict.kind === 'appended' && verdict.row.state !== PARTIAL_STATE ? Number(verdict.row.size) : 0;
    if (judged.reading.openFrom <= counted) return undefined;
    const whole = await this.judge(job, monitored, row, byStat === undefined, content.subarray(0, judged.reading.openFrom));
    // a prefix of batch headers alone holds no message yet: nothing to count before the open one
    return whole.file.verdict.kind === 'touched' || whole.reading?.unparsable ? undefined : whole.file;
  }

  /**
   * Judges content against the file's ledger row (`compare`: the stat did not settle it) and reads the messages it
   * adds; `reading` is absent when nothing needed reading (touched, empty). `pooled` is the whole content's reading
   * done in a worker thread, with its hash.
   */
  private async judge(
    job: IngestJob,
    monitored: MonitoredInterface,
    row: FileRow | undefined,
    compare: boolean,
    content: Buffer,
    pooled?: PooledReading,
  ): Promise<{ file: ReadFile; reading?: ContentReading }> {
    const receivedAt = new Date(job.settledAtMs).toISOString();
    const hash = pooled?.sha256 ?? (await sha256InSlices(content));
    const verdict = row && compare ? await judgeByContent(row, content, hash) : { kind: 'new' as const };
    const file = { interfaceId: job.interfaceId, path: job.relativePath, receivedAt, size: content.length, mtimeMs: job.mtimeMs, hash, verdict };
    if (verdict.kind === 'touched') return { file: { ...file, state: 'ingested', error: null, messages: [] } };
    if (content.length === 0) return { file: { ...file, state: 'empty', error: null, messages: [] } };
    const skip = verdict.kind === 'appended' ? Number(verdict.row.message_count) : 0;
    const reading = await readContent(content, { readers: this.deps.readers, monitored, receivedAtMs: job.settledAtMs, skip, pooled: skip === 0 ? pooled : undefined });
    return {
      file: { ...file, state: reading.unparsable ? 'unparsable' : 'ingested', error: reading.problem ?? null, messages: reading.messages },
      reading,
    };
  }
}
