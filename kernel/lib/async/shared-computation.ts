/**
 * Identical requests arriving together share one computation: the first caller of a key starts it, everyone who
 * asks for the same key while it runs (or within `ttlMs` after it finished) gets the same answer. A dashboard of a
 * hundred clients polling the same report thus costs one computation per `ttlMs`, not a hundred. A failure is never
 * kept: the next caller computes afresh.
 */
import type { Clock } from '../../clock.ts';

interface Kept {
  value: unknown;
  expiresAt: number;
}

/** Keys kept at most; the oldest finished answers make room first. */
const DEFAULT_MAX_KEYS = 1_000;

/** Shares in-flight computations and keeps their answers for a short time. */
export class SharedComputations {
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {}

  /**
   * The answer for `key`: a kept one younger than `ttlMs`, the one being computed, or a new computation. Callers must
   * treat the answer as read-only: everyone sharing it holds the same object.
   */
  run<T>(key: string, compute: () => Promise<T>, ttlMs: number): Promise<T> {
    const kept = this.kept.get(key);
    if (kept) {
      if (kept.expiresAt > this.clock.nowMs()) return Promise.resolve(kept.value as T);
      this.kept.delete(key);
    }
    const running = this.running.get(key);
    if (running) return running as Promise<T>;
    const computation = compute().then(
      (value) => {
        this.running.delete(key);
        if (ttlMs > 0) this.keep(key, value, ttlMs);
        return value;
      },
      (error: unknown) => {
        this.running.delete(key);
        throw error;
      },
    );
    this.running.set(key, computation);
    return computation;
  }

  /** Forgets every kept answer (after a change that makes them stale); running computations finish as they are. */
  clear(): void {
    this.kept.clear();
  }

  private keep(key: string, value: unknown, ttlMs: number): void {
    if (this.kept.size >= this.maxKeys) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
    this.kept.set(key, { value, expiresAt: this.clock.nowMs() + ttlMs });
  }
}
