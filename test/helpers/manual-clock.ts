/** A clock tests move by hand: the kernel's Clock, injected into a test workbench or a service under test. */
import type { Clock } from '../../kernel/clock.ts';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  nowMs(): number {
    return this.current;
  }

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }

  /** Jumps to an instant. */
  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }
}
