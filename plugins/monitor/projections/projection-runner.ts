/**
 * Runs the registered projections (projection-contract.ts) over the monitor's committed messages:
 *
 * - Position: one row per projection in `monitor_projections` (projection-positions.ts), moved in the transaction
 *   that writes the fold, and only from the value the catch-up read.
 * - When: a commit schedules a catch-up of every projection once commits pause (QUIET_MS), MAX_LAG_MS after the
 *   first commit it waits for at the latest, so a burst of commits shares one and the fold does not compete with the
 *   ingest; every read that asks for it catches up first, so an answer covers every message committed before it.
 * - How: the messages after the position are streamed through the query contract with the projection's fields, a
 *   batch per transaction, the event loop shared a slice at a time (kernel/lib/async/loop-slice.ts).
 * - Team: catch-ups of one projection run one at a time on this node and, through the cluster's turns, one node of a
 *   team at a time. A node that finds the position moved by another (a paused turn) writes nothing and starts again
 *   after it, so no message is folded twice.
 */
import type { Kysely } from 'kysely';
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import { guardedAfter, PauseTimer } from '../../../kernel/lib/async/pause-timer.ts';
import type { MessageField, MonitorStore, ProjectedRecord, Projection, ProjectionHandle } from '../api.ts';
import { movePosition, PositionMovedError, readPosition } from './projection-positions.ts';

/** A catch-up starts once commits paused this long, and never later than MAX_LAG_MS after the first it waits for. */
const QUIET_MS = 500;
const MAX_LAG_MS = 5_000;

/** Messages per fold (transaction) unless the projection says otherwise. */
const DEFAULT_BATCH_MESSAGES = 1_000;

/** Names a projection may take. */
const NAME = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** What the runner needs of the monitor and the kernel. */
export interface ProjectionRunnerDeps {
  /** The store every projection's tables live in (the fold's transaction is on it). */
  db: Kysely<any>;
  /** The committed messages, streamed after a cursor. */
  store: Pick<MonitorStore, 'streamMessages'>;
  /** The guard of the scheduled catch-up (`job:monitor:projections-catch-up` in health while it fails). */
  background: Pick<BackgroundJobs, 'after'>;
  /** Runs work while no other node of the team runs work of the same name (by default at once). */
  oneAtATime?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

/** One registered projection and the queue of its catch-ups. */
interface Entry {
  projection: Projection;
  /** The last catch-up or exclusive work queued (they run one after another). */
  tail: Promise<void>;
  /** A catch-up queued and not started: a caller arriving now is covered by it. */
  queued: Promise<void> | undefined;
}

/** The runner of every projection. */
export class ProjectionRunner {
  private readonly entries = new Map<string, Entry>();
  private readonly soon: PauseTimer;
  private stopped = false;
  private readonly oneAtATime: <T>(name: string, work: () => Promise<T>) => Promise<T>;

  constructor(private readonly deps: ProjectionRunnerDeps) {
    this.oneAtATime = deps.oneAtATime ?? ((_name, work) => work());
    this.soon = new PauseTimer(() => this.catchUpAll(), QUIET_MS, MAX_LAG_MS, guardedAfter(deps.background, 'projections-catch-up'));
  }

  /** Registers a projection; a second one of the same name, or a name not of {@link NAME}, throws. */
  register<F extends MessageField>(projection: Projection<F>): ProjectionHandle {
    if (!NAME.test(projection.name)) throw new Error(`projection name "${projection.name}" is not 1..60 of a-z, 0-9 and -`);
    if (this.entries.has(projection.name)) throw new Error(`a projection named "${projection.name}" is registered already`);
    this.entries.set(projection.name, { projection: projection as unknown as Projection, tail: Promise.resolve(), queued: undefined });
    const name = projection.name;
    return { catchUp: () => this.catchUp(name), exclusive: (work) => this.exclusive(name, work) };
  }

  /** Schedules a catch-up of every projection after a commit (see the file comment). */
  schedule(): void {
    if (!this.stopped && this.entries.size > 0) this.soon.poke();
  }

  /** Catches every projection up, one after another. */
  async catchUpAll(): Promise<void> {
    for (const name of this.entries.keys()) await this.catchUp(name);
  }

  /** Resolves once every message committed before the call is folded into the projection `name`. */
  catchUp(name: string): Promise<void> {
    const entry = this.entryOf(name);
    if (entry.queued) return entry.queued;
    const run = entry.tail.then(() => {
      entry.queued = undefined;
      return this.oneAtATime(`projection:${name}`, () => this.follow(entry.projection));
    });
    entry.queued = run;
    // a failed catch-up fails its callers; the next one starts again from the stored position
    entry.tail = run.catch(() => undefined);
    return run;
  }

  /** Runs `work` between two catch-ups of the projection `name`. */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    const entry = this.entryOf(name);
    const run = entry.tail.then(work);
    entry.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Stops scheduling and waits for the catch-ups under way (each stops at its next batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.soon.stop();
    await Promise.all([...this.entries.values()].map((entry) => entry.tail));
  }

  private entryOf(name: string): Entry {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new Error(`no projection named "${name}" is registered`);
    return entry;
  }

  /**
   * Folds what is new. A batch that finds its position moved (another node folded it) is dropped and the catch-up
   * starts again after the stored position: each time another node moved it forward, so the catch-ups of a team
   * together read every message once more at most, and end when the stream does.
   */
  private async follow(projection: Projection): Promise<void> {
    for (;;) {
      try {
        await this.foldNew(projection);
        return;
      } catch (error) {
        if (!(error instanceof PositionMovedError)) throw error;
      }
    }
  }

  /**
   * The stored position (undefined: no row yet), after adopting the projection's own former one when it has none
   * here yet: the adopted position (null for none) is stored at once, so `adopt` runs once.
   */
  private async position(projection: Projection): Promise<string | null | undefined> {
    const stored = await readPosition(this.deps.db, projection.name);
    if (stored !== undefined || projection.adopt === undefined) return stored;
    const adopt = projection.adopt.bind(projection);
    return this.deps.db.transaction().execute(async (trx) => {
      const again = await readPosition(trx, projection.name);
      if (again !== undefined) return again;
      const former = await adopt(trx);
      await movePosition(trx, projection.name, undefined, former);
      return former;
    });
  }

  private async foldNew(projection: Projection): Promise<void> {
    if (this.stopped) return;
    let from = await this.position(projection);
    const size = projection.batchMessages ?? DEFAULT_BATCH_MESSAGES;
    const options = { after: from ?? null, fields: projection.fields, include: [...(projection.include ?? [])] };
    let batch: ProjectedRecord[] = [];
    // a catch-up of many messages shares the event loop with requests, a slice at a time
    const slice = new LoopSlice();
    for await (const record of this.deps.store.streamMessages({}, options)) {
      if (slice.spent()) await slice.pass();
      batch.push(record);
      if (batch.length >= size) {
        from = await this.write(projection, batch, from);
        batch = [];
        if (this.stopped) return;
      }
    }
    if (batch.length > 0) await this.write(projection, batch, from);
  }

  /** Folds a batch and moves the position past it, in one transaction; answers the new position. */
  private async write(projection: Projection, batch: ProjectedRecord[], from: string | null | undefined): Promise<string> {
    const to = batch[batch.length - 1]!.cursor;
    await this.deps.db.transaction().execute(async (trx) => {
      await movePosition(trx, projection.name, from, to);
      await projection.fold(batch, trx);
    });
    return to;
  }
}
