/**
 * Turns anything thrown into the envelope with the right status: catalogue errors as declared, fastify's request
 * errors by their status (400/408/413/414/415/431; a 4xx is never turned into a 500), unknown routes as 404, and
 * anything else as a 500 that shows no stack or internals (the log has them). A caller that went away during its
 * upload is logged once at info, without a stack: nothing is wrong with the service.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { WorkbenchError, kernelErrors } from '../errors.ts';
import { errorEnvelope } from './envelope.ts';
import { excerpt } from '../lib/text/text-excerpt.ts';
import { isConnectionLoss } from '../store/connection-loss.ts';
import type { DiskWatch } from '../store/disk-full.ts';

/** Seconds a caller is asked to wait when the database is unreachable: about a reconnect attempt's time. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** Maps a thrown value to a catalogue error. */
export function normaliseError(error: unknown, bodyLimit: number): WorkbenchError {
  if (error instanceof WorkbenchError) return error;
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return kernelErrors.create('PAYLOAD_TOO_LARGE', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', { contentType: 'this content type', accepted: 'application/json' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return kernelErrors.create('INVALID_JSON', { reason: 'the body is empty but Content-Type is application/json' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return kernelErrors.create('VALIDATION_FAILED', { summary: 'the Content-Length header is wrong' });
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (status === 400 && (error instanceof SyntaxError || /JSON/i.test(fastifyError.message ?? ''))) {
    return kernelErrors.create('INVALID_JSON', { reason: excerpt(fastifyError.message ?? 'unparseable') });
  }
  if (status === 415) {
    return kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', { contentType: 'this content type', accepted: 'application/json' });
  }
  if (status === 413) return kernelErrors.create('PAYLOAD_TOO_LARGE', { limit: bodyLimit });
  if (status === 408) return kernelErrors.create('REQUEST_TIMEOUT');
  if (status === 431) return kernelErrors.create('HEADERS_TOO_LARGE');
  if (status === 414) return kernelErrors.create('INVALID_URL', { reason: 'it is too long' });
  if (status !== undefined && status >= 400 && status < 500) {
    return kernelErrors.create('BAD_REQUEST', { reason: excerpt(fastifyError.message ?? 'refused by the HTTP layer') });
  }
  // A database outage is the store's, not a fault of the service: the caller may retry once it is back.
  if (isConnectionLoss(error)) {
    return kernelErrors.create('STORE_UNAVAILABLE', { retryAfter: STORE_RETRY_AFTER_SECONDS }, undefined, {
      'retry-after': String(STORE_RETRY_AFTER_SECONDS),
    });
  }
  return kernelErrors.create('INTERNAL_ERROR');
}

/**
 * True when the caller closed the connection before its request was read (an aborted upload): the request stream's
 * own `aborted`, or the caller's socket gone. Judged by the caller's side only: an `ECONNRESET` of another socket (a
 * database connection lost mid-query) is no sign of it, and taking it for one would leave the caller without an
 * answer until its own time-out.
 */
function callerWentAway(error: unknown, request: FastifyRequest): boolean {
  const { message } = error as { message?: string };
  return message === 'aborted' || request.raw.socket?.destroyed === true;
}

/** Where another base serves a route this base does not have (for a 404 that points the way). */
export type RouteLocator = (method: string, path: string) => { base: string; url: string } | undefined;

/** Installs the error and not-found handlers on a server. */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimit: number,
  logger: Logger,
  where?: { base: string; locate: RouteLocator; disk?: DiskWatch },
): void {
  app.setErrorHandler((error, request, reply) => {
    const url = excerpt(request.url);
    if (!(error instanceof WorkbenchError) && callerWentAway(error, request)) {
      logger.info({ method: request.method, url }, 'the caller closed the connection before its request was read');
      return;
    }
    // A write refused for want of space is the machine's condition: 507 naming the disk, and health is told.
    let normalised = !(error instanceof WorkbenchError) && where?.disk?.noticed(error) ? where.disk.refusal() : normaliseError(error, bodyLimit);
    if (normalised.code === 'UNSUPPORTED_MEDIA_TYPE' && !(error instanceof WorkbenchError)) {
      const config = request.routeOptions.config as { acceptedContentTypes?: string[] } | undefined;
      normalised = kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', {
        contentType: excerpt(request.headers['content-type'] ?? '(none)'),
        accepted: (config?.acceptedContentTypes ?? ['application/json']).join(', '),
      });
    }
    // Only failures of the service are errors in the log; refusals with 503 (busy, stopping) are expected under load.
    if (normalised.code === 'INTERNAL_ERROR') logger.error({ err: error, method: request.method, url }, 'request failed');
    else if (normalised.status >= 500) logger.info({ code: normalised.code, method: request.method, url }, 'request refused');
    if (normalised.headers) void reply.headers(normalised.headers);
    void reply.code(normalised.status).send(
      errorEnvelope({
        code: normalised.code,
        message: normalised.message,
        ...(normalised.details === undefined ? {} : { details: normalised.details }),
      }),
    );
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const elsewhere = where?.locate(request.method, path);
    const error = elsewhere
      ? kernelErrors.create(
          'ROUTE_ON_OTHER_BASE',
          { method: request.method, url: path, base: where?.base, otherBase: elsewhere.base, otherUrl: elsewhere.url },
          { base: elsewhere.base, url: elsewhere.url },
        )
      : kernelErrors.create('ROUTE_NOT_FOUND', { method: request.method, url: excerpt(path) });
    void reply.code(404).send(
      errorEnvelope({
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      }),
    );
  });
}
