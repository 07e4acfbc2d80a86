/**
 * One fastify instance per base address, bound to loopback only, with the request guard, error handling and the
 * OpenAPI/docs routes installed before any plugin adds its own.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { BaseName } from '../plugin-host/plugin-manifest.ts';
import { createGuardedServer } from './request-guard.ts';
import type { DiskWatch } from '../store/disk-full.ts';
import { MAX_JSON_DEPTH, jsonNestingDepth, jsonTooDeep } from '../lib/input/json-depth.ts';
import { installErrorHandling, type RouteLocator } from './error-handling.ts';
import { FORM_CONTENT_TYPE, acceptTextBodies } from './body-types.ts';
import { OpenApiCollector, type ErrorLookup } from './openapi-document.ts';
import { installDocs } from './docs-page.ts';
import { answerClientError, answerFrameworkError } from './protocol-errors.ts';

/** Settings of one base server. */
export interface BaseServerSettings {
  name: BaseName;
  host: string;
  port: number;
  bodyLimit: number;
  allowedOrigins: string[];
  logger: Logger;
  version: string;
  /** Finds the other base that serves a route this one lacks (its 404 then says where to go). */
  locateRoute?: RouteLocator;
  /** Status and message of an error code, for the error responses of the OpenAPI document. */
  lookupError?: ErrorLookup;
  /** The other bases' addresses, for the links of the docs page. */
  otherBases?: () => ReadonlyArray<{ base: string; url: string }>;
  /** Told of every failed request; a write refused for want of space is answered 507 STORAGE_FULL through it. */
  disk?: DiskWatch;
}

/** A base server before and after listening. */
export interface BaseServer {
  readonly name: BaseName;
  readonly app: FastifyInstance;
  readonly openapi: OpenApiCollector;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /** The base URL (after listen). */
  url(): string;
  /** The bound port (after listen). */
  port(): number;
  close(): Promise<void>;
}

const TITLES: Record<BaseName, string> = {
  bridge: 'Healthcare Integration Workbench — bridge (messages)',
  monitor: 'Healthcare Integration Workbench — monitor',
  population: 'Healthcare Integration Workbench — population',
};

/** The environment variable that moves each base to another port. */
export const PORT_VARIABLE_OF: Record<BaseName, string> = {
  bridge: 'WORKBENCH_BRIDGE_PORT',
  monitor: 'WORKBENCH_MONITOR_PORT',
  population: 'WORKBENCH_POPULATION_PORT',
};

/** Thrown when a base cannot listen; the message says which base, which address and how to move it. */
export class ListenError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
    this.name = 'ListenError';
  }
}

/** A failure to listen as the person starting the service needs it: base, address, cause and the way out. */
function listenFailure(settings: BaseServerSettings, error: NodeJS.ErrnoException): ListenError {
  const address = `${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`;
  const move = `set ${PORT_VARIABLE_OF[settings.name]} (or servers.${settings.name}.port in the config) to a free port, or 0 for any`;
  if (error.code === 'EADDRINUSE') {
    return new ListenError(`The ${settings.name} base cannot listen on ${address}: the port is already in use (another Workbench?); ${move}.`, error.code);
  }
  if (error.code === 'EACCES') {
    return new ListenError(`The ${settings.name} base may not listen on ${address} (permission denied); ${move}.`, error.code);
  }
  return new ListenError(`The ${settings.name} base cannot listen on ${address}: ${error.message}`, error.code);
}

/** Creates a base server (not yet listening). */
export function createBaseServer(settings: BaseServerSettings): BaseServer {
  let boundPort = settings.port;
  let closing = false;
  const app = Fastify({
    // No per-request logger: fastify would build a child logger for every request even with request logging off,
    // which costs more than the rest of the kernel's per-request work. Failures are logged by the error handler.
    logger: false,
    bodyLimit: settings.bodyLimit,
    // Keep-alive sockets must not hold shutdown beyond its 5 s budget.
    forceCloseConnections: true,
    // The guard answers requests that arrive while closing, in the envelope (503 SERVICE_STOPPING).
    return503OnClosing: false,
    // Protocol and router errors in the envelope too, never fastify's or Node's own bodies.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Request ids appear in audit records and logs: unique across restarts, not a per-process counter.
    genReqId: () => randomUUID(),
    // Our own error catalogue answers for bad JSON; prototype poisoning is refused as invalid JSON.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    serverFactory: (handler) =>
      createGuardedServer(handler, {
        getPort: () => boundPort,
        allowedOrigins: settings.allowedOrigins,
        isClosing: () => closing,
      }),
  });
  // JSON bodies are the rule. Text arrives as text only where a route declares it (rawBody); a form-encoded body is
  // read as text so the route registrar can accept `curl -d '{...}'` as the JSON it is (see body-types.ts).
  app.removeContentTypeParser('text/plain');
  // JSON bodies are read by fastify's own parser (prototype poisoning refused) once their nesting is known to be within
  // the service's one depth limit: deeper JSON is 400 JSON_TOO_DEEP before anything parses or walks it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestingDepth(body as string) > MAX_JSON_DEPTH) {
      done(jsonTooDeep('the request body'), undefined);
      return;
    }
    // the callback form: it answers through done and returns nothing to wait for
    void parseJson(request, body as string, done);
  });
  acceptTextBodies(app, [FORM_CONTENT_TYPE]);
  const hostForUrl = settings.host === '::1' ? '[::1]' : settings.host;
  const url = (): string => `http://${hostForUrl}:${boundPort}`;
  const openapi = new OpenApiCollector(TITLES[settings.name], settings.version, settings.lookupError);
  installErrorHandling(app, settings.bodyLimit, settings.logger.child({ base: settings.name }), {
    base: settings.name,
    locate: (method, path) => settings.locateRoute?.(method, path),
    ...(settings.disk ? { disk: settings.disk } : {}),
  });
  installDocs(app, openapi, TITLES[settings.name], settings.otherBases);
  let closed = false;
  return {
    name: settings.name,
    app,
    openapi,
    async listen() {
      try {
        await app.listen({ host: settings.host, port: settings.port });
      } catch (error) {
        throw listenFailure(settings, error as NodeJS.ErrnoException);
      }
      const address = app.server.address();
      if (address && typeof address === 'object') boundPort = address.port;
      return url();
    },
    url,
    port: () => boundPort,
    async close() {
      if (closed) return;
      closed = true;
      closing = true;
      await app.close();
    },
  };
}
