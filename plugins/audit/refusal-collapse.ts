/**
 * Refused credentials, collapsed per source and time window (a minute by default): the first refusal of a source
 * in a window is recorded in full, the ones after it are only counted, and once the window is over one
 * `credential.refuse-repeated` entry records how many there were. A caller sending bogus keys as fast as it can
 * thus adds two entries a minute per address instead of thousands a second, so the trail cannot be used to fill the
 * disk, and nothing is lost: every refusal is in a count.
 */
import type { Clock } from '../../kernel/clock.ts';
import type { AuditRecordInput } from './api.ts';
import type { GuardedAfter } from '../../kernel/lib/async/pause-timer.ts';

/** Sources tracked in one window at most; refusals of further sources are counted together under `*`. */
const MAX_SOURCES = 10_000;

interface Bucket {
  window: number;
  /** Refusals after the first, not yet on record. */
  repeated: number;
  first: AuditRecordInput;
}

/** Collapses refusals before they reach the trail. */
export class RefusalCollapser {
  private readonly buckets = new Map<string, Bucket>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly record: (entry: AuditRecordInput) => Promise<void>,
    private readonly clock: Clock,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
    /** The guarded timer the end of a window is waited for with (a failing flush is reported, never thrown). */
    private readonly after: GuardedAfter,
  ) {}

  /**
   * Takes one refusal: recorded now when it is its source's first in the window, else counted. `key` is the source
   * unless the caller keys it finer (a valid credential's holder, which no one can make up by the thousand).
   */
  offer(entry: AuditRecordInput, key: string = entry.sourceAddress ?? 'unknown'): void {
    const window = Math.floor(this.clock.nowMs() / this.windowMs);
    let source = key;
    if (!this.buckets.has(source) && this.buckets.size >= MAX_SOURCES) source = '*';
    const bucket = this.buckets.get(source);
    if (bucket && bucket.window === window) {
      bucket.repeated++;
      this.schedule();
      return;
    }
    if (bucket) this.close(source, bucket);
    this.buckets.set(source, { window, repeated: 0, first: entry });
    this.record(entry).catch(this.onError);
  }

  /** Records the counts of every window that is over (or of all, when `all`); called by the timer and at stop. */
  flush(all = false): void {
    const window = Math.floor(this.clock.nowMs() / this.windowMs);
    for (const [source, bucket] of this.buckets) if (all || bucket.window < window) this.close(source, bucket);
    if (this.buckets.size > 0 && [...this.buckets.values()].some((b) => b.repeated > 0)) this.schedule();
  }

  /** Flushes everything and stops the timer. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush(true);
  }

  private close(source: string, bucket: Bucket): void {
    this.buckets.delete(source);
    if (bucket.repeated === 0) return;
    const { first } = bucket;
    this.record({
      action: 'credential.refuse-repeated',
      resourceType: 'source',
      resourceId: source === '*' ? '*' : (first.sourceAddress ?? 'unknown'),
      outcome: 'denied',
      actor: source === '*' ? 'anonymous' : first.actor,
      actorKind: source === '*' ? 'anonymous' : first.actorKind,
      sourceAddress: source === '*' ? undefined : first.sourceAddress,
      details: {
        repeated: bucket.repeated,
        windowStart: new Date(bucket.window * this.windowMs).toISOString(),
        windowSeconds: this.windowMs / 1000,
        lastRoute: first.resourceId ?? null,
      },
    }).catch(this.onError);
  }

  private schedule(): void {
    if (this.timer) return;
    const now = this.clock.nowMs();
    const untilNext = this.windowMs - (now % this.windowMs) + 20;
    // A pending count never keeps the process alive (guarded timers do not); stop() records it.
    this.timer = this.after(untilNext, () => {
      this.timer = undefined;
      this.flush();
    });
  }
}
