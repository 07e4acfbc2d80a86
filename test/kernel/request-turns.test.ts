import { describe, expect, it } from 'vitest';
import { RequestTurns } from '../../kernel/http/request-turns.ts';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // synchronous work, as a request's handler does
  }
}

describe('RequestTurns', () => {
  it('lets requests start at once while the slice lasts', () => {
    const turns = new RequestTurns(1_000);
    expect(turns.take()).toBeUndefined();
    expect(turns.take()).toBeUndefined();
    expect(turns.queued).toBe(0);
  });

  it('queues requests past the slice and starts them later, first in, first out', async () => {
    const turns = new RequestTurns(20);
    expect(turns.take()).toBeUndefined();
    busy(25);
    const order: string[] = [];
    const first = turns.take();
    const second = turns.take();
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeInstanceOf(Promise);
    expect(turns.queued).toBe(2);
    order.push('now');
    void first?.then(() => order.push('first'));
    void second?.then(() => order.push('second'));
    await Promise.all([first, second]);
    expect(order).toEqual(['now', 'first', 'second']);
    expect(turns.queued).toBe(0);
  });

  it('lets a long queue through a slice per pass of the event loop', async () => {
    const turns = new RequestTurns(20);
    expect(turns.take()).toBeUndefined();
    busy(25);
    const started: number[] = [];
    const passes: number[] = [];
    let pass = 0;
    const ticker = setInterval(() => passes.push(++pass), 0);
    const all = Array.from({ length: 6 }, (_, i) =>
      turns.take()?.then(() => {
        started.push(pass);
        busy(15);
        return i;
      }),
    );
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5]);
    clearInterval(ticker);
    // 15 ms each against 20 ms slices: at most two start in one pass, so the six need three passes or more
    expect(new Set(started).size).toBeGreaterThanOrEqual(3);
  });

  it('starts a new slice once the event loop has turned', async () => {
    const turns = new RequestTurns(5);
    expect(turns.take()).toBeUndefined();
    busy(6);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(turns.take()).toBeUndefined();
  });
});
