/**
 * Files held back because their last message may still be written: it is open (no segment terminator after its
 * last byte, a document whose root is not closed) and it failed. The ingest queue commits such a file's whole
 * messages only, and the ledger records the file up to where the open message starts, so when the writer finishes
 * it the file reads as an append and the message is judged whole, once. A file unchanged for the grace period
 * after it was first seen so is judged as it is (a truncated message is counted, failed, never ignored forever).
 *
 * Held files live in memory only: after a restart the ledger's shorter length brings them back, and their grace
 * period starts again.
 */
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';

interface HeldTail {
  interfaceId: string;
  /** Size and mtime the file was seen with: a change starts the grace period again. */
  signature: string;
  sinceMs: number;
  timer?: NodeJS.Timeout;
}

/** What holding a file's open tail answers. */
export interface OpenTailState {
  /** The grace period is over: judge the file as it is. */
  due: boolean;
  /** Milliseconds left of the grace period (0 when due). */
  remainingMs: number;
}

/** The files held back, keyed like the queue's files (`interfaceId NUL path`). */
export class OpenTails {
  private readonly held = new Map<string, HeldTail>();

  /** `background`: the guard the look at a held file's end of grace runs under. */
  constructor(
    private readonly graceMs: number,
    private readonly background: Pick<BackgroundJobs, 'after'>,
  ) {}

  /**
   * Notes that a file was read with an open failed tail at this size and mtime (`signature`), and answers whether
   * its grace period is over: counted from when it was first seen with this signature.
   */
  observe(key: string, interfaceId: string, signature: string, nowMs: number): OpenTailState {
    let tail = this.held.get(key);
    if (!tail || tail.signature !== signature) {
      clearTimeout(tail?.timer);
      tail = { interfaceId, signature, sinceMs: nowMs };
      this.held.set(key, tail);
    }
    const remainingMs = Math.max(0, tail.sinceMs + this.graceMs - nowMs);
    return { due: remainingMs === 0, remainingMs };
  }

  /** Runs `look` once the held file's grace period is over (unless it is released first). */
  lookAgainIn(key: string, delayMs: number, look: () => void): void {
    const tail = this.held.get(key);
    if (!tail) return;
    clearTimeout(tail.timer);
    tail.timer = this.background.after('open-tail', delayMs, () => {
      tail.timer = undefined;
      look();
    });
  }

  /** The file is no longer held: its last message is whole, or was judged as it is, or the file is gone. */
  release(key: string): void {
    const tail = this.held.get(key);
    if (!tail) return;
    clearTimeout(tail.timer);
    this.held.delete(key);
  }

  /** Whether a file is held. */
  has(key: string): boolean {
    return this.held.has(key);
  }

  /** Files held. */
  get size(): number {
    return this.held.size;
  }

  /** Forgets the held files of an interface no longer watched. */
  dropInterface(interfaceId: string): void {
    for (const [key, tail] of this.held) if (tail.interfaceId === interfaceId) this.release(key);
  }

  /** Forgets every held file. */
  clear(): void {
    for (const key of [...this.held.keys()]) this.release(key);
  }
}
