/**
 * What crosses the thread boundary of the worker pool: the boot data each worker starts from, the tasks it runs and
 * the outcome it answers with. All of it is plain data (structured clone); errors a caller may see travel as their
 * catalogue fields, because an Error loses its code and status on the way.
 */
import type { DiffOptions, GenerateOptions, ReadContentOptions, ValidateOptions } from '../standards-registry.ts';
import type { DiscoveredPlugin } from '../plugin-host/plugin-manifest.ts';
import type { ProfilePack } from '../standards/profile-packs.ts';
import type { ReadFilesOptions, ReceivedFileRequest } from '../lib/input/received-files.ts';

/** What a worker needs to boot the plugins that run in it. */
export interface WorkerBootData {
  /** Plugins with `"worker": true`, enabled and in dependency order, as the main thread resolved them. */
  plugins: DiscoveredPlugin[];
  /** Config sections of those plugins (`plugins.<id>`). */
  sections: Record<string, Record<string, unknown>>;
  profiles: ProfilePack[];
  logLevel: string;
  /** The TypeScript module to load when the worker runs from source (see pool-worker-entry.ts). */
  sourceEntry?: string;
}

/** One piece of pooled work: an operation of the standard adapter with the given id. */
export type PooledTask =
  | { operation: 'validate'; standard: string; content: string; options: ValidateOptions }
  | { operation: 'diff'; standard: string; left: string; right: string; options: DiffOptions }
  | { operation: 'generate'; standard: string; options: GenerateOptions }
  /** The adapter's reading capability over received content; every message is validated in the worker, the
   * messages answered as JSON pages (paged-reading.ts). */
  | { operation: 'read'; standard: string; content: Uint8Array; options: Omit<ReadContentOptions, 'validateHere'> }
  /** Received files read from disk and by a reading capability, a batch in one task (received-files.ts). */
  | { operation: 'readFiles'; files: ReceivedFileRequest[]; options: ReadFilesOptions }
  /** Answers at once: the pool's probe that a worker boots again after workers failed to start. */
  | { operation: 'ping' };

/** What the pool sends a worker: the task and its number, which the worker reports when it begins the work. */
export interface PoolRequest {
  id: number;
  task: PooledTask;
}

/** Posted by a worker when it begins a task: the task's time budget starts then, not while it waited for a worker. */
export interface TaskStarted {
  taskStarted: number;
}

/** A catalogue error as plain data. */
export interface PlainWorkbenchError {
  code: string;
  status: number;
  message: string;
  details?: unknown;
}

/** The answer of a task: its value, or the catalogue error the adapter raised for a bad request. */
export type TaskOutcome = { ok: true; value: unknown } | { ok: false; error: PlainWorkbenchError };
