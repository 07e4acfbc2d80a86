// No route answers an untyped value: every success response schema in the three OpenAPI documents names its fields
// and their types (no `z.unknown()`, no object without properties, no record of anything), so the strict response
// check in tests (an extra field fails) covers every answer.
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const wb = useTestWorkbench();

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** Keys that say nothing about a value's type. */
const ANNOTATIONS = new Set(['description', 'example', 'examples', 'title', 'default']);

/** Paths inside `schema` whose value may be anything (`z.unknown()`, an object of anything). */
function untypedPaths(schema: Schema | undefined, path: string, components: Record<string, Schema>, seen: Set<string>, out: string[]): void {
  if (!schema) return;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    if (seen.has(name)) return;
    seen.add(name);
    untypedPaths(components[name], path, components, seen, out);
    return;
  }
  // `z.unknown()` is rendered as a bare `nullable: true`, and so is `z.null()`: the only null-only field answered is
  // the envelope's `error` of a success (a nullable value is written `.nullable()` on its type, never as a union).
  const typing = Object.keys(schema).filter((key) => !ANNOTATIONS.has(key) && key !== 'nullable');
  if (typing.length === 0 && !path.endsWith('.error')) out.push(`${path}: any value`);
  const extra = schema.additionalProperties;
  if (schema.type === 'object' && !schema.properties && (extra === undefined || extra === true)) out.push(`${path}: object of anything`);
  for (const [name, value] of Object.entries(schema.properties ?? {})) untypedPaths(value, `${path}.${name}`, components, seen, out);
  if (schema.items) untypedPaths(schema.items, `${path}[]`, components, seen, out);
  if (typeof extra === 'object') untypedPaths(extra, `${path}{}`, components, seen, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const parts = schema[key] ?? [];
    for (const [i, part] of parts.entries()) {
      // A bare `nullable: true` beside typed members is the null of a nullable union.
      const bareNull = Object.keys(part).every((k) => k === 'nullable' || ANNOTATIONS.has(k));
      if (bareNull && parts.length > 1) continue;
      untypedPaths(part, `${path}|${i}`, components, seen, out);
    }
  }
}

describe('typed responses in the OpenAPI documents', () => {
  it('names the type of every field of every success answer', async () => {
    const found: string[] = [];
    for (const base of ['bridge', 'monitor', 'population'] as const) {
      const document = (await wb.call(base, { path: '/openapi.json' })).json;
      const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
      for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>)) {
        for (const [method, operation] of Object.entries(methods)) {
          for (const [status, response] of Object.entries(operation.responses)) {
            if (Number(status) >= 400) continue;
            for (const [type, content] of Object.entries(response.content ?? {})) {
              untypedPaths(content.schema, `${method.toUpperCase()} ${path} ${status} ${type}`, components, new Set(), found);
            }
          }
        }
      }
    }
    expect(found).toEqual([]);
  });
});
