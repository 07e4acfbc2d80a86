/**
 * Checks a handler's answer against the route's declared response schema. On only in tests (every test instance
 * turns it on): there a mismatch is a 500 whose log names the route and every problem, so a document that drifts
 * from what is sent fails the test that calls the route. Routes no test calls are not checked.
 */
import type { z } from 'zod';
import type { RawResponse } from '../plugin-api.ts';

/** Thrown when an answer does not match its route's response schema. */
export class ResponseSchemaMismatch extends Error {
  constructor(
    readonly route: string,
    readonly problems: string[],
  ) {
    super(`${route} answered outside its response schema: ${problems.join('; ')}`);
    this.name = 'ResponseSchemaMismatch';
  }
}

function isRaw(value: unknown): value is RawResponse {
  return typeof value === 'object' && value !== null && (value as RawResponse).raw === true;
}

/**
 * Throws {@link ResponseSchemaMismatch} when `result` does not match `schema`, or holds a key the schema does not
 * name (strict: an extra field fails). A raw JSON answer is parsed and checked when it is a success (2xx); other raw
 * answers (CSV, HTML, streams) have no schema to meet.
 */
export function checkResponse(route: string, schema: z.ZodType, result: unknown): void {
  let value = result;
  if (isRaw(result)) {
    const status = result.status ?? 200;
    const json = /^application\/(.+\+)?json\b/i.test(result.contentType);
    // A streamed body is sent as it is produced; it cannot be read here without consuming it.
    if (!json || status < 200 || status >= 300 || !(typeof result.body === 'string' || Buffer.isBuffer(result.body))) return;
    try {
      value = JSON.parse(typeof result.body === 'string' ? result.body : result.body.toString('utf8'));
    } catch (error) {
      throw new ResponseSchemaMismatch(route, [`the body is not JSON (${(error as Error).message})`]);
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    // zod drops keys an object schema does not name; an answer carrying one says more than its document.
    const extra: string[] = [];
    extraKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown, parsed.data, '', extra);
    if (extra.length > 0) throw new ResponseSchemaMismatch(route, extra.slice(0, 10).map((path) => `${path}: not in the response schema`));
    return;
  }
  throw new ResponseSchemaMismatch(
    route,
    parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`),
  );
}

/** Most extra keys reported for one answer. */
const MAX_EXTRA_KEYS = 10;

/**
 * Paths of keys the answer holds and the parsed answer does not (the schema dropped them). Walks answer and parsed
 * value side by side, arrays by index; stops after {@link MAX_EXTRA_KEYS}.
 */
function extraKeys(sent: unknown, kept: unknown, path: string, out: string[]): void {
  if (out.length >= MAX_EXTRA_KEYS || typeof sent !== 'object' || sent === null || typeof kept !== 'object' || kept === null) return;
  if (Array.isArray(sent)) {
    if (!Array.isArray(kept)) return;
    for (let i = 0; i < sent.length && out.length < MAX_EXTRA_KEYS; i++) extraKeys(sent[i], kept[i], `${path}[${i}]`, out);
    return;
  }
  for (const [key, value] of Object.entries(sent)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!(key in kept)) out.push(at);
    else extraKeys(value, (kept as Record<string, unknown>)[key], at, out);
    if (out.length >= MAX_EXTRA_KEYS) return;
  }
}
