// The pages' reading of the API's keyset-paged lists (`limit` and `cursor` in, `data` and `page: {next, truncated,
// limit}` out): pages read one after another from a cursor, up to a bound. Plain module, so Node can run it too; the
// views use it through paged-lists.js.
import { apiEnvelope } from './http.js';

/** The largest `limit` a list route takes. */
export const LARGEST_PAGE = 1000;

/** How many pages a whole-list read follows at most before it stops and says the list was cut. */
export const MOST_PAGES = 10;

/** `path` with `limit` and, when given, `cursor` added to its query. */
export function pagePath(path, limit, cursor) {
  const [base, query = ''] = path.split('?');
  const search = new URLSearchParams(query);
  search.set('limit', String(limit));
  if (cursor) search.set('cursor', cursor);
  else search.delete('cursor');
  return `${base}?${search.toString()}`;
}

/**
 * Reads a paged list from its start (or from `cursor`), following `page.next`, for at most `pages` pages of `limit` items. Answers the
 * items in the API's order, `next` (the cursor after the last item read, null when the list ended) and `cut` (true
 * when the bound stopped the reading while more items follow).
 */
export async function readPages(path, { limit = LARGEST_PAGE, pages = MOST_PAGES, cursor: from = null, signal } = {}) {
  const items = [];
  let cursor = from;
  for (let read = 0; read < pages; read += 1) {
    const answer = await apiEnvelope(pagePath(path, limit, cursor), { signal });
    items.push(...(Array.isArray(answer.data) ? answer.data : []));
    cursor = answer.page && answer.page.truncated ? answer.page.next : null;
    if (!cursor) return { items, next: null, cut: false };
  }
  return { items, next: cursor, cut: true };
}
