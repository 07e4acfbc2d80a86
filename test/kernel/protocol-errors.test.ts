// Framework and protocol errors answer in the envelope with catalogue codes (never fastify's or Node's own bodies),
// fastify's 4xx errors stay 4xx, a caller that aborts its upload is logged once at info without a stack, and neither
// answers nor log lines repeat more than an excerpt of what the caller sent.
import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { Writable } from 'node:stream';
import { startTestWorkbench, useTestWorkbench } from '../helpers/test-workbench.ts';
import { normaliseError } from '../../kernel/http/error-handling.ts';
import { clientErrorFor } from '../../kernel/http/protocol-errors.ts';
import { createLogger } from '../../kernel/logger.ts';
import { createGuardedServer } from '../../kernel/http/request-guard.ts';
import { send } from '../helpers/http-client.ts';
import type { AddressInfo } from 'node:net';

/** Sends raw bytes to a base and returns everything the server wrote before closing. */
function rawExchange(url: string, request: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.end(request);
  });
}

function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(rest.join('\r\n\r\n')) };
}

/** Collects the log lines of an instance. */
function logCollector(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('protocol errors in the envelope', () => {
  const wb = useTestWorkbench();

  const cases: Array<{ name: string; request: (host: string) => string; status: number; code: string }> = [
    { name: 'bad percent-encoding', request: (host) => `GET /api/%zz HTTP/1.1\r\nHost: ${host}\r\n\r\n`, status: 400, code: 'INVALID_URL' },
    {
      name: 'a header name with a space',
      request: (host) => `GET /api/profiles HTTP/1.1\r\nHost: ${host}\r\nBad Header: x\r\n\r\n`,
      status: 400,
      code: 'BAD_REQUEST',
    },
    {
      name: 'a control character in a header value',
      request: (host) => `GET /api/profiles HTTP/1.1\r\nHost: ${host}\r\nX-Note: a\u0001b\r\n\r\n`,
      status: 400,
      code: 'BAD_REQUEST',
    },
    {
      name: 'oversized headers',
      request: (host) => `GET /api/profiles HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'HEADERS_TOO_LARGE',
    },
    { name: 'an unknown method', request: (host) => `BREW /api/profiles HTTP/1.1\r\nHost: ${host}\r\n\r\n`, status: 400, code: 'BAD_REQUEST' },
    {
      name: 'a Content-Length that is not a number',
      request: (host) =>
        `POST /api/validate HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ten\r\n\r\n{}`,
      status: 400,
      code: 'BAD_REQUEST',
    },
    { name: 'bytes that are not HTTP', request: () => '\u0000\u0001\u0002 not http\r\n\r\n', status: 400, code: 'BAD_REQUEST' },
  ];

  it.each(cases)('answers $name with $status $code', async ({ request, status, code }) => {
    const host = new URL(wb.urls.bridge).host;
    const answer = parseRaw(await rawExchange(wb.urls.bridge, request(host)));
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.body).toEqual({ success: false, data: null, error: { code, message: expect.any(String) } });
    // The service still answers afterwards.
    expect((await wb.call('monitor', { path: '/api/health' })).status).toBe(200);
  });

  it('repeats no more than an excerpt of a long URL', async () => {
    const res = await wb.call('bridge', { path: `/api/${'x'.repeat(5_000)}` });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('ROUTE_NOT_FOUND');
    expect(res.json.error.message.length).toBeLessThan(300);
    expect(res.json.error.message).toContain('more characters');
  });

  it('keeps fastify 4xx errors 4xx: none becomes a 500', () => {
    for (const statusCode of [400, 405, 406, 409, 411, 422, 429]) {
      const error = Object.assign(new Error('refused by the framework'), { statusCode, code: 'FST_ERR_SOMETHING' });
      const normalised = normaliseError(error, 1024);
      expect(normalised.status, String(statusCode)).toBeLessThan(500);
      expect(normalised.code).toBe('BAD_REQUEST');
    }
    expect(normaliseError(Object.assign(new Error('x'), { statusCode: 413 }), 1024).code).toBe('PAYLOAD_TOO_LARGE');
    expect(normaliseError(Object.assign(new Error('x'), { statusCode: 431 }), 1024).code).toBe('HEADERS_TOO_LARGE');
    expect(normaliseError(Object.assign(new Error('x'), { statusCode: 408 }), 1024).code).toBe('REQUEST_TIMEOUT');
    expect(normaliseError(new TypeError('a bug'), 1024).code).toBe('INTERNAL_ERROR');
    // What Node's HTTP parser refuses before a request exists.
    expect(clientErrorFor('ERR_HTTP_REQUEST_TIMEOUT').status).toBe(408);
    expect(clientErrorFor('HPE_HEADER_OVERFLOW').code).toBe('HEADERS_TOO_LARGE');
    expect(clientErrorFor('HPE_SOMETHING_NEW')).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });
});

describe('quiet logs', () => {
  it('logs an aborted upload once, at info, without a stack', async () => {
    const log = logCollector();
    const wb = await startTestWorkbench({ logDestination: log.stream, config: { logging: { level: 'debug' } } });
    try {
      const { port, host } = new URL(wb.urls.bridge);
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/validate HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n` +
              `{"messageContent":"${'x'.repeat(50_000)}`,
          );
          setTimeout(() => socket.destroy(), 200);
        });
        socket.on('close', () => resolve());
      });
      const aborted = () => log.lines().filter((line) => String(line.msg).includes('closed the connection'));
      await expect.poll(() => aborted().length, { timeout: 10_000 }).toBe(1);
      const [line] = aborted();
      expect(line.level).toBe(30);
      expect(line.err).toBeUndefined();
      expect(JSON.stringify(line)).not.toContain('stack');
      expect(log.lines().filter((l) => Number(l.level) >= 50)).toEqual([]);
    } finally {
      await wb.stop();
    }
  });

  it('cuts every logged string and error to a bounded excerpt', () => {
    const log = logCollector();
    const logger = createLogger({ level: 'info', destination: log.stream });
    const huge = 'PID|1||'.repeat(200_000);
    logger.info({ content: huge }, huge);
    logger.error({ err: new Error(`cannot read ${huge}`) }, 'failed');
    const lines = log.lines();
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.stringify(line).length).toBeLessThan(8_000);
    expect(String(lines[0].msg)).toContain('more characters');
  });
});

describe('requests arriving while the service stops', () => {
  it('are answered 503 SERVICE_STOPPING in the envelope, never with fastify\'s own body', async () => {
    let closing = false;
    const server = createGuardedServer((_request, response) => response.end('served'), {
      getPort: () => (server.address() as AddressInfo).port,
      allowedOrigins: [],
      isClosing: () => closing,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await send(url, { path: '/' })).text).toBe('served');
      closing = true;
      const res = await send(url, { path: '/' });
      expect(res.status).toBe(503);
      expect(res.headers.connection).toBe('close');
      expect(res.json).toEqual({
        success: false,
        data: null,
        error: { code: 'SERVICE_STOPPING', message: 'The service is stopping; the request was not completed.' },
      });
    } finally {
      server.close();
    }
  });
});
