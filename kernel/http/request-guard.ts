/**
 * DNS-rebinding and cross-site protection, run before routing on every request: the Host header must name this
 * server by a loopback name (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`), and a state-changing request
 * carrying a browser Origin must come from one of those or from an origin the config allows. CORS headers are
 * only sent for allowed origins.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { kernelErrors } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Loopback host names accepted for a port. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Installs the guard; `getPort` is read after listen (the port may be ephemeral). */
export function installRequestGuard(
  app: FastifyInstance,
  options: { getPort: () => number; allowedOrigins: string[] },
): void {
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();
  let forPort = -1;
  const refresh = (): void => {
    const port = options.getPort();
    if (port === forPort) return;
    forPort = port;
    const hosts = loopbackHosts(port);
    allowedHosts = new Set(hosts);
    allowedOrigins = new Set([...hosts.map((h) => `http://${h}`), ...options.allowedOrigins]);
  };
  const configuredOrigins = new Set(options.allowedOrigins);

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    refresh();
    const host = request.headers.host;
    if (!host || !allowedHosts.has(host.toLowerCase())) {
      done(kernelErrors.create('HOST_NOT_ALLOWED', { host: host ?? '' }));
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (configuredOrigins.has(origin)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('vary', 'Origin');
        if (request.method === 'OPTIONS') {
          reply
            .header('access-control-allow-methods', 'GET, POST, PUT, DELETE')
            .header('access-control-allow-headers', 'content-type, authorization')
            .code(204)
            .send();
          return;
        }
      } else if (!SAFE_METHODS.has(request.method) && !allowedOrigins.has(origin)) {
        done(kernelErrors.create('ORIGIN_NOT_ALLOWED', { origin }));
        return;
      }
    }
    done();
  });
}
