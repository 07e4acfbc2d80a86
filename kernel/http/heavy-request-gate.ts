/**
 * Admission of heavy requests (routes declaring `heavy: true` whose body is over the in-process size): at most one
 * per pool worker is served at a time, a bounded number wait, and the rest get 503 SERVER_BUSY with Retry-After at
 * once. The gate is passed before the body is read, so a waiting request holds no more than its socket buffers: the
 * number of large bodies in memory at any moment is bounded by `concurrency + maxQueued`.
 */
import { kernelErrors } from '../errors.ts';
import { BUSY_RETRY_AFTER_SECONDS } from '../workers/work-pool.ts';

/** Gives up a slot; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
}

/** Bounded concurrency with a bounded queue. */
export class HeavyRequestGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  /**
   * @param concurrency requests served at once
   * @param maxQueued requests that may wait for a slot
   * @param thresholdBytes bodies smaller than this (by Content-Length) pass without a slot
   */
  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
    readonly thresholdBytes: number,
  ) {}

  /** Requests holding a slot, and requests waiting for one. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** True when a request declaring this Content-Length (undefined: unknown, e.g. chunked) needs a slot. */
  needsSlot(contentLength: number | undefined): boolean {
    return contentLength === undefined || contentLength >= this.thresholdBytes;
  }

  /**
   * Resolves with the release function once a slot is free; rejects with 503 SERVER_BUSY when the queue is full.
   * `abandoned` ends the wait of a caller that went away (its promise then never resolves).
   */
  acquire(abandoned: (onAbandon: () => void) => void): Promise<ReleaseSlot> {
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        kernelErrors.create('SERVER_BUSY', { retryAfter: BUSY_RETRY_AFTER_SECONDS }, undefined, {
          'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
        }),
      );
    }
    return new Promise<ReleaseSlot>((resolve) => {
      const waiter: Waiter = { grant: resolve };
      this.waiting.push(waiter);
      abandoned(() => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) this.waiting.splice(index, 1);
      });
    });
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` only drops when nobody waits.
      if (next) next.grant(this.releaser());
      else this.active--;
    };
  }
}
