/**
 * The module each pool worker thread runs: it boots the worker plugins once, then runs tasks against the thread's
 * standards registry. A catalogue error raised by an adapter (unknown profile, unknown message type) is answered as
 * data, so the caller gets the same 4xx it would get on the event loop; anything else is a failure of the work.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { WorkbenchError } from '../errors.ts';
import type { StandardAdapter } from '../standards-registry.ts';
import { readReceivedFiles } from '../lib/input/received-files.ts';
import { pageBuffers, toPages, type PagedReading } from './paged-reading.ts';
import type { PoolRequest, PooledTask, TaskOutcome, TaskStarted, WorkerBootData } from './pool-protocol.ts';
import { bootWorkerPlugins } from './worker-plugins.ts';

const standards = await bootWorkerPlugins(workerData as WorkerBootData);

function perform(adapter: StandardAdapter, task: Exclude<PooledTask, { operation: 'readFiles' | 'ping' }>): unknown {
  switch (task.operation) {
    case 'validate':
      return adapter.validate(task.content, task.options);
    case 'diff':
      return adapter.diff(task.left, task.right, task.options);
    case 'generate':
      return adapter.generate(task.options);
    case 'read':
      if (!adapter.reading) throw new Error(`The standard adapter "${adapter.id}" cannot read received content.`);
      // messages cross back as JSON pages the event loop parses in turns (paged-reading.ts)
      return toPages(adapter.reading.readMessages(task.content, task.options));
  }
}

/**
 * The outcome, its page buffers moved to the event loop rather than copied (piscina transfers what a movable answer
 * names): a paged reading's pages are the bulk of what a batch file's reading answers.
 */
function answer(outcome: TaskOutcome): TaskOutcome {
  if (!outcome.ok || !isPagedReading(outcome.value)) return outcome;
  const buffers = pageBuffers(outcome.value);
  return move({ [transferableSymbol]: buffers, [valueSymbol]: outcome }) as unknown as TaskOutcome;
}

function isPagedReading(value: unknown): value is PagedReading {
  return typeof value === 'object' && value !== null && Array.isArray((value as PagedReading).pages);
}

/** Runs one task (piscina calls the default export). */
export default function runPooledTask({ id, task }: PoolRequest): TaskOutcome {
  parentPort?.postMessage({ taskStarted: id } satisfies TaskStarted);
  if (task.operation === 'ping') return { ok: true, value: 'ready' };
  if (task.operation === 'readFiles') return { ok: true, value: readReceivedFiles(standards.list(), task.files, task.options) };
  const adapter = standards.get(task.standard);
  if (!adapter) throw new Error(`No standard adapter "${task.standard}" is registered in the worker thread.`);
  try {
    return answer({ ok: true, value: perform(adapter, task) });
  } catch (error) {
    if (!(error instanceof WorkbenchError)) throw error;
    return {
      ok: false,
      error: {
        code: error.code,
        status: error.status,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    };
  }
}
