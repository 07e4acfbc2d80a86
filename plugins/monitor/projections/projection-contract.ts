/**
 * The monitor's extension point for derived tables: a projection names itself, the facts it reads of every committed
 * message, and how it folds a batch of them into tables of its own. The monitor runs every projection the same way
 * (projection-runner.ts): one position per projection in one table, one pause-and-lag policy after commits, catch-ups
 * that share the event loop a slice at a time, one node of a team at a time per projection, and a catch-up before
 * each read that asks for it. Tracing's feed and AI triage's aggregate are projections.
 */
import type { Kysely } from 'kysely';

/**
 * A derived table kept from the monitor's committed messages (see the file comment), over the message shapes of the
 * monitor's contract: `Field` a fact's name, `Message` a message read with the facts named, `Include` an extra part.
 * Plugins use it as `Projection<F>` from api.ts.
 */
export interface ProjectionOf<F extends string, Message, Include extends string> {
  /** Unique name, 1..60 of `a-z`, `0-9` and `-` (its position is kept under it). */
  readonly name: string;
  /** The facts `fold` reads of each message (`id` and `cursor` always come). */
  readonly fields: readonly F[];
  /** Extra parts to read (`raw`), if any. */
  readonly include?: readonly Include[];
  /** Most messages given to one `fold` (one transaction); 1,000 by default. */
  readonly batchMessages?: number;
  /**
   * Folds messages, in the stable order, into the projection's tables through `db`: the transaction that also moves
   * the projection's position past them, so each message is folded exactly once (a batch that fails, or that another
   * node of a team folded meanwhile, is written not at all).
   */
  fold(messages: readonly Message[], db: Kysely<any>): Promise<void>;
  /**
   * For a projection that kept its own position before it was one: called once, in the transaction that creates its
   * position here, to answer the cursor of the last message it had folded (null: none). It may drop its old record
   * of it in the same transaction. Without it a new projection starts from the first stored message.
   */
  adopt?(db: Kysely<any>): Promise<string | null>;
}

/** What registering a projection gives its owner. */
export interface ProjectionHandle {
  /** Resolves once every message committed before the call is folded in (a catch-up queued and not started serves it). */
  catchUp(): Promise<void>;
  /**
   * Runs `work` on the projection's tables between two catch-ups (none starts until it ends): pruning, or dropping a
   * deleted interface's rows.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}
