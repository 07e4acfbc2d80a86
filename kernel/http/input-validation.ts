/**
 * Validates route input (params, query, body) with the route's zod schemas and reports every problem at once:
 * 400 VALIDATION_FAILED with `details` listing the location and path of each.
 */
import { z } from 'zod';
import { kernelErrors } from '../errors.ts';

/** One schema problem. */
export interface InputProblem {
  location: 'params' | 'query' | 'body';
  path: string;
  message: string;
}

/** Parsed input of a request. */
export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

function check(
  location: InputProblem['location'],
  schema: z.ZodType | undefined,
  value: unknown,
  problems: InputProblem[],
): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    problems.push({ location, path: issue.path.map(String).join('.') || '(root)', message: issue.message });
  }
  return undefined;
}

/** Parses the three parts; throws VALIDATION_FAILED naming every problem. */
export function parseInput(
  schemas: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  raw: ParsedInput,
): ParsedInput {
  const problems: InputProblem[] = [];
  const params = check('params', schemas.params, raw.params, problems);
  const query = check('query', schemas.query, raw.query, problems);
  const body = check('body', schemas.body, raw.body ?? undefined, problems);
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.location}.${p.path}: ${p.message}`).join('; ');
    throw kernelErrors.create('VALIDATION_FAILED', { summary }, problems);
  }
  return { params, query, body };
}

/**
 * A timestamp in a query or body: an ISO 8601 date-time with `Z` or an offset (`2026-03-01T12:00:00Z`), or a date
 * (`2026-03-01`, meaning its UTC midnight); parsed to a Date.
 */
export const timestampInput = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'must be an ISO 8601 timestamp such as 2026-03-01T12:00:00Z or a date such as 2026-03-01',
  })
  .transform((text) => new Date(text.length === 10 ? `${text}T00:00:00Z` : text));
