// Password masking of connection errors: the connection string's password field is masked, and the password's text
// where it stands alone, never inside a longer word (the password `p` must leave "unexpectedly" as it is).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeConnectionError, maskPassword } from '../../plugins/population/database/database-connection.ts';
import type { ParsedConnection } from '../../plugins/population/database/connection-string.ts';

function target(password: string): ParsedConnection {
  return { provider: 'postgres', host: 'db', port: 5432, user: 'app', password, database: 'clinic', options: {}, key: 'k' } as unknown as ParsedConnection;
}

describe('password masking', () => {
  it('masks the password field of a connection string and standalone occurrences, not parts of words', () => {
    expect(describeConnectionError(new Error('Connection terminated unexpectedly'), target('p'))).toBe('Connection terminated unexpectedly');
    expect(maskPassword('could not connect to postgres://app:hunter2@db:5432/clinic', 'hunter2')).toBe('could not connect to postgres://app:***@db:5432/clinic');
    expect(maskPassword('Server=db;User Id=app;Password=s3cret;Database=x', 's3cret')).toBe('Server=db;User Id=app;Password=***;Database=x');
    expect(maskPassword('authentication failed for s3cret (user app)', 's3cret')).toBe('authentication failed for *** (user app)');
    // the field is masked even when the password is not known to the caller
    expect(maskPassword('mysql://root:whatever@127.0.0.1/test', undefined)).toBe('mysql://root:***@127.0.0.1/test');
  });

  it('never leaves a standalone password and never changes text that does not hold it', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 8 }), (password, words) => {
        const clean = words.filter((w) => !w.includes(password)).join(' ');
        expect(maskPassword(clean, password)).toBe(clean);
        const leaky = `${clean} (${password}) ${password}`;
        const masked = maskPassword(leaky, password);
        expect(masked.split(/[^A-Za-z0-9_]+/).includes(password)).toBe(false);
      }),
    );
  });
});
