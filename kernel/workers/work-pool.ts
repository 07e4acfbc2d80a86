/**
 * The kernel's worker pool (piscina): heavy work runs in worker threads so the event loop keeps answering health
 * checks and small requests on every base. Each task's time is bounded from the moment it is submitted: waiting for a
 * worker (the queue and a worker's boot) at most as long as the tasks ahead of it may take ({@link waitLimitMs}),
 * then 503; running at most the time budget, counted from the moment a worker begins it. A task over budget has its
 * worker terminated and replaced (the only way to stop JavaScript that is running) and the caller gets 422
 * PROCESSING_TIME_EXCEEDED. A worker that cannot start (its module does not load: a build replaced under the running
 * service) fails the waiting tasks at once with 503 WORKER_UNAVAILABLE naming the cause, and the pool tries to boot a
 * worker again every few seconds by itself, so it is ready again before the next request once the cause is gone. Each worker's heap is capped, so a task that would need more memory
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
  /** The module workers load; default the service's own (pool-worker-entry.ts). */
  entry?: { filename: string; sourceEntry?: string };
  /** Told when workers cannot start (the reason) and when they start again (undefined); health shows it. */
  onWorkersFailing?: (reason: string | undefined) => void;
}

/** Seconds a refused caller is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** The number of worker threads for a `threads` setting (null: one per core). */
export function poolSize(threads: number | null): number {
  return threads ?? Math.max(1, availableParallelism());
}

const TIME_BUDGET = 'time budget';
const WAITED_TOO_LONG = 'waited too long';
const WORKERS_FAILING = 'workers failing';
/** Milliseconds between attempts to boot a worker again after workers failed to start. */
export const WORKER_RETRY_MS = 2_000;

/**
 * What a worker's boot may add to a task's wait (loading every standard's definitions takes seconds on a busy machine).
 * A boot that fails is noticed at once; this bounds one that neither fails nor ends.
 */
export const WORKER_BOOT_ALLOWANCE_MS = 60_000;

/**
 * The longest a task may wait for a worker (queue and boot): the budgets of the tasks that can be ahead of it on its
 * thread, its own turn's worth, and the boot allowance.
 */
export function waitLimitMs(settings: Pick<WorkPoolSettings, 'threads' | 'maxQueued' | 'timeBudgetMs'>): number {
  const ahead = Math.ceil(Math.max(1, settings.maxQueued) / poolSize(settings.threads)) + 1;
  return settings.timeBudgetMs * ahead + WORKER_BOOT_ALLOWANCE_MS;
}

function isTaskStarted(message: unknown): message is TaskStarted {
  return typeof message === 'object' && message !== null && typeof (message as TaskStarted).taskStarted === 'number';
}

/** A task in flight: its abort switch, the wait timer armed at submission and the budget timer armed when it begins. */
interface InFlight {
  controller: AbortController;
  waitTimer?: NodeJS.Timeout;
  timer?: NodeJS.Timeout;
}

/** A pool of worker threads running {@link PooledTask}s. */
export class WorkPool {
  private piscina: Piscina<PoolRequest, TaskOutcome> | undefined;
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 1;
  private closed = false;
  /** Why workers cannot start, while they cannot; tasks are refused at once meanwhile. */
  private failing: string | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Workers of the current piscina that finished booting (they began a task). */
  private workersBooted = false;

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

  /** Why workers cannot start now, or undefined when they can (as far as the pool knows). */
  get workersFailing(): string | undefined {
    return this.failing;
  }

  /**
   * Runs one task in a worker; rejects with a {@link WorkbenchError} the caller can answer with. `transfer`: buffers
   * of the task moved to the worker rather than copied (the caller gives them up: they are empty here afterwards).
   */
  run<T>(task: PooledTask, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(kernelErrors.create('SERVICE_STOPPING'));
    if (this.failing !== undefined) return Promise.reject(this.unavailable(this.failing));
    return this.submit<T>(task, transfer);
  }

  private async submit<T>(task: PooledTask, transfer: ArrayBuffer[] = []): Promise<T> {
    const id = this.nextId++;
    const flight: InFlight = { controller: new AbortController() };
    flight.waitTimer = setTimeout(() => flight.controller.abort(WAITED_TOO_LONG), waitLimitMs(this.settings));
    this.inFlight.set(id, flight);
    try {
      const outcome = await this.workers().run({ id, task }, { signal: flight.controller.signal, ...(transfer.length > 0 ? { transferList: transfer } : {}) });
      if (!outcome.ok) {
        const { code, status, message, details } = outcome.error;
        throw new WorkbenchError(code, status, message, details);
      }
      return outcome.value as T;
    } catch (error) {
      throw this.explain(error, flight.controller.signal);
    } finally {
      clearTimeout(flight.waitTimer);
      clearTimeout(flight.timer);
      this.inFlight.delete(id);
    }
  }

  /** Terminates every worker, failing queued and running tasks with 503 SERVICE_STOPPING; safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    // piscina's destroy() would leave the promises of running tasks pending; aborting them first settles them.
    for (const { controller } of this.inFlight.values()) controller.abort('stopping');
    await this.piscina?.destroy();
  }

  private workers(): Piscina<PoolRequest, TaskOutcome> {
    if (this.piscina) return this.piscina;
    const size = this.size;
    const entry = this.settings.entry ?? poolWorkerEntry();
    this.workersBooted = false;
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
      // Node options of the service (heap size, loaders) are the main thread's; workers get resourceLimits. The V8
      // flags the service was started with (kernel/v8-flags.ts) are the process's and hold in every worker's isolate
      // too: a worker's execArgv may not name V8 flags (Node refuses them), so it names none.
      execArgv: [],
    });
    piscina.on('message', (message: unknown) => {
      if (!isTaskStarted(message)) return;
      this.workersBooted = true;
      const flight = this.inFlight.get(message.taskStarted);
      if (!flight || flight.timer) return;
      clearTimeout(flight.waitTimer);
      flight.timer = setTimeout(() => flight.controller.abort(TIME_BUDGET), this.settings.timeBudgetMs);
    });
    // A worker that dies with no task on it (above all one whose module does not load) is reported here; the event
    // needs a listener or it would end the process. piscina would keep the waiting tasks queued for ever and start
    // failing workers again and again: the pool fails them at once and tries again by itself.
    piscina.on('error', (error: unknown) => this.workersFailed(piscina, error));
    this.piscina = piscina;
    return piscina;
  }

  /** Workers of `piscina` cannot start: fail every task in flight with 503, drop the pool and try again later. */
  private workersFailed(piscina: Piscina<PoolRequest, TaskOutcome>, error: unknown): void {
    this.settings.logger.error({ err: error }, 'a pool worker failed to start or ended on its own');
    if (this.piscina !== piscina || this.closed) return;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);
    if (this.failing === undefined) this.settings.onWorkersFailing?.(`Worker threads cannot start: ${reason}`);
    this.failing = reason;
    this.piscina = undefined;
    for (const { controller } of this.inFlight.values()) controller.abort(WORKERS_FAILING);
    void piscina.destroy().catch(() => undefined);
    this.retryLater();
  }

  /** Boots a worker again after {@link WORKER_RETRY_MS} (a probe task); success ends the failure. */
  private retryLater(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed || this.failing === undefined) return;
      this.submit({ operation: 'ping' }).then(
        () => {
          this.settings.logger.info('pool workers start again');
          this.failing = undefined;
          this.settings.onWorkersFailing?.(undefined);
        },
        // a failed start has already scheduled the next attempt; anything else tries again too
        () => {
          if (!this.retryTimer && this.failing !== undefined) this.retryLater();
        },
      );
    }, WORKER_RETRY_MS);
    this.retryTimer.unref();
  }

  private unavailable(reason: string): WorkbenchError {
    const retryAfter = Math.ceil(WORKER_RETRY_MS / 1000);
    return kernelErrors.create('WORKER_UNAVAILABLE', { reason, retryAfter }, undefined, { 'retry-after': String(retryAfter) });
  }

  private explain(error: unknown, signal: AbortSignal): WorkbenchError {
    if (error instanceof WorkbenchError) return error;
    if (signal.aborted && signal.reason === TIME_BUDGET) {
      this.settings.logger.info({ budgetMs: this.settings.timeBudgetMs }, 'pooled work over its time budget; worker replaced');
      return kernelErrors.create('PROCESSING_TIME_EXCEEDED', { budgetMs: this.settings.timeBudgetMs });
    }
    if (this.closed) return kernelErrors.create('SERVICE_STOPPING');
    if (signal.aborted && signal.reason === WORKERS_FAILING) return this.unavailable(this.failing ?? 'a worker failed to start');
    if (signal.aborted && signal.reason === WAITED_TOO_LONG) {
      const waited = waitLimitMs(this.settings);
      if (!this.workersBooted) return this.unavailable(`no worker thread started within ${waited} ms`);
      this.settings.logger.info({ waitedMs: waited }, 'pooled work waited too long for a worker');
      return kernelErrors.create('SERVER_BUSY', { retryAfter: BUSY_RETRY_AFTER_SECONDS }, undefined, {
        'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
      });
    }
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
