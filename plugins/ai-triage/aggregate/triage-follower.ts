/**
 * Follows the monitor's stored messages through its query contract with a durable cursor (the `cursor` of the last
 * message folded in, kept in `triage_cursor`) and folds each message once into the triage aggregate: failure clusters
 * per minute and hour, upgrade signatures per minute. A run starts once `message.ingested` events pause (runs never
 * overlap; events during a run start one more) and before every read of the aggregate, so an answer counts every
 * message committed before it was asked. After a restart the follower resumes after its cursor: nothing is missed or
 * counted twice (the batch and the cursor are written in one transaction, the cursor only when no other node of a
 * team on the same store moved it meanwhile).
 */
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import { guardedAfter, PauseTimer } from '../../../kernel/lib/async/pause-timer.ts';
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';
import type { MonitorService } from '../../monitor/api.ts';
import { AggregateBatch, FOLLOWED_FIELDS, type FollowedMessage } from './aggregate-batch.ts';
import { CursorMovedError, type AggregateStore } from './aggregate-store.ts';

/**
 * A run starts once commits paused this long (a burst of files is folded after it, not between its commits, so the
 * follower does not compete with the ingest), and never later than MAX_LAG_MS after the first commit it waits for.
 */
const QUIET_MS = 500;
const MAX_LAG_MS = 5_000;

/** Messages folded in memory before they are written (one transaction each). */
const BATCH_MESSAGES = 5_000;

/** Reads features of a message's text for the upgrade detector; undefined when it has none. */
export type TextFeatures = (message: FollowedMessage, raw: string) => string[] | undefined;

/** The follower. */
export class TriageFollower {
  private running: Promise<void> | null = null;
  /** Starts a run once commits pause. */
  private readonly soon: PauseTimer;
  private stopped = false;

  constructor(
    private readonly monitor: () => MonitorService,
    private readonly store: AggregateStore,
    /** The guard the run after commits goes under (`job:ai-triage:triage-follow` in health while it fails). */
    background: Pick<BackgroundJobs, 'after'>,
    private readonly textFeatures?: TextFeatures,
    /**
     * Runs a run while no other node of a team on the same store runs one: the aggregate is shared, and two nodes
     * folding the same messages would do the work twice, the later one for nothing. By default it runs at once.
     */
    private readonly oneAtATime: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
  ) {
    this.soon = new PauseTimer(() => this.catchUp(), QUIET_MS, MAX_LAG_MS, guardedAfter(background, 'triage-follow'));
  }

  /** Folds in every message committed so far (waits for a run in flight, then runs once more). */
  async catchUp(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
    if (this.stopped) return;
    const run = this.oneAtATime(() => this.run()).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** Runs `work` on the aggregate between runs (none starts until it ends), as pruning and forgetting need. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.running) await this.running.catch(() => undefined);
    const result = work();
    const settled: Promise<void> = result.then(
      () => {
        if (this.running === settled) this.running = null;
      },
      () => {
        if (this.running === settled) this.running = null;
      },
    );
    this.running = settled;
    return result;
  }

  /**
   * Starts a run once commits pause (messages were committed): QUIET_MS after the last one, MAX_LAG_MS after the first
   * at the latest. A read of the aggregate catches up first anyway, so answers never wait for this.
   */
  schedule(): void {
    if (!this.stopped) this.soon.poke();
  }

  /** Waits for the run in flight and starts no other. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.soon.stop();
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<void> {
    // Another node of a team on the same store may fold the same messages: the write that finds the cursor moved
    // writes nothing, and the run starts again after the cursor that node stored.
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await this.fold();
        return;
      } catch (error) {
        if (!(error instanceof CursorMovedError)) throw error;
      }
    }
  }

  private async fold(): Promise<void> {
    let from = await this.store.cursor();
    const include = this.textFeatures ? (['raw'] as const) : [];
    let batch = new AggregateBatch();
    let last: string | null = null;
    // a catch-up of thousands of messages would otherwise hold the event loop from its first page to its last
    const slice = new LoopSlice();
    for await (const message of this.monitor().streamMessages({}, { after: from, fields: FOLLOWED_FIELDS, include: [...include] })) {
      if (slice.spent()) await slice.pass();
      const raw = message.raw;
      batch.add(message, this.textFeatures && typeof raw === 'string' ? this.textFeatures(message, raw) : undefined);
      last = message.cursor;
      if (batch.size >= BATCH_MESSAGES) {
        await this.store.write(batch, from, last);
        from = last;
        batch = new AggregateBatch();
        if (this.stopped) return;
      }
    }
    if (last !== null && batch.size > 0) await this.store.write(batch, from, last);
  }
}
