/**
 * A small in-process cache with time-to-live, shared by plugins for expensive lookups. Its health probe feeds the
 * `cache` check of `/api/health`.
 */
import type { Clock } from './clock.ts';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** Bounded key/value cache; the oldest entries are evicted first when full. */
export class Cache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown, ttlMs = 60_000): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.clock.nowMs() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Writes and reads back a probe value; true when the cache answers. */
  probe(): boolean {
    const key = '__health_probe__';
    const token = this.clock.nowMs();
    this.set(key, token, 1_000);
    const ok = this.get(key) === token;
    this.delete(key);
    return ok;
  }
}
