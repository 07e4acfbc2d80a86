/**
 * Turns a plugin's {@link RouteDefinition} into a fastify route: tier check (402), policy (401/403), zod input
 * validation (400), the handler, and the envelope; and records the route for the base's OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { RouteDefinition, RouteRegistrar, RawResponse } from '../plugin-api.ts';
import type { BaseName } from '../plugin-manifest.ts';
import type { Entitlement } from '../entitlement.ts';
import type { AuthService, Principal } from '../auth/auth-service.ts';
import { parseInput } from './input-validation.ts';
import type { OpenApiCollector } from './openapi-document.ts';

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
}

/** Creates the registrar a plugin uses for one base. */
export function createRouteRegistrar(deps: RegistrarDeps): RouteRegistrar {
  const { app, entitlement, auth } = deps;
  return {
    base: deps.base,
    route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
      definition: RouteDefinition<P, Q, B, R>,
    ) {
      deps.openapi.add(definition, deps.owner);
      const envelope = definition.envelope !== false;
      const successStatus = definition.successStatus ?? 200;
      // Decided once per route, so a route without tier, policy or schemas pays nothing for them per request.
      const neededTier = definition.tier && definition.tier !== 'free' ? definition.tier : undefined;
      const hasInput = Boolean(definition.params || definition.query || definition.body);
      app.route({
        method: definition.method,
        url: definition.url,
        handler: async (request, reply) => {
          if (neededTier) entitlement.require(neededTier, definition.url);
          let principal: Principal | undefined;
          if (definition.policy === 'MonitorAdmin') {
            principal = await auth.requireAdmin(request.headers.authorization);
          } else if (definition.optionalAuth) {
            principal = await auth.identify(request.headers.authorization);
          }
          const input = hasInput
            ? parseInput(definition, { params: request.params, query: request.query, body: request.body })
            : { params: request.params, query: request.query, body: undefined };
          const result = await definition.handler({
            params: input.params as z.output<P>,
            query: input.query as z.output<Q>,
            body: input.body as z.output<B>,
            headers: request.headers,
            principal,
          });
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
