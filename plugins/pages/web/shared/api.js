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
  const [state, setState] = useState({ data: undefined, error: undefined, loading: path !== null });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const controller = useRef(null);
  useLayoutEffect(() => {
    if (path === null) return undefined;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState((before) => ({ ...before, loading: true }));
    api(path, { signal: current.signal }).then(
      (data) => current.signal.aborted || setState({ data, error: undefined, loading: false }),
      (error) => current.signal.aborted || setState((before) => ({ data: before.data, error, loading: false })),
    );
    return () => current.abort();
  }, [path, round]);
  useEffect(() => {
    if (!refreshMs) return undefined;
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, reload]);
  return { ...state, reload };
}
