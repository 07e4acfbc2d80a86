// The kernel's pause timer: a run waits for pokes to pause, but never longer than its longest wait after the first
// poke, runs once per pause, and does nothing after stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { BackgroundGuard } from '../../kernel/background/background-guard.ts';
import { guardedAfter, PauseTimer } from '../../kernel/lib/async/pause-timer.ts';
import { ServiceFaults } from '../../kernel/background/service-faults.ts';

const after = guardedAfter(new BackgroundGuard(pino({ level: 'silent' }), new ServiceFaults()), 'pause');

describe('pause timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once the pokes pause, once for a burst', () => {
    const run = vi.fn();
    const timer = new PauseTimer(run, 500, 5_000, after);
    for (let i = 0; i < 5; i++) {
      timer.poke();
      vi.advanceTimersByTime(100);
    }
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at the longest wait during a steady stream of pokes', () => {
    const run = vi.fn();
    const timer = new PauseTimer(run, 500, 2_000, after);
    for (let i = 0; i < 50; i++) {
      timer.poke();
      vi.advanceTimersByTime(100);
    }
    // 5 s of pokes every 100 ms: a run every 2 s at least, never one per poke
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(run.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('does nothing after stop', () => {
    const run = vi.fn();
    const timer = new PauseTimer(run, 500, 5_000, after);
    timer.poke();
    timer.stop();
    timer.poke();
    vi.advanceTimersByTime(10_000);
    expect(run).not.toHaveBeenCalled();
  });
});
