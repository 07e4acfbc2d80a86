/**
 * The one paging form of every list route: the caller sends `limit` (how many at most) and `cursor` (the `next` of
 * the page before); the answer's envelope carries `page: {next, truncated, limit}` beside `data`. `next` is null
 * when nothing more matches now; `truncated` says the limit cut the list (more follow after `next`). Pages are keyset
 * pages: a cursor is the sort key of the last item handed out, so an insert or delete between two pages neither
 * repeats nor skips an item. Cursors are opaque to callers; a cursor this service did not give out is 400
 * CURSOR_INVALID.
 */
import { z } from 'zod';
import { kernelErrors } from '../errors.ts';

/** One value of a sort key. */
export type KeyPart = string | number;

/** The paging facts an answer's envelope carries. */
export interface PageInfo {
  /** Cursor of the following page, or null when nothing more matches now. */
  next: string | null;
  /** True when the limit cut the list (there is a following page). */
  truncated: boolean;
  /** The limit the page was read with. */
  limit: number;
}

/** Zod schema of {@link PageInfo}, for the OpenAPI documents. */
export const pageInfoSchema = z.object({
  next: z.string().nullable().describe('Pass as cursor to read the following page; null when nothing more matches now.'),
  truncated: z.boolean().describe('True when the limit cut the list.'),
  limit: z.number(),
});

/** A page of items and its paging facts. */
export interface Page<T> extends PageInfo {
  items: T[];
}

/** Longest cursor text accepted. */
const MAX_CURSOR_LENGTH = 400;

/**
 * The `cursor` and `limit` query parameters of a list route: `limit` 1..`max` (default `fallback`), `cursor` the
 * `next` of an earlier page.
 */
export function pageQueryShape(fallback = 100, max = 1000) {
  return {
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
    limit: z.coerce.number().int().min(1).max(max).default(fallback),
  };
}

/** A sort key as a cursor (base64url of its JSON). */
export function encodeCursor(key: readonly KeyPart[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * The sort key of a cursor; `kinds` gives the type of each part. A cursor that does not decode to such a key is 400
 * CURSOR_INVALID naming the `cursor` parameter.
 */
export function decodeCursor(cursor: string, kinds: ReadonlyArray<'string' | 'number'>): KeyPart[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid = Array.isArray(key) && key.length === kinds.length && key.every((part, i) => typeof part === kinds[i]);
  if (!valid) {
    const shown = cursor.length > 60 ? `${cursor.slice(0, 60)}…` : cursor;
    throw kernelErrors.create('CURSOR_INVALID', { cursor: shown }, [
      { location: 'query', path: 'cursor', message: 'not a cursor this list gave out' },
    ]);
  }
  return key as KeyPart[];
}

/**
 * The page of rows read with `limit + 1`: at most `limit` items, and when one more was read, `next` is the cursor of
 * the last item kept and `truncated` is true.
 */
export function pageOf<T>(rows: readonly T[], limit: number, keyOf: (row: T) => readonly KeyPart[]): Page<T> {
  if (rows.length <= limit) return { items: [...rows], next: null, truncated: false, limit };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(keyOf(items[items.length - 1] as T)), truncated: true, limit };
}

/** What a list route's handler returns: its `data` and the envelope's `page` (see {@link pagedAnswer}). */
export interface PagedAnswer<D> {
  paged: true;
  data: D;
  page: PageInfo;
}

/** The answer of a list route: the route's `data` (usually the page's items) and its paging facts. */
export function pagedAnswer<D>(data: D, page: PageInfo): PagedAnswer<D> {
  return { paged: true, data, page: { next: page.next, truncated: page.truncated, limit: page.limit } };
}

/** True for a {@link PagedAnswer}. */
export function isPagedAnswer(value: unknown): value is PagedAnswer<unknown> {
  return typeof value === 'object' && value !== null && (value as PagedAnswer<unknown>).paged === true && 'page' in value;
}
