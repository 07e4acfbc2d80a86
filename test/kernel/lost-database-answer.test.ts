// A database connection lost mid-request (the driver's socket reset, `ECONNRESET`, as PostgreSQL's does when its
// server stops) answers the caller 503 STORE_UNAVAILABLE with Retry-After at once: it is not taken for the caller
// going away, which would leave the request without an answer until the caller's own time-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { installErrorHandling } from '../../kernel/http/error-handling.ts';

/** GET with a deadline: rejects when no answer came within `timeoutMs`. */
function get(url: string, timeoutMs: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) }));
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** The error node-postgres rejects a query with when its server's socket is reset. */
function socketReset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
}

describe('a database connection lost during a request', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    installErrorHandling(app, 1_000_000, pino({ level: 'silent' }));
    app.get('/reset', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw socketReset();
    });
    app.get('/terminated', async () => {
      throw new Error('Connection terminated unexpectedly');
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 STORE_UNAVAILABLE with Retry-After for a reset database socket', async () => {
    const answer = await get(`${base}/reset`, 5_000);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.body.error.code).toBe('STORE_UNAVAILABLE');
  });

  it('answers the same for a connection the driver says was terminated', async () => {
    const answer = await get(`${base}/terminated`, 5_000);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('STORE_UNAVAILABLE');
  });
});
