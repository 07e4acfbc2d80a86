/**
 * Which file a pool worker loads. Compiled to JavaScript, the worker module sits beside this one and loads as is.
 * Run from TypeScript sources (development, tests), a fresh worker thread has no TypeScript loader: it loads a small
 * JavaScript module that registers one and then imports the TypeScript worker.
 */
import { fileURLToPath } from 'node:url';

/** The worker file for piscina and, from sources, the TypeScript module it imports. */
export function poolWorkerEntry(): { filename: string; sourceEntry?: string } {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return { filename: fileURLToPath(new URL('./pool-worker.js', import.meta.url)) };
  return {
    filename: fileURLToPath(new URL('./typescript-worker-loader.mjs', import.meta.url)),
    sourceEntry: new URL('./pool-worker.ts', import.meta.url).href,
  };
}
