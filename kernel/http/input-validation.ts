/**
 * Validates route input (params, query, body) with the route's zod schemas and reports every problem at once:
 * 400 VALIDATION_FAILED with `details` listing the location and path of each.
 */
import type { z } from 'zod';
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
