/**
 * Which file a pool worker loads. Compiled to JavaScript, the worker module sits beside this one and loads as is.
 * Run from TypeScript sources (development, tests), a fresh worker thread has no TypeScript loader: it loads a small
 * JavaScript module that registers one and then imports the TypeScript worker.
 */
import { fileURLToPath } from 'node:url';
import { runningCompiled, siblingModuleUrl } from '../project-root.ts';

/** The worker file for piscina and, from sources, the TypeScript module it imports. */
export function poolWorkerEntry(): { filename: string; sourceEntry?: string } {
  const worker = siblingModuleUrl(import.meta.url, './pool-worker.ts');
  if (runningCompiled) return { filename: fileURLToPath(worker) };
  return {
    filename: fileURLToPath(new URL('./typescript-worker-loader.mjs', import.meta.url)),
    sourceEntry: worker.href,
  };
}
