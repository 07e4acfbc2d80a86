/**
 * Shares the event loop during long work made of many small synchronous steps (folding stored messages, reading a
 * batch of files): the steps of a chain of promises that never wait (SQLite answers at once) would otherwise hold
 * the loop until the whole chain ends, and every base's requests (health above all) would wait behind it.
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
  constructor(private readonly sliceMs = 10) {}

  /** Whether this slice's time is used up (the caller should {@link LoopSlice.pass} before its next step). */
  spent(): boolean {
    return performance.now() - this.startedAt >= this.sliceMs;
  }

  /** Lets the event loop run what waits (timers, I/O, requests), then starts a new slice. */
  async pass(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.startedAt = performance.now();
  }
}
