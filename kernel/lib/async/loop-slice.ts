/**
 * Shares the event loop during long work made of many small synchronous steps (folding stored messages into a
 * derived table, reading a batch of files): the steps of a chain of promises that never wait (SQLite answers at
 * once) would otherwise hold the loop until the whole chain ends, and every base's requests (health above all)
 * would wait behind it.
 *
 * Background work of every kind takes turns: one slice runs per pass of the event loop, whoever's it is, so two
 * followers catching up at once still leave the loop to its sockets every slice, not every two.
 *
 * ```ts
 * const slice = new LoopSlice();
 * for (const item of items) {
 *   work(item);
 *   if (slice.spent()) await slice.pass();
 * }
 * ```
 */
export class LoopSlice {
  private startedAt = performance.now();

  /** `sliceMs`: event-loop time the work takes at most before it lets other work run. */
  constructor(private readonly sliceMs = 5) {}

  /** Whether this slice's time is used up (the caller should {@link LoopSlice.pass} before its next step). */
  spent(): boolean {
    return performance.now() - this.startedAt >= this.sliceMs;
  }

  /** Lets the event loop run what waits (timers, I/O, requests) and other background work, then starts a new slice. */
  async pass(): Promise<void> {
    await nextBackgroundTurn();
    this.startedAt = performance.now();
  }
}

/** Background work waiting for its next slice, first in, first out. */
const waitingForTurn: Array<() => void> = [];
let turnScheduled = false;

/** Resolves in a later pass of the event loop, one waiter per pass. */
function nextBackgroundTurn(): Promise<void> {
  const turn = new Promise<void>((resolve) => waitingForTurn.push(resolve));
  scheduleTurn();
  return turn;
}

function scheduleTurn(): void {
  if (turnScheduled || waitingForTurn.length === 0) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    waitingForTurn.shift()?.();
    // the next waiter goes in the next pass: an immediate set now runs after the loop has been to its sockets
    scheduleTurn();
  });
}
