/**
 * Errors met before a route runs, answered in the envelope with catalogue codes instead of fastify's or Node's own
 * bodies: a URL that is not valid percent-encoding (`GET /api/%zz`), a parameter over the router's length limit, and
 * what the HTTP parser refuses before any request exists (malformed or oversized headers, a bad method, a request
 * not received in time).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { kernelErrors, type WorkbenchError } from '../errors.ts';
import { errorEnvelope } from './envelope.ts';

/** Why the HTTP parser refused a request, by its error code; the caller's bytes are never repeated. */
const PARSER_REASONS: Record<string, string> = {
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds characters HTTP does not allow',
  HPE_INVALID_METHOD: 'the method is not an HTTP method',
  HPE_INVALID_URL: 'the request target is not a valid URL',
  HPE_INVALID_VERSION: 'the HTTP version is not HTTP/1.0 or HTTP/1.1',
  HPE_INVALID_CONSTANT: 'the request line is not HTTP',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length header is not a number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding are both set',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding header is not valid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is not valid',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'the chunk extensions of the body are too large',
  HPE_LF_EXPECTED: 'a line of the request does not end with CRLF',
  HPE_CR_EXPECTED: 'a line of the request does not end with CRLF',
};

/** The catalogue error for an error of Node's HTTP parser (the server's `clientError` event). */
export function clientErrorFor(code: string | undefined): WorkbenchError {
  if (code === 'HPE_HEADER_OVERFLOW') return kernelErrors.create('HEADERS_TOO_LARGE');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_REQUEST_TIMEOUT_ERROR') {
    return kernelErrors.create('REQUEST_TIMEOUT');
  }
  return kernelErrors.create('BAD_REQUEST', {
    reason: (code && PARSER_REASONS[code]) ?? 'it is not valid HTTP/1.1',
  });
}

/**
 * fastify's `clientErrorHandler`: no request object exists yet, so the envelope is written to the socket as a whole
 * HTTP response, and the connection is closed (what follows on it cannot be trusted).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = clientErrorFor(error.code);
  const body = JSON.stringify(errorEnvelope({ code: problem.code, message: problem.message }));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** fastify's `frameworkErrors`: the router's own refusals (bad percent-encoding, over-long parameters). */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  let problem: WorkbenchError;
  if (error.code === 'FST_ERR_BAD_URL') {
    problem = kernelErrors.create('INVALID_URL', { reason: 'it holds a % that does not start a valid percent-encoded character' });
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    problem = kernelErrors.create('INVALID_URL', { reason: 'a path parameter is longer than the router allows' });
  } else {
    problem = kernelErrors.create('BAD_REQUEST', { reason: 'the request cannot be routed' });
  }
  void reply.code(problem.status).send(errorEnvelope({ code: problem.code, message: problem.message }));
}
