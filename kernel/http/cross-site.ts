/**
 * Cross-site reads and work refused by what the browser says of a request (Fetch Metadata, `Sec-Fetch-Site`): a
 * page of another site, or of another port of this machine (`same-site`: browsers ignore the port when they name a
 * site), must not read data or start work here with a GET an `<img>` or a link can send, where no Origin check
 * applies. Allowed: requests the browser marks `same-origin` or `none` (typed in, bookmarked), requests of other
 * tools (no such header), requests carrying an Origin that is this server's own or one of `http.allowedOrigins`, and a
 * top-level navigation to a page (not under `/api/`), so a link to the dashboard still opens it.
 */
import type { IncomingMessage } from 'node:http';

/** The `Sec-Fetch-Site` values of a request from another site (another port of a loopback name included). */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/**
 * The `Sec-Fetch-Site` value a request is refused for, or undefined when it may pass. `ownOrigins` are this server's
 * loopback origins, `allowedOrigins` the configured ones (both without a trailing slash).
 */
export function refusedCrossSite(
  request: IncomingMessage,
  ownOrigins: ReadonlySet<string>,
  allowedOrigins: ReadonlySet<string>,
): string | undefined {
  const site = request.headers['sec-fetch-site'];
  if (typeof site !== 'string' || !FOREIGN_SITES.has(site.toLowerCase())) return undefined;
  const origin = request.headers.origin;
  if (origin !== undefined && (ownOrigins.has(origin) || allowedOrigins.has(origin))) return undefined;
  const path = request.url ?? '/';
  const isApi = path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
  if (request.headers['sec-fetch-mode'] === 'navigate' && !isApi) return undefined;
  return site;
}
