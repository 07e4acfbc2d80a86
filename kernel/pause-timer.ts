/**
 * A callback run once calls pause: each {@link PauseTimer.poke} pushes the run back to `quietMs` after it, but never
 * later than `maxWaitMs` after the first poke it waits for, so a steady stream of pokes still runs it that often. For
 * work that follows a burst of events (catching up a derived table after commits) without competing with the burst.
 * The timer never keeps the process alive.
 */
export class PauseTimer {
  private timer: NodeJS.Timeout | undefined;
  /** When the first poke the waiting run is for came (Date.now()). */
  private waitingSinceMs = 0;
  private stopped = false;

  constructor(
    private readonly run: () => void,
    private readonly quietMs: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Something happened: run after the pause (or at the latest `maxWaitMs` after the first poke). */
  poke(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (this.timer) clearTimeout(this.timer);
    else this.waitingSinceMs = now;
    const delay = Math.max(0, Math.min(this.quietMs, this.waitingSinceMs + this.maxWaitMs - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, delay);
    this.timer.unref();
  }

  /** Drops a waiting run; later pokes do nothing. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
