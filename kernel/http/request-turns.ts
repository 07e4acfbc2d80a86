/**
 * Turns of the event loop for requests. Under load, every socket that has a request ready is served in the same
 * pass of the event loop, each handler running until its first real wait; with a hundred dashboard clients that pass
 * lasts tens to hundreds of milliseconds, and a health probe that arrives meanwhile waits for all of it.
 *
 * Requests take turns instead: within one slice of `sliceMs`, requests start at once; past it, they queue, and the
 * queue is let through a slice at a time from the event loop's check phase, so the loop goes back to its sockets and
 * timers between slices. Routes declared `urgent` (health and readiness) never queue. Work is not dropped or
 * reordered: queued requests start first in, first out, and every request still starts (waiting costs no memory
 * beyond its socket's, whose body was already read and bounded).
 */

/** Admission of requests to the event loop, slice by slice. */
export class RequestTurns {
  private readonly waiting: Array<() => void> = [];
  /** When the current slice began (performance.now()). */
  private sliceStartedAt = Number.NEGATIVE_INFINITY;
  /** The event loop has passed its check phase since the slice began: a new slice may start. */
  private turned = true;
  private drainScheduled = false;

  /** `sliceMs`: time requests may start in one pass of the event loop before the rest wait for the next. */
  constructor(private readonly sliceMs = 5) {}

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Undefined when the request may start now; otherwise a promise resolved when its turn comes. Callers await it
   * only when given one, so a request on an idle service pays no promise.
   */
  take(): Promise<void> | undefined {
    if (this.waiting.length === 0) {
      const now = performance.now();
      if (now - this.sliceStartedAt < this.sliceMs) return undefined;
      if (this.turned) {
        this.startSlice(now);
        return undefined;
      }
    }
    const turn = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.scheduleDrain();
    return turn;
  }

  private startSlice(now: number): void {
    this.sliceStartedAt = now;
    this.turned = false;
    setImmediate(() => (this.turned = true));
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => this.drain());
  }

  /**
   * Lets waiting requests start until the slice is spent. Each is let go in a microtask after the previous one's
   * first steps ran (its continuation was queued before this step), so the slice measures their work.
   */
  private drain(): void {
    this.drainScheduled = false;
    this.startSlice(performance.now());
    const step = (): void => {
      if (this.waiting.length === 0) return;
      if (performance.now() - this.sliceStartedAt >= this.sliceMs) {
        this.scheduleDrain();
        return;
      }
      this.waiting.shift()?.();
      queueMicrotask(step);
    };
    step();
  }
}
