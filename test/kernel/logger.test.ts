// Secrets never reach the log.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger, maskSecretsInText } from '../../kernel/logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination: stream }), lines };
}

describe('logger redaction', () => {
  it('redacts Authorization headers, passwords and client secrets by key', () => {
    const { logger, lines } = capture();
    logger.info({ req: { headers: { authorization: 'Bearer wbk_abc_secret' } } }, 'request');
    logger.info({ provider: { clientSecret: 's3cr3t-value', clientId: 'visible' } }, 'sso');
    logger.info({ password: 'hunter2' }, 'login');
    const text = lines.join('');
    expect(text).not.toContain('wbk_abc_secret');
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('visible');
    expect(text).toContain('[redacted]');
  });

  it('masks passwords inside connection strings anywhere in a line', () => {
    const { logger, lines } = capture();
    logger.info({ target: 'postgres://admin:topsecret@db.local:5432/app' }, 'connecting');
    logger.warn('failed to reach mysql://root:pw123@127.0.0.1/test');
    logger.error(new Error('login failed for Server=x;User Id=sa;Password=Sup3r;'), 'mssql');
    const text = lines.join('');
    expect(text).not.toMatch(/topsecret|pw123|Sup3r/);
    expect(text).toContain('postgres://admin:***@db.local:5432/app');
  });

  it('masks both URL and key=value forms', () => {
    expect(maskSecretsInText('postgresql://u:p%40ss@h/db')).toBe('postgresql://u:***@h/db');
    expect(maskSecretsInText('Server=h;Password=abc;Database=d')).toBe('Server=h;Password=***;Database=d');
  });
});
