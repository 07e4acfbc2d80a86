/**
 * A callback run once calls pause: each {@link PauseTimer.poke} pushes the run back to `quietMs` after it, but never
 * later than `maxWaitMs` after the first poke it waits for, so a steady stream of pokes still runs it that often. For
 * work that follows a burst of events (catching up a derived table after commits) without competing with the burst.
 * The timer never keeps the process alive, and the run goes under the background guard (`after`: a guarded timer,
 * background-guard.ts), so a run that fails is logged and reported, never thrown into the process.
 */
import type { BackgroundJobs } from '../../background/background-guard.ts';

/** Starts a guarded timer (a {@link BackgroundJobs.after} with the job's name bound). */
export type GuardedAfter = (delayMs: number, job: () => unknown) => NodeJS.Timeout;

/** The guarded timer of a named job of `background`. */
export function guardedAfter(background: Pick<BackgroundJobs, 'after'>, name: string): GuardedAfter {
  return (delayMs, job) => background.after(name, delayMs, job);
}

/** A run after a pause in the pokes. */
export class PauseTimer {
  private timer: NodeJS.Timeout | undefined;
  /** When the first poke the waiting run is for came (Date.now()). */
  private waitingSinceMs = 0;
  private stopped = false;

  constructor(
    private readonly run: () => unknown,
    private readonly quietMs: number,
    private readonly maxWaitMs: number,
    private readonly after: GuardedAfter,
  ) {}

  /** Something happened: run after the pause (or at the latest `maxWaitMs` after the first poke). */
  poke(): void {
    if (this.stopped) return;
    const now = Date.now();
    if (this.timer) clearTimeout(this.timer);
    else this.waitingSinceMs = now;
    const delay = Math.max(0, Math.min(this.quietMs, this.waitingSinceMs + this.maxWaitMs - now));
    this.timer = this.after(delay, () => {
      this.timer = undefined;
      return this.run();
    });
  }

  /** Drops a waiting run; later pokes do nothing. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
