/**
 * The kernel's worker pool (piscina): heavy work runs in worker threads so the event loop keeps answering health
 * checks and small requests on every base. Each task has a time budget, counted from the moment a worker begins it;
 * a task over budget has its worker terminated and replaced (the only way to stop JavaScript that is running) and
 * the caller gets 422 PROCESSING_TIME_EXCEEDED. Each worker's heap is capped, so a task that would need more memory
 * ends its worker, not the process (422 PROCESSING_MEMORY_EXCEEDED). The queue is bounded (503 SERVER_BUSY).
 * Closing the pool terminates running work at once, so shutdown never waits for a validation.
 *
 * Workers start on first use and end after a while without work, or, in a pool kept warm, at once with
 * {@link WorkPool.warm} and for good: booting one loads every standard's definitions, which a one-shot command, a test
 * that sends no large input, or a service that only monitors should not hold.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import { kernelErrors, WorkbenchError } from '../errors.ts';
import type { PoolRequest, PooledTask, TaskOutcome, TaskStarted, WorkerBootData } from './pool-protocol.ts';
import { poolWorkerEntry } from './pool-worker-entry.ts';

/** Settings of {@link WorkPool}. */
export interface WorkPoolSettings {
  /** Worker threads; null: one per CPU core. */
  threads: number | null;
  /** Milliseconds a task may run once a worker has begun it. */
  timeBudgetMs: number;
  /** Tasks waiting for a free worker beyond those running; more are refused with 503 SERVER_BUSY. */
  maxQueued: number;
  /** Old-generation heap limit of each worker, in MB. */
  workerHeapMb: number;
  /**
   * Whether the workers, once booted, are kept whatever happens; otherwise each ends after `idleTimeoutMs` without
   * work and the next task boots one again.
   */
  keepWarm: boolean;
  /** Milliseconds an idle worker lives when the pool is not kept warm. */
  idleTimeoutMs: number;
  /** What each worker boots (plugins, their config, profile packs). */
  boot: WorkerBootData;
  logger: Logger;
}

/** Seconds a refused caller is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** The number of worker threads for a `threads` setting (null: one per core). */
export function poolSize(threads: number | null): number {
  return threads ?? Math.max(1, availableParallelism());
}

const TIME_BUDGET = 'time budget';

function isTaskStarted(message: unknown): message is TaskStarted {
  return typeof message === 'object' && message !== null && typeof (message as TaskStarted).taskStarted === 'number';
}

/** A task in flight: its abort switch and the budget timer armed when a worker begins it. */
interface InFlight {
  controller: AbortController;
  timer?: NodeJS.Timeout;
}

/** A pool of worker threads running {@link PooledTask}s. */
export class WorkPool {
  private piscina: Piscina<PoolRequest, TaskOutcome> | undefined;
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly settings: WorkPoolSettings) {}

  /** Worker threads of the pool. */
  get size(): number {
    return poolSize(this.settings.threads);
  }

  /** Worker threads alive now (0 before first use, and again once idle workers of a pool not kept warm ended). */
  get threadsAlive(): number {
    return this.piscina?.threads.length ?? 0;
  }

  /** Starts the workers now rather than on first use. */
  warm(): void {
    if (!this.closed) this.workers();
  }

  /** Runs one task in a worker; rejects with a {@link WorkbenchError} the caller can answer with. */
  async run<T>(task: PooledTask): Promise<T> {
    if (this.closed) throw kernelErrors.create('SERVICE_STOPPING');
    const id = this.nextId++;
    const flight: InFlight = { controller: new AbortController() };
    this.inFlight.set(id, flight);
    try {
      const outcome = await this.workers().run({ id, task }, { signal: flight.controller.signal });
      if (!outcome.ok) {
        const { code, status, message, details } = outcome.error;
        throw new WorkbenchError(code, status, message, details);
      }
      return outcome.value as T;
    } catch (error) {
      throw this.explain(error, flight.controller.signal);
    } finally {
      clearTimeout(flight.timer);
      this.inFlight.delete(id);
    }
  }

  /** Terminates every worker, failing queued and running tasks with 503 SERVICE_STOPPING; safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // piscina's destroy() would leave the promises of running tasks pending; aborting them first settles them.
    for (const { controller } of this.inFlight.values()) controller.abort('stopping');
    await this.piscina?.destroy();
  }

  private workers(): Piscina<PoolRequest, TaskOutcome> {
    if (this.piscina) return this.piscina;
    const size = this.size;
    const entry = poolWorkerEntry();
    const piscina = new Piscina<PoolRequest, TaskOutcome>({
      filename: entry.filename,
      // A warm pool keeps its workers (booting one loads every standard's definitions again); otherwise they start on
      // demand and an idle one ends, giving back its memory.
      minThreads: this.settings.keepWarm ? size : 0,
      maxThreads: size,
      maxQueue: Math.max(1, this.settings.maxQueued),
      idleTimeout: this.settings.keepWarm ? Number.POSITIVE_INFINITY : this.settings.idleTimeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.workerHeapMb },
      workerData: { ...this.settings.boot, sourceEntry: entry.sourceEntry } satisfies WorkerBootData,
      // Node options of the service (heap size, loaders) are the main thread's; workers get resourceLimits.
      execArgv: [],
    });
    piscina.on('message', (message: unknown) => {
      if (!isTaskStarted(message)) return;
      const flight = this.inFlight.get(message.taskStarted);
      if (!flight || flight.timer) return;
      flight.timer = setTimeout(() => flight.controller.abort(TIME_BUDGET), this.settings.timeBudgetMs);
    });
    // A worker that dies with no task on it is replaced by piscina; the event needs a listener or it would end the
    // process.
    piscina.on('error', (error: unknown) => this.settings.logger.error({ err: error }, 'a pool worker failed'));
    this.piscina = piscina;
    return piscina;
  }

  private explain(error: unknown, signal: AbortSignal): WorkbenchError {
    if (error instanceof WorkbenchError) return error;
    if (signal.aborted && signal.reason === TIME_BUDGET) {
      this.settings.logger.info({ budgetMs: this.settings.timeBudgetMs }, 'pooled work over its time budget; worker replaced');
      return kernelErrors.create('PROCESSING_TIME_EXCEEDED', { budgetMs: this.settings.timeBudgetMs });
    }
    if (this.closed) return kernelErrors.create('SERVICE_STOPPING');
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      this.settings.logger.info({ limitMb: this.settings.workerHeapMb }, 'pooled work over the worker heap limit; worker replaced');
      return kernelErrors.create('PROCESSING_MEMORY_EXCEEDED', { limitMb: this.settings.workerHeapMb });
    }
    if (message === 'Task queue is at limit') {
      return kernelErrors.create('SERVER_BUSY', { retryAfter: BUSY_RETRY_AFTER_SECONDS }, undefined, {
        'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
      });
    }
    this.settings.logger.error({ err: error }, 'pooled work failed');
    return kernelErrors.create('INTERNAL_ERROR');
  }
}
