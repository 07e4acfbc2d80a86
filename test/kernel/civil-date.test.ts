import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { civilFromDays, daysFromCivil } from '../../kernel/lib/time/civil-date.ts';

const DAY_MS = 86_400_000;

describe('civil date arithmetic', () => {
  it('agrees with Date on every day from year 1 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_162, max: 2_932_896 }), (days) => {
        const date = new Date(days * DAY_MS);
        expect(civilFromDays(days)).toEqual({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
      }),
    );
  });

  it('daysFromCivil is the inverse of civilFromDays', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_162, max: 2_932_896 }), (days) => {
        const { year, month, day } = civilFromDays(days);
        expect(daysFromCivil(year, month, day)).toBe(days);
      }),
    );
  });

  it('knows leap days and the epoch', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(civilFromDays(daysFromCivil(2024, 2, 28) + 1)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(civilFromDays(daysFromCivil(1900, 2, 28) + 1)).toEqual({ year: 1900, month: 3, day: 1 });
  });
});
