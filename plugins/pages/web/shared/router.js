// Views by address: every view of a base is a real URL (path and query string), so it can be linked, bookmarked and
// reloaded. Links inside the pages move between views without reloading; the browser's back and forward work.
import { useEffect, useState } from '../vendor/preact-htm.js';

const listeners = new Set();
let isPagePath = () => false;

/** The current view's address: its path and query parameters. */
export function currentRoute() {
  return { path: location.pathname, query: new URLSearchParams(location.search), hash: location.hash };
}

function notify() {
  for (const listener of listeners) listener(currentRoute());
}

/** Shows another view (a path with its query string); `replace` changes the address without a history entry. */
export function navigate(href, { replace = false } = {}) {
  const url = new URL(href, location.href);
  const target = url.pathname + url.search + url.hash;
  if (target === location.pathname + location.search + location.hash) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', target);
  notify();
}

/** Changes query parameters of the current view (empty values are removed), e.g. a filter. */
export function updateQuery(changes, options = { replace: true }) {
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === null || value === '') query.delete(name);
    else query.set(name, String(value));
  }
  const search = query.toString();
  navigate(`${location.pathname}${search ? `?${search}` : ''}`, options);
}

/**
 * Starts the router: `pagePath(pathname)` says which paths are views of these pages (a link to any other, such as
 * `/docs` or an API address, is followed by the browser as usual).
 */
export function startRouter(pagePath) {
  isPagePath = pagePath;
  addEventListener('popstate', notify);
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || !isPagePath(url.pathname)) return;
    event.preventDefault();
    navigate(url.href);
  });
}

/** The current route, redrawn when it changes. */
export function useRoute() {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    listeners.add(setRoute);
    return () => listeners.delete(setRoute);
  }, []);
  return route;
}
