// The views' paged lists: a whole list read page after page up to a bound, for the lists and pickers that show
// everything; and a list shown a page at a time with "Show more", for the long ones such as the alerts.
import { useCallback, useState } from '../vendor/preact-htm.js';
import { useLoaded, useRefresh } from './api.js';
import { readPages } from './paging.js';

/**
 * Every item of the paged list at `path` (skipped while it is null), read at the largest page size for at most
 * MOST_PAGES pages (paging.js): `{data, cut, error, loading, reload}`, `cut` true when that bound left items out.
 */
export function useAllPages(path) {
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const [state] = useLoaded(path, (signal) => readPages(path, { signal }), round);
  return { data: state.data, cut: state.cut, error: state.error, loading: state.loading, reload };
}

/**
 * The paged list at `path` shown a page of `limit` at a time: `more()` appends the page after the last one shown
 * (`hasMore` says one follows). `reload()`, and the refresh every `refreshMs` while the page is shown, read the list
 * again from its start as far as the user had shown it (as many pages); a new `path` (other filters) starts again at
 * one page. Answers `{data, hasMore, more, loadingMore, error, loading, reload}`.
 */
export function usePagedList(path, { limit = 100, refreshMs } = {}) {
  const [round, setRound] = useState(0);
  // how many pages the user has shown, of which list: other filters start again at one
  const [shown, setShown] = useState({ path, pages: 1 });
  const shownPages = shown.path === path ? shown.pages : 1;
  const [loadingMore, setLoadingMore] = useState(false);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const [state, setState, controller] = useLoaded(path, (signal) => readPages(path, { limit, pages: shownPages, signal }), `${round} ${limit}`);
  const more = async () => {
    if (!state.next || loadingMore) return;
    const signal = controller.current?.signal;
    setLoadingMore(true);
    try {
      const answer = await readPages(path, { limit, pages: 1, cursor: state.next, signal });
      if (signal?.aborted) return;
      setShown({ path, pages: shownPages + 1 });
      setState((before) => ({ ...before, data: [...(before.data ?? []), ...answer.items], next: answer.next, cut: answer.cut, error: undefined }));
    } catch (error) {
      if (!signal?.aborted) setState((before) => ({ ...before, error }));
    } finally {
      setLoadingMore(false);
    }
  };
  useRefresh(refreshMs, reload);
  return { data: state.data, hasMore: Boolean(state.next), more, loadingMore, error: state.error, loading: state.loading, reload };
}
