/**
 * A full garbage collection before a heap or RSS sample, so the figure is what is live. It needs node started with
 * `--expose-gc`, as `npm run bench` starts it (V8 flags are given at process start, never changed at run time).
 */

/** The collector node exposes with `--expose-gc`, or undefined when the process was started without it. */
export function garbageCollector(): (() => void) | undefined {
  return typeof globalThis.gc === 'function' ? () => globalThis.gc?.() : undefined;
}

/** Runs a full collection; throws, naming the flag, when the process was started without `--expose-gc`. */
export function collectGarbage(): void {
  const gc = garbageCollector();
  if (!gc) throw new Error('this bench samples the heap after a full collection: start node with --expose-gc (npm run bench does)');
  gc();
}
