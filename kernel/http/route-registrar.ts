/**
 * Turns a plugin's {@link RouteDefinition} into a fastify route: tier check (402), policy (401/403), zod input
 * validation (400), the handler, the response check (when on) and the envelope; and records the route for the base's
 * OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { RouteDefinition, RouteRegistrar, RawResponse } from '../plugin-api.ts';
import type { BaseName } from '../plugin-host/plugin-manifest.ts';
import type { Entitlement, Tier } from '../entitlement.ts';
import type { AuthService, Principal } from '../auth/auth-service.ts';
import type { EventBus } from '../events.ts';
import { WorkbenchError } from '../errors.ts';
import type { CredentialRefusedEvent } from '../auth/auth-events.ts';
import { kernelErrors } from '../errors.ts';
import { parseInput } from './input-validation.ts';
import { isPagedAnswer } from './paging.ts';
import { loneSurrogatePath } from './well-formed-text.ts';
import { requireJsonDepth } from '../lib/input/json-depth.ts';
import { refuseControlCharacters } from './identifier-text.ts';
import { FORM_CONTENT_TYPE, acceptTextBodies, mediaTypeOf } from './body-types.ts';
import type { OpenApiCollector } from './openapi-document.ts';
import { checkResponse } from './response-check.ts';
import { checkRouteExamples } from './example-check.ts';
import type { HeavyRequestGate } from './heavy-request-gate.ts';
import type { RequestTurns } from './request-turns.ts';
import type { FeatureSwitches } from '../feature-switches.ts';

function isRawResponse(value: unknown): value is RawResponse {
  return typeof value === 'object' && value !== null && (value as RawResponse).raw === true;
}

/** Services a registrar needs. */
export interface RegistrarDeps {
  app: FastifyInstance;
  base: BaseName;
  entitlement: Entitlement;
  auth: AuthService;
  openapi: OpenApiCollector;
  /** Owner of the routes (plugin id), for the docs' tags. */
  owner: string;
  /** Tier of a route that declares none: the owner's manifest tier. */
  defaultTier: Tier;
  /**
   * Check every answer against the route's response schema (a mismatch is a 500), and the route's examples against
   * its schemas at registration (a mismatch is a boot error). Tests turn this on.
   */
  checkResponses: boolean;
  /** Where refused credentials are announced (`auth.credential-refused`). */
  events: EventBus;
  /** Admission of the requests of `heavy` routes. */
  gate: HeavyRequestGate;
  /** Turns of the event loop that requests of routes not `urgent` take. */
  turns: RequestTurns;
  /** The flag that switches these routes off (404 FEATURE_DISABLED), or null for routes that are always on. */
  featureFlag: string | null;
  /** Reads the flags. */
  switches: FeatureSwitches;
}

type Headers = Record<string, string | string[] | undefined>;

/** What kind of credential a request presented, and a key's public prefix (never its secret). */
function presentedCredential(headers: Headers, sessionPresented: boolean): Pick<CredentialRefusedEvent, 'credentialKind' | 'keyPrefix'> {
  const authorization = typeof headers.authorization === 'string' ? headers.authorization : '';
  const token = /^Bearer[ ]+(\S+)/i.exec(authorization)?.[1];
  if (token?.startsWith('wbk_')) {
    const prefix = /^wbk_[a-z0-9]{1,12}/.exec(token)?.[0];
    return { credentialKind: 'api-key', ...(prefix ? { keyPrefix: prefix } : {}) };
  }
  if (authorization !== '') return { credentialKind: 'bearer' };
  return { credentialKind: sessionPresented ? 'session' : 'none' };
}

function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/** Longest text a string of an example keeps in a one-line example. */
const EXAMPLE_TEXT_CHARS = 24;

/**
 * A route's JSON example body on one line, long strings cut (`"MSH|^~\\&|ADT1|GOOD HEAL..."`), for a 415 that shows
 * what to send; undefined when the route has no example body.
 */
function oneLineExample(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return JSON.stringify(body, (_key, value: unknown) =>
    typeof value === 'string' && value.length > EXAMPLE_TEXT_CHARS ? `${value.slice(0, EXAMPLE_TEXT_CHARS)}...` : value,
  );
}

/** Creates the registrar a plugin uses for one base. */
export function createRouteRegistrar(deps: RegistrarDeps): RouteRegistrar {
  const { app, entitlement, auth, events, gate } = deps;
  return {
    base: deps.base,
    route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
      declared: RouteDefinition<P, Q, B, R>,
    ) {
      const definition: RouteDefinition<P, Q, B, R> = { ...declared, tier: declared.tier ?? deps.defaultTier };
      if (deps.checkResponses) checkRouteExamples(`${definition.method} ${definition.url}`, definition);
      // The kernel's own refusals of this route: a switchable group may be switched off.
      deps.openapi.add(definition, deps.owner, deps.featureFlag !== null ? ['FEATURE_DISABLED'] : []);
      const envelope = definition.envelope !== false;
      const successStatus = definition.successStatus ?? 200;
      // Decided once per route, so a route without tier, policy or schemas pays nothing for them per request.
      const neededTier = definition.tier !== 'free' ? definition.tier : undefined;
      const hasInput = Boolean(definition.params || definition.query || definition.body);
      const routeName = `${definition.method} ${definition.url}`;
      const urgent = definition.urgent === true;
      const identifies = definition.policy === 'MonitorAdmin' || definition.minimumRole !== undefined || definition.optionalAuth;
      const rawTypes = new Set((definition.rawBody?.contentTypes ?? []).map((type) => type.toLowerCase()));
      acceptTextBodies(app, rawTypes);
      const accepted = ['application/json', ...rawTypes];
      const jsonExample = oneLineExample(definition.examples?.body);
      // The JSON form of a route that takes no raw body is shown in its 415, so the caller sees what to send.
      if (jsonExample && rawTypes.size === 0) accepted[0] = `application/json, for example ${jsonExample}`;
      app.route({
        method: definition.method,
        url: definition.url,
        // Read by the error handler, so a 415 names what this route accepts.
        config: { acceptedContentTypes: accepted },
        // Before the body is read: a waiting request holds its socket's buffers, not its body.
        ...(definition.heavy
          ? {
              onRequest: async (request, reply) => {
                if (!gate.needsSlot(declaredLength(request.headers['content-length']))) return;
                const release = await gate.acquire((onAbandon) => reply.raw.once('close', onAbandon));
                // The response is done or the caller went away: either way the slot is free again.
                if (reply.raw.writableFinished || reply.raw.destroyed) release();
                else reply.raw.once('close', release);
              },
            }
          : {}),
        handler: async (request, reply) => {
          if (!urgent) {
            const turn = deps.turns.take();
            if (turn) await turn;
          }
          if (neededTier) entitlement.require(neededTier, definition.url);
          let principal: Principal | undefined;
          if (identifies) {
            try {
              if (definition.policy === 'MonitorAdmin') principal = await auth.requireAdminRequest(request.headers);
              else if (definition.minimumRole) {
                principal = await auth.requireRoleIfIdentified(request.headers, definition.minimumRole);
              } else principal = await auth.identifyRequest(request.headers);
            } catch (error) {
              if (error instanceof WorkbenchError && (error.status === 401 || error.status === 403)) {
                const credential = presentedCredential(request.headers, request.headers.cookie !== undefined);
                // A request that presented nothing is not a refused credential; everything else is announced.
                if (credential.credentialKind !== 'none') {
                  // A valid credential without the role names its holder, so the refusal is on record as theirs.
                  const holder = error.status === 403 ? await auth.identifyRequest(request.headers).catch(() => undefined) : undefined;
                  events.emit('auth.credential-refused', {
                    status: error.status,
                    reason: error.message,
                    ...credential,
                    ...(holder ? { holder: { kind: holder.kind, subject: holder.subject } } : {}),
                    method: request.method,
                    url: request.url.split('?')[0],
                    requestId: String(request.id),
                    sourceAddress: request.ip,
                  });
                }
              }
              throw error;
            }
          }
          // After identification, so an organisation's own flags apply to its callers.
          if (deps.featureFlag !== null) await deps.switches.require(deps.featureFlag, principal?.organizationId);
          let body: unknown = request.body;
          if (typeof body === 'object' && body !== null) {
            const at = loneSurrogatePath(body);
            if (at !== undefined) {
              const problem = 'holds a lone UTF-16 surrogate (half of a pair, e.g. \\ud800), which is not text; send well-formed Unicode';
              throw kernelErrors.create('VALIDATION_FAILED', { summary: `body.${at} ${problem}` }, [{ location: 'body', path: at, message: problem }]);
            }
          }
          if (typeof body === 'string') {
            const mediaType = mediaTypeOf(request.headers['content-type']);
            if (rawTypes.has(mediaType) && definition.rawBody) {
              // The text is the message; the other parameters come from the query string.
              const { query } = parseInput({ query: definition.query }, { params: {}, query: request.query, body: undefined });
              body = definition.rawBody.toBody(body, query as z.output<Q>);
            } else if (mediaType === FORM_CONTENT_TYPE && /^\s*[{[]/.test(body)) {
              // `curl -d '{...}'` sends JSON labelled as a form: read it as the JSON it is.
              requireJsonDepth(body, 'the request body');
              try {
                body = JSON.parse(body);
              } catch (error) {
                throw kernelErrors.create('INVALID_JSON', { reason: (error as Error).message });
              }
            } else if (mediaType === FORM_CONTENT_TYPE && definition.rawBody) {
              // `curl --data-binary @message.hl7` without a content type labels the file as a form; no route here
              // takes forms, so a route that reads raw messages reads it as one.
              const { query } = parseInput({ query: definition.query }, { params: {}, query: request.query, body: undefined });
              body = definition.rawBody.toBody(body, query as z.output<Q>);
            } else {
              throw kernelErrors.create('UNSUPPORTED_MEDIA_TYPE', {
                contentType: request.headers['content-type'] ?? '(none)',
                accepted: accepted.join(', '),
              });
            }
          }
          if (definition.rawBody?.isMessage && body !== null && typeof body === 'object' && definition.rawBody.isMessage(body)) {
            // A JSON body that is the message itself (a FHIR resource posted as application/json).
            const { query } = parseInput({ query: definition.query }, { params: {}, query: request.query, body: undefined });
            body = definition.rawBody.toBody(body as Record<string, unknown>, query as z.output<Q>);
          }
          refuseControlCharacters(request.params, request.query, body);
          const input = hasInput
            ? parseInput(definition, { params: request.params, query: request.query, body })
            : { params: request.params, query: request.query, body: undefined };
          const result = await definition.handler({
            params: input.params as z.output<P>,
            query: input.query as z.output<Q>,
            body: input.body as z.output<B>,
            headers: request.headers,
            principal,
            requestId: String(request.id),
            sourceAddress: request.ip,
          });
          if (isPagedAnswer(result)) {
            if (deps.checkResponses) checkResponse(routeName, definition.response, result.data);
            reply.code(successStatus);
            return { success: true, data: result.data, error: null, page: result.page };
          }
          if (deps.checkResponses) checkResponse(routeName, definition.response, result);
          if (isRawResponse(result)) {
            reply.code(result.status ?? successStatus).type(result.contentType);
            if (result.headers) for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
            return reply.send(result.body);
          }
          reply.code(successStatus);
          return envelope ? { success: true, data: result, error: null } : result;
        },
      });
    },
  };
}

/**
 * The registrar of a plugin whose manifest declares base `none`: registering a route is a boot error (the route
 * would otherwise be served nowhere, silently).
 */
export function createRefusingRegistrar(owner: string): RouteRegistrar {
  return {
    get base(): BaseName {
      throw new Error(`plugin "${owner}" declares base "none" in plugin.json, so it has no base to serve routes on`);
    },
    route(definition) {
      throw new Error(
        `plugin "${owner}" registers ${definition.method} ${definition.url} but its plugin.json declares base "none"; ` +
          'declare the base that serves it (bridge, monitor or population)',
      );
    },
  };
}

/**
 * The registrar of a Workbench booted without servers (one-shot CLI commands): routes are accepted and not served.
 */
export function createOfflineRegistrar(base: BaseName): RouteRegistrar {
  return { base, route: () => undefined };
}
