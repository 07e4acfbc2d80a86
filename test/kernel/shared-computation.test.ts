// Shared computations: identical concurrent calls run once, the answer is kept for its time to live and no longer,
// failures are never kept, and the number of kept keys is bounded.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { SharedComputations } from '../../kernel/lib/async/shared-computation.ts';

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('shared computations', () => {
  it('runs identical concurrent calls once and hands everyone the same answer', async () => {
    const shared = new SharedComputations(new ManualClock());
    const gate = deferred<{ total: number }>();
    let runs = 0;
    const compute = () => {
      runs++;
      return gate.promise;
    };
    const answers = Array.from({ length: 100 }, () => shared.run('report:24', compute, 1_000));
    const other = shared.run('report:1', async () => ({ total: 1 }), 1_000);
    gate.resolve({ total: 42 });
    const values = await Promise.all(answers);
    expect(runs).toBe(1);
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toEqual({ total: 42 });
    expect(await other).toEqual({ total: 1 });
  });

  it('keeps the answer for its time to live, then computes again', async () => {
    const clock = new ManualClock();
    const shared = new SharedComputations(clock);
    let runs = 0;
    const compute = async () => ++runs;
    expect(await shared.run('k', compute, 2_000)).toBe(1);
    clock.advance(1_999);
    expect(await shared.run('k', compute, 2_000)).toBe(1);
    clock.advance(1);
    expect(await shared.run('k', compute, 2_000)).toBe(2);
    shared.clear();
    expect(await shared.run('k', compute, 2_000)).toBe(3);
  });

  it('never keeps a failure: waiting callers see it, the next caller computes afresh', async () => {
    const shared = new SharedComputations(new ManualClock());
    const gate = deferred<number>();
    const first = shared.run('k', () => gate.promise, 5_000);
    const second = shared.run('k', () => Promise.resolve(99), 5_000);
    gate.reject(new Error('store unreachable'));
    await expect(first).rejects.toThrow('store unreachable');
    await expect(second).rejects.toThrow('store unreachable');
    expect(await shared.run('k', async () => 7, 5_000)).toBe(7);
  });

  it('keeps at most maxKeys answers, dropping the oldest', async () => {
    const shared = new SharedComputations(new ManualClock(), 3);
    let runs = 0;
    for (const key of ['a', 'b', 'c', 'd']) await shared.run(key, async () => ++runs, 60_000);
    expect(await shared.run('d', async () => ++runs, 60_000)).toBe(4);
    expect(await shared.run('a', async () => ++runs, 60_000)).toBe(5);
  });
});
