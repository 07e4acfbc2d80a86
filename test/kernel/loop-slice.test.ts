import { describe, expect, it } from 'vitest';
import { LoopSlice } from '../../kernel/lib/async/loop-slice.ts';

describe('LoopSlice', () => {
  it('is spent once its time is used and lets queued work run when passed', async () => {
    const slice = new LoopSlice(100);
    expect(slice.spent()).toBe(false);
    const until = performance.now() + 101;
    while (performance.now() < until) {
      // busy, as a long synchronous fold is
    }
    expect(slice.spent()).toBe(true);
    let ranMeanwhile = false;
    setImmediate(() => (ranMeanwhile = true));
    await slice.pass();
    expect(ranMeanwhile).toBe(true);
    expect(slice.spent()).toBe(false);
  });
});
