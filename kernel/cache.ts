/**
 * A small in-process cache with time-to-live, shared by plugins for expensive lookups. Its health probe feeds the
 * `cache` check of `/api/health`: the cache is unhealthy when a value written cannot be read back, or when it is
 * thrashing (capacity evictions over the last one to two minutes reached its whole capacity, so entries are pushed out long
 * before they expire and every lookup misses).
 */
import type { Clock } from './clock.ts';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** How far back capacity evictions count towards thrashing. */
const THRASH_WINDOW_MS = 60_000;

/** Bounded key/value cache; the oldest entries are evicted first when full. */
export class Cache {
  private readonly entries = new Map<string, Entry>();
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private evictionsInWindow = 0;
  private evictionsInPreviousWindow = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  /** The value under `key`, or undefined when absent or expired. */
  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Stores a value for `ttlMs` milliseconds; when full, the oldest entry makes room. */
  set(key: string, value: unknown, ttlMs = 60_000): void {
    const now = this.clock.nowMs();
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
        this.countEviction(now);
      }
    }
    this.entries.set(key, { value, expiresAt: now + ttlMs });
  }

  /** Removes `key`. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** True when a value written can be read back and the cache is not thrashing. */
  probe(): boolean {
    const key = '__health_probe__';
    const token = `${this.clock.nowMs()}:${Math.random()}`;
    // Written past the capacity check: probing must not evict anything (nor count as thrashing).
    this.entries.set(key, { value: token, expiresAt: this.clock.nowMs() + 1_000 });
    const ok = this.get(key) === token;
    this.delete(key);
    return ok && !this.thrashing(this.clock.nowMs());
  }

  private rollWindow(now: number): void {
    if (now - this.windowStartMs < THRASH_WINDOW_MS) return;
    // Two half-open windows approximate "the last minute" without keeping a timestamp per eviction.
    this.evictionsInPreviousWindow = now - this.windowStartMs < 2 * THRASH_WINDOW_MS ? this.evictionsInWindow : 0;
    this.evictionsInWindow = 0;
    this.windowStartMs = now;
  }

  private countEviction(now: number): void {
    this.rollWindow(now);
    this.evictionsInWindow++;
  }

  private thrashing(now: number): boolean {
    this.rollWindow(now);
    return this.evictionsInWindow + this.evictionsInPreviousWindow >= this.maxEntries;
  }
}
