// Durations as a person reads them (text and HTML reports, alert titles): the largest unit that keeps the number at
// least 1, one decimal at most.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { humanDuration } from '../../kernel/lib/time/duration-text.ts';

describe('humanDuration', () => {
  it('picks ms, s, min, h or d', () => {
    expect(humanDuration(null)).toBe('n/a');
    expect(humanDuration(0)).toBe('0 ms');
    expect(humanDuration(850)).toBe('850 ms');
    expect(humanDuration(1500)).toBe('1.5 s');
    expect(humanDuration(120_000)).toBe('2 min');
    expect(humanDuration(7_560_000)).toBe('2.1 h');
    expect(humanDuration(1_256_289_612_690)).toBe('14540.4 d');
    expect(humanDuration(-90_000)).toBe('-1.5 min');
  });

  it('reads back within 5 % for any duration of a millisecond or more', () => {
    const unit: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 13 }), (ms) => {
        const [number, name] = humanDuration(ms).split(' ');
        expect(Math.abs(Number(number) * unit[name] - ms) / ms).toBeLessThanOrEqual(0.05);
      }),
    );
  });
});
