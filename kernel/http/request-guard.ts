/**
 * DNS-rebinding and cross-site protection, run on the raw HTTP server before fastify sees the request (so before
 * routing, and without the cost of a hook on every request): the Host header must name this server by a loopback
 * name (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`), and a state-changing request carrying a browser Origin
 * must come from one of those or from an origin the config allows; and a request a browser marks as coming from
 * another site (`Sec-Fetch-Site`, cross-site.ts) may neither read data nor start work, whatever its method. CORS
 * headers are only sent for allowed origins.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { kernelErrors, type WorkbenchError } from '../errors.ts';
import { errorEnvelope } from './envelope.ts';
import { excerpt } from '../lib/text/text-excerpt.ts';
import { refusedCrossSite } from './cross-site.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Time a request (headers and body) may take to arrive. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Loopback host names accepted for a port. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Options of the guard; `getPort` is read after listen (the port may be ephemeral). */
export interface RequestGuardOptions {
  getPort: () => number;
  allowedOrigins: string[];
  /** True once the server is shutting down: requests still arriving get 503 SERVICE_STOPPING. */
  isClosing?: () => boolean;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function refuse(response: ServerResponse, error: WorkbenchError, extraHeaders: Record<string, string> = {}): void {
  const body = JSON.stringify(errorEnvelope({ code: error.code, message: error.message }));
  response.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  response.end(body);
}

/** Creates the HTTP server fastify runs on, with the guard in front of fastify's request handler. */
export function createGuardedServer(handler: Handler, options: RequestGuardOptions): http.Server {
  let allowedHosts = new Set<string>();
  let sameOrigins = new Set<string>();
  let forPort = -1;
  // Browsers send an Origin without a trailing slash; a configured `http://host:3000/` must still match it.
  const configuredOrigins = new Set(options.allowedOrigins.map((origin) => origin.replace(/\/+$/, '')));

  const guard: Handler = (request, response) => {
    if (options.isClosing?.()) {
      refuse(response, kernelErrors.create('SERVICE_STOPPING'), { connection: 'close' });
      return;
    }
    const port = options.getPort();
    if (port !== forPort) {
      forPort = port;
      const hosts = loopbackHosts(port);
      allowedHosts = new Set(hosts);
      sameOrigins = new Set(hosts.map((h) => `http://${h}`));
    }
    const host = request.headers.host;
    if (!host || !allowedHosts.has(host.toLowerCase())) {
      refuse(response, kernelErrors.create('HOST_NOT_ALLOWED', { host: excerpt(host ?? '') }));
      return;
    }
    const foreignSite = refusedCrossSite(request, sameOrigins, configuredOrigins);
    if (foreignSite !== undefined) {
      refuse(response, kernelErrors.create('CROSS_SITE_REFUSED', { site: excerpt(foreignSite) }), { vary: 'Sec-Fetch-Site' });
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (configuredOrigins.has(origin)) {
        response.setHeader('access-control-allow-origin', origin);
        response.setHeader('vary', 'Origin');
        if (request.method === 'OPTIONS') {
          response.setHeader('access-control-allow-methods', 'GET, POST, PUT, DELETE');
          response.setHeader('access-control-allow-headers', 'content-type, authorization');
          response.writeHead(204);
          response.end();
          return;
        }
      } else if (!SAFE_METHODS.has(request.method ?? 'GET') && !sameOrigins.has(origin)) {
        refuse(response, kernelErrors.create('ORIGIN_NOT_ALLOWED', { origin: excerpt(origin) }));
        return;
      }
    }
    handler(request, response);
  };
  // Node would answer a missing Host with a bare 400; the guard answers it with the envelope's 403.
  // A request must arrive whole within a minute (408 REQUEST_TIMEOUT otherwise): a caller trickling a large body
  // cannot hold one of the few slots for heavy requests for long.
  return http.createServer({ requireHostHeader: false, requestTimeout: REQUEST_TIMEOUT_MS }, guard);
}
