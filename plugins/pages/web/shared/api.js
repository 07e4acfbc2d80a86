// The pages' client of the public JSON API of their own base: the calls (http.js, re-exported here) and the view hook
// that loads one answer and keeps it fresh.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api } from './http.js';

export { ApiError, api, apiEnvelope, queryString } from './http.js';

/**
 * Loads `path` (skipped while it is null) and reloads it when it changes or when `reload` is called; a newer request
 * cancels the one before, so an answer never lands in the wrong view. `refreshMs` reloads it while the page is shown.
 * The request leaves as soon as the view is in the page (a layout effect), not after the browser's next frame.
 */
export function useApi(path, { refreshMs } = {}) {
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const [state] = useLoaded(path, (signal) => api(path, { signal }).then((data) => ({ items: data, next: null, cut: false })), round);
  useRefresh(refreshMs, reload);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/**
 * A loaded answer (`read(signal)` gives `{items, next, cut}`): a newer request cancels the one before, so an answer never lands in the wrong view; a failed reload
 * keeps what was shown.
 */
export function useLoaded(path, read, key) {
  const [state, setState] = useState({ data: undefined, next: null, cut: false, error: undefined, loading: path !== null });
  const controller = useRef(null);
  useLayoutEffect(() => {
    if (path === null) return undefined;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState((before) => ({ ...before, loading: true }));
    read(current.signal).then(
      ({ items, next, cut }) => current.signal.aborted || setState({ data: items, next, cut, error: undefined, loading: false }),
      (error) => current.signal.aborted || setState((before) => ({ ...before, error, loading: false })),
    );
    return () => current.abort();
    // `read` is made anew each render from `path` and `key`: they are what changes it
  }, [path, key]);
  return [state, setState, controller];
}

/** Calls `reload` every `refreshMs` (none when it is not set) while the page is shown. */
export function useRefresh(refreshMs, reload) {
  useEffect(() => {
    if (!refreshMs) return undefined;
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);
}
