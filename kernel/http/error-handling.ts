/**
 * Turns anything thrown into the envelope with the right status: catalogue errors as declared, fastify's body
 * errors as 400/413/415, unknown routes as 404, and anything else as a 500 that shows no stack or internals (the
 * log has them).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { WorkbenchError, kernelErrors } from '../errors.ts';
import { errorEnvelope } from './envelope.ts';

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
  if (fastifyError.statusCode === 400 && (error instanceof SyntaxError || /JSON/i.test(fastifyError.message ?? ''))) {
    return kernelErrors.create('INVALID_JSON', { reason: fastifyError.message ?? 'unparseable' });
  }
  if (fastifyError.statusCode === 415) {
    return kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', { contentType: 'this content type', accepted: 'application/json' });
  }
  if (fastifyError.statusCode === 413) return kernelErrors.create('PAYLOAD_TOO_LARGE', { limit: bodyLimit });
  return kernelErrors.create('INTERNAL_ERROR');
}

/** Where another base serves a route this base does not have (for a 404 that points the way). */
export type RouteLocator = (method: string, path: string) => { base: string; url: string } | undefined;

/** Installs the error and not-found handlers on a server. */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimit: number,
  logger: Logger,
  where?: { base: string; locate: RouteLocator },
): void {
  app.setErrorHandler((error, request, reply) => {
    let normalised = normaliseError(error, bodyLimit);
    if (normalised.code === 'UNSUPPORTED_MEDIA_TYPE' && !(error instanceof WorkbenchError)) {
      const config = request.routeOptions.config as { acceptedContentTypes?: string[] } | undefined;
      normalised = kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', {
        contentType: request.headers['content-type'] ?? '(none)',
        accepted: (config?.acceptedContentTypes ?? ['application/json']).join(', '),
      });
    }
    if (normalised.status >= 500) logger.error({ err: error, method: request.method, url: request.url }, 'request failed');
    reply
      .code(normalised.status)
      .send(
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
      : kernelErrors.create('ROUTE_NOT_FOUND', { method: request.method, url: path });
    reply.code(404).send(
      errorEnvelope({
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      }),
    );
  });
}
