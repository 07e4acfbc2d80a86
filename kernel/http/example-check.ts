/**
 * Checks a route's OpenAPI examples against the route's own zod schemas. On only in tests (with the response check):
 * there a route whose example does not parse is a boot error naming the route and every problem, so an example that
 * drifts from what the route accepts and answers fails the suite. A running service does not check them.
 */
import type { z } from 'zod';
import type { RouteDefinition } from '../plugin-api.ts';

/** Thrown when a route's example does not match the route's schema. */
export class RouteExampleMismatch extends Error {
  constructor(
    readonly route: string,
    readonly problems: string[],
  ) {
    super(`${route} has examples outside its schemas: ${problems.join('; ')}`);
    this.name = 'RouteExampleMismatch';
  }
}

function problemsOf(part: string, schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${part}.${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
}

/** Values as a URL carries them: every query and path parameter arrives as text. */
function asSent(values: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]));
}

/**
 * Throws {@link RouteExampleMismatch} when an example of `definition` does not parse with the matching schema: the
 * body with `body`, the raw body (turned into a body as a request would be, with the example query) with `body`,
 * query and path parameters (as text, as a URL sends them) with `query` and `params`, the response with `response`.
 * An example for a part the route does not declare is a mismatch too. Takes routes of any schema types.
 */
export function checkRouteExamples(route: string, definition: RouteDefinition<any, any, any, any>): void {
  const examples = definition.examples;
  if (!examples) return;
  const problems: string[] = [];
  const undeclared = (part: string) => problems.push(`${part}: the route declares no ${part} schema`);
  let query: unknown = {};
  if (examples.query !== undefined) {
    if (!definition.query) undeclared('query');
    else {
      const parsed = (definition.query as z.ZodType).safeParse(asSent(examples.query));
      if (parsed.success) query = parsed.data;
      else problems.push(...problemsOf('query', definition.query as z.ZodType, asSent(examples.query)));
    }
  }
  if (examples.params !== undefined) {
    if (!definition.params) undeclared('params');
    else problems.push(...problemsOf('params', definition.params as z.ZodType, asSent(examples.params)));
  }
  if (examples.body !== undefined) {
    if (!definition.body) undeclared('body');
    else problems.push(...problemsOf('body', definition.body as z.ZodType, examples.body));
  }
  if (examples.rawBody !== undefined) {
    if (!definition.rawBody || !definition.body) undeclared('rawBody');
    else {
      const raw = typeof examples.rawBody === 'string' ? { '*': examples.rawBody } : examples.rawBody;
      for (const [type, text] of Object.entries(raw)) {
        if (type !== '*' && !definition.rawBody.contentTypes.includes(type)) {
          problems.push(`rawBody: ${type} is not one of the route's raw content types`);
          continue;
        }
        const part = type === '*' ? 'rawBody' : `rawBody (${type})`;
        let body: unknown;
        try {
          body = definition.rawBody.toBody(text, query);
        } catch (error) {
          problems.push(`${part}: ${(error as Error).message}`);
        }
        if (body !== undefined) problems.push(...problemsOf(part, definition.body as z.ZodType, body));
      }
    }
  }
  if (examples.response !== undefined) problems.push(...problemsOf('response', definition.response as z.ZodType, examples.response));
  if (problems.length > 0) throw new RouteExampleMismatch(route, problems);
}
