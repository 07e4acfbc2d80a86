/**
 * Request bodies other than JSON. Every base reads form-encoded bodies as text (so `curl -d '{...}'`, which labels
 * JSON as a form, still works); a route that declares `rawBody` adds its content types, read as text too. The route
 * registrar then decides, per route, what a text body means or answers 415 naming what the route accepts.
 */
import type { FastifyInstance } from 'fastify';

/** The content type curl and HTML forms send by default. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The media type of a Content-Type header, lower-cased, without parameters (`text/plain; charset=utf-8` -> `text/plain`). */
export function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

/** Makes the server read bodies of these content types as text (once per type and server). */
export function acceptTextBodies(app: FastifyInstance, contentTypes: Iterable<string>): void {
  for (const type of contentTypes) {
    if (app.hasContentTypeParser(type)) continue;
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  }
}
