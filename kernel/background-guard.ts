/**
 * The one guard every timer and background job of the kernel and of every plugin runs under (scheduled jobs, the
 * audit checkpoint's deferred write, heartbeats, periodic checks). A failure, thrown or rejected, is logged with the
 * job's name and reported (health shows `job:<name>` until that job next succeeds; a full disk opens
 * `storage-full`); it never reaches the process as an uncaught exception or an unhandled rejection.
 */
import type { Logger } from 'pino';
import type { DiskWatch } from './disk-full.ts';
import type { ServiceFaults } from './service-faults.ts';

/** Options of a guarded timer. */
export interface GuardedTimerOptions {
  /** Whether the timer keeps the process alive (default false: shutdown never waits for it). */
  ref?: boolean;
}

/** What plugins run background work with (`context.background`). */
export interface BackgroundJobs {
  /** Runs `job` now; resolves when it ends, whether it succeeded or failed (the failure is logged and reported). */
  run(name: string, job: () => unknown): Promise<void>;
  /** `setTimeout` whose callback runs guarded. */
  after(name: string, delayMs: number, job: () => unknown, options?: GuardedTimerOptions): NodeJS.Timeout;
  /** `setInterval` whose callback runs guarded; a run still going when the next is due is not started twice. */
  every(name: string, intervalMs: number, job: () => unknown, options?: GuardedTimerOptions): NodeJS.Timeout;
}

/** Failures of background work, told to the log and the service's conditions. */
export class BackgroundGuard implements BackgroundJobs {
  constructor(
    private readonly logger: Logger,
    private readonly faults: ServiceFaults,
    private readonly disk?: DiskWatch,
  ) {}

  /** The view of one owner (a plugin id): job names are `<owner>:<name>`. */
  forOwner(owner: string): BackgroundJobs {
    const scoped = (name: string) => `${owner}:${name}`;
    return {
      run: (name, job) => this.run(scoped(name), job),
      after: (name, delayMs, job, options) => this.after(scoped(name), delayMs, job, options),
      every: (name, intervalMs, job, options) => this.every(scoped(name), intervalMs, job, options),
    };
  }

  async run(name: string, job: () => unknown): Promise<void> {
    try {
      await job();
      this.faults.clear(`job:${name}`);
    } catch (error) {
      this.failed(name, error);
    }
  }

  after(name: string, delayMs: number, job: () => unknown, options: GuardedTimerOptions = {}): NodeJS.Timeout {
    const timer = setTimeout(() => void this.run(name, job), delayMs);
    if (!options.ref) timer.unref();
    return timer;
  }

  every(name: string, intervalMs: number, job: () => unknown, options: GuardedTimerOptions = {}): NodeJS.Timeout {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void this.run(name, job).finally(() => {
        running = false;
      });
    }, intervalMs);
    if (!options.ref) timer.unref();
    return timer;
  }

  /** Logs and reports one failure of a job (also for callers that catch themselves and want the same report). */
  failed(name: string, error: unknown): void {
    const full = this.disk?.noticed(error) ?? false;
    this.logger.error({ err: error, job: name }, full ? 'background job failed: the disk is full' : 'background job failed');
    const message = error instanceof Error ? error.message : String(error);
    this.faults.report(`job:${name}`, `The background job ${name} failed: ${message.slice(0, 300)}`);
  }
}
