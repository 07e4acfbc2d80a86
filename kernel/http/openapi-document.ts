/**
 * Collects the routes of one base and builds its OpenAPI 3 document from their zod schemas
 * (@asteasolutions/zod-to-openapi). The document is built once, on first request, after every plugin registered.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import type { RouteDefinition } from '../plugin-api.ts';
import { envelopeSchema, errorEnvelopeSchema } from './envelope.ts';

type AnyRoute = RouteDefinition<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

/** How the document finds an error code's status and message (the process's error registry). */
export type ErrorLookup = (code: string) => { status: number; message: string } | undefined;

const ERROR_RESPONSES: Record<number, string> = {
  400: 'Malformed request (details list each problem with its path)',
  401: 'Missing or invalid credentials',
  402: 'The configured licence tier is below the one this route needs',
  403: 'Forbidden (foreign Host or Origin, or the caller lacks the role)',
  404: 'Unknown route or identifier',
  409: 'Conflicts with the current state',
  413: 'Body over the size limit',
  415: 'Body of a content type the route does not read',
  500: 'Internal error (no internals shown)',
  502: 'A server the route needs answered badly or not at all',
  503: 'Busy or unavailable for now; retry later',
  507: 'Not enough disk for the work',
};

/** Gathers route definitions for one base and renders the document. */
export class OpenApiCollector {
  private readonly routes: Array<{ definition: AnyRoute; owner: string; implied: readonly string[] }> = [];
  private document: unknown;

  constructor(
    private readonly title: string,
    private readonly version: string,
    private readonly lookupError: ErrorLookup = () => undefined,
  ) {}

  // accepts routes of any schema types
  add(definition: RouteDefinition<any, any, any, any>, owner: string, implied: readonly string[] = []): void {
    this.routes.push({ definition, owner, implied });
    this.document = undefined;
  }

  /**
   * The error codes a route may answer, by status: its own (`errors`), the kernel's for its policy, tier, heavy and
   * switch, and VALIDATION_FAILED and ROUTE_NOT_FOUND every route may answer. A code no catalogue knows is reported
   * under status 0, so a test can name it.
   */
  errorCodesOf(method: string, url: string): Map<number, string[]> {
    const route = this.routes.find((r) => r.definition.method === method && r.definition.url === url);
    const byStatus = new Map<number, string[]>();
    if (!route) return byStatus;
    const { definition, implied } = route;
    const codes = ['VALIDATION_FAILED', 'ROUTE_NOT_FOUND', ...implied, ...(definition.errors ?? [])];
    if (definition.body) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INVALID_JSON');
    if (definition.policy || definition.minimumRole || definition.optionalAuth) codes.push('UNAUTHORIZED');
    if (definition.policy || definition.minimumRole) codes.push('FORBIDDEN');
    if (definition.tier && definition.tier !== 'free') codes.push('TIER_REQUIRED');
    if (definition.heavy) codes.push('SERVER_BUSY');
    for (const code of new Set(codes)) {
      const status = this.lookupError(code)?.status ?? 0;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    return byStatus;
  }

  /** True when one of the collected routes answers `method path` (path parameters match any segment). */
  serves(method: string, path: string): boolean {
    return this.routes.some(({ definition }) => {
      if (definition.method !== method.toUpperCase()) return false;
      const pattern = definition.url
        .split('/')
        .map((segment: string) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return new RegExp(`^${pattern}/?$`).test(path);
    });
  }

  /**
   * The OpenAPI 3.0 document, its `servers` entry the address the caller used (`localhost` or `127.0.0.1`), so the
   * docs page's "Try it out" works from either. Built once, after every plugin registered.
   */
  build(serverUrl: string, otherDocs: ReadonlyArray<{ base: string; url: string }> = []): unknown {
    this.document ??= this.render();
    const document = this.document as { info: Record<string, unknown> };
    return { ...document, info: { ...document.info, description: this.guide(otherDocs) }, servers: [{ url: serverUrl }] };
  }

  /**
   * What the docs page says above the operations: which operation creates what the routes with an id name (so an
   * example id is not the first thing tried), how to get a credential, and links to the other bases and the README.
   */
  guide(otherDocs: ReadonlyArray<{ base: string; url: string }>): string {
    const creators: string[] = [];
    const seen = new Set<string>();
    for (const { definition } of this.routes) {
      const at = definition.url.indexOf('/:');
      if (at < 0) continue;
      const collection = definition.url.slice(0, at);
      if (seen.has(collection)) continue;
      const creator = this.routes.find((r) => r.definition.method === 'POST' && r.definition.url === collection);
      if (!creator) continue;
      seen.add(collection);
      creators.push(`- \`${collection}/{...}\` names what \`POST ${collection}\` creates: call it first and use the id it answers (the examples' ids exist only on the machine they were written on).`);
    }
    const lines = creators.length > 0 ? ['**Create first.**', ...creators, ''] : ['Every operation works on what the request carries: nothing needs creating first.', ''];
    if (this.routes.some((r) => r.definition.policy || r.definition.minimumRole)) {
      lines.push('**Credentials.** Operations with a lock need `Authorization: Bearer <API key>`: `workbench keys create --role MonitorAdmin` prints one; paste it under *Authorize*.', '');
    }
    const links = otherDocs.map((other) => `[${other.base}](${other.url}/docs)`);
    lines.push(`**Other bases:** ${links.join(' · ') || 'none'} · [README](/docs/README.md)`);
    return lines.join('\n');
  }

  private render(): unknown {
    const registry = new OpenAPIRegistry();
    for (const { definition, owner } of this.routes) {
      const path = definition.url.replace(/:(\w+)/g, '{$1}');
      const successSchema = definition.envelope === false ? definition.response : envelopeSchema(definition.response, definition.paged === true);
      const responses: Record<number, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
        [definition.successStatus ?? 200]: {
          description: 'Success',
          content: { 'application/json': { schema: successSchema } },
        },
      };
      for (const [status, description] of Object.entries(definition.otherStatuses ?? {})) {
        responses[Number(status)] = { description, content: { 'application/json': { schema: successSchema } } };
      }
      const byStatus = this.errorCodesOf(definition.method, definition.url);
      byStatus.set(500, ['INTERNAL_ERROR']);
      byStatus.delete(0);
      for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
        const codes = byStatus.get(status) as string[];
        // Each code with its message, so the docs say what each refusal means and what to do about it.
        const lines = codes.map((code) => `\`${code}\`: ${this.lookupError(code)?.message ?? ''}`);
        responses[status] = {
          description: [ERROR_RESPONSES[status] ?? 'Refused', ...lines].join('\n\n'),
          content: { 'application/json': { schema: errorEnvelopeSchema } },
        };
      }
      const descriptionParts = [definition.description ?? ''];
      if (definition.tier && definition.tier !== 'free') descriptionParts.push(`Tier: ${definition.tier}.`);
      if (definition.policy) descriptionParts.push(`Policy: ${definition.policy} (Authorization: Bearer).`);
      registry.registerPath({
        method: definition.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete',
        path,
        summary: definition.summary,
        description: descriptionParts.filter(Boolean).join(' '),
        tags: definition.tags ?? [owner],
        ...(definition.policy ? { security: [{ bearer: [] }] } : {}),
        request: {
          ...(definition.params ? { params: definition.params as z.ZodObject } : {}),
          ...(definition.query ? { query: definition.query as z.ZodObject } : {}),
          ...(definition.body ? { body: { required: true, content: requestContent(definition) } } : {}),
        },
        responses,
      });
    }
    registry.registerComponent('securitySchemes', 'bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key made by `workbench keys create --role MonitorAdmin`, or a JWT.',
    });
    const generator = new OpenApiGeneratorV3(registry.definitions);
    const document = generator.generateDocument({ openapi: '3.0.3', info: { title: this.title, version: this.version } });
    for (const { definition } of this.routes) addExamples(document, definition);
    return document;
  }
}

/** The request body's media types: JSON with its schema and example, then each raw type as text. */
function requestContent(definition: AnyRoute): Record<string, { schema: z.ZodType | { type: 'string' }; example?: unknown }> {
  const content: Record<string, { schema: z.ZodType | { type: 'string' }; example?: unknown }> = {
    'application/json': {
      schema: definition.body as z.ZodType,
      ...(definition.examples?.body === undefined ? {} : { example: definition.examples.body }),
    },
  };
  for (const type of definition.rawBody?.contentTypes ?? []) {
    const example = rawExampleFor(definition.examples?.rawBody, type);
    content[type] = { schema: { type: 'string' }, ...(example === undefined ? {} : { example }) };
  }
  return content;
}

/** A route's raw-body example for one content type: the one given for that type, or the one given for all. */
export function rawExampleFor(rawBody: string | Readonly<Record<string, string>> | undefined, contentType: string): string | undefined {
  return typeof rawBody === 'string' ? rawBody : rawBody?.[contentType];
}

interface OperationLike {
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

/** Writes a route's query, path and response examples into the generated document. */
function addExamples(document: { paths?: unknown }, definition: AnyRoute): void {
  const examples = definition.examples;
  if (!examples) return;
  const path = definition.url.replace(/:(\w+)/g, '{$1}');
  const operation = (document.paths as Record<string, Record<string, OperationLike>> | undefined)?.[path]?.[
    definition.method.toLowerCase()
  ];
  if (!operation) return;
  for (const parameter of operation.parameters ?? []) {
    const values = parameter.in === 'query' ? examples.query : parameter.in === 'path' ? examples.params : undefined;
    if (values && values[parameter.name] !== undefined) parameter.example = values[parameter.name];
  }
  if (examples.response !== undefined) {
    const success = operation.responses?.[String(definition.successStatus ?? 200)]?.content?.['application/json'];
    if (success) {
      success.example =
        definition.envelope === false ? examples.response : { success: true, data: examples.response, error: null };
    }
  }
}
