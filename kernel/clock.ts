/** The source of time for everything in the process, injectable so tests control it (test/helpers/manual-clock.ts). */
export interface Clock {
  /** Current instant. */
  now(): Date;
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

/** The real wall clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};
