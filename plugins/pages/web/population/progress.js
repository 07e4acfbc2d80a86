// Polling a background piece of work (a generation job, a seed run, a cleanup) and drawing its progress bar: the
// route is asked every half second while the work is queued or running, and no more once it has ended.
import { html, useCallback, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';

const RUNNING = new Set(['queued', 'running']);

/** Milliseconds between two reads of running work. */
export const POLL_MS = 500;

/** The work at `path` (null: none), re-read every {@link POLL_MS} while its `state` is queued or running. */
export function usePolled(path) {
  const [state, setState] = useState({ data: undefined, error: undefined });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    setState({ data: undefined, error: undefined });
    if (!path) return undefined;
    let live = true;
    let timer;
    const read = async () => {
      try {
        const data = await api(path);
        if (!live) return;
        setState({ data, error: undefined });
        if (RUNNING.has(data.state)) timer = setTimeout(read, POLL_MS);
      } catch (error) {
        if (live) setState((before) => ({ data: before.data, error }));
      }
    };
    read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, round]);
  return { ...state, reload };
}

/** A labelled progress bar: `done` of `total` (or `percent`), with the state in words. */
export function Progress({ id, label, done, total, percent, state }) {
  const value = Number.isFinite(percent) ? percent : total > 0 ? (100 * done) / total : 0;
  return html`<div class="progress" id=${id} data-state=${state}>
    <label for=${`${id}-bar`}>${label}: ${state}${total ? ` · ${done.toLocaleString()} of ${total.toLocaleString()}` : ''} (${Math.round(value)}%)</label>
    <progress id=${`${id}-bar`} max="100" value=${value}>${Math.round(value)}%</progress>
  </div>`;
}
