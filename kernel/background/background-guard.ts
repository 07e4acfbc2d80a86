/**
 * The one guard every timer and background job of the kernel and of every plugin runs under (scheduled jobs, the
 * audit checkpoint's deferred write, heartbeats, periodic checks). A failure, thrown or rejected, is logged with the
 * job's name and reported (health shows `job:<name>` until that job next succeeds; a full disk opens
 * `storage-full`); it never reaches the process as an uncaught exception or an unhandled rejection.
 */
import type { Logger } from 'pino';
import type { DiskWatch } from '../store/disk-full.ts';
import type { ServiceFaults } from './service-faults.ts';

/** How long health shows a failure reported without a next run that could clear it. */
export const ONE_OFF_REPORT_MS = 60_000;

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
  /**
   * Logs and reports a failure of background work that catches its own errors (a promise's `.catch`); having no next
   * run to clear it, the report lasts {@link ONE_OFF_REPORT_MS}.
   */
  failed(name: string, error: unknown): void;
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
      failed: (name, error) => this.failed(scoped(name), error, ONE_OFF_REPORT_MS),
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

  /**
   * Logs and reports one failure of a job; the report lasts until the job next succeeds, or `lastsMs` when given (a
   * failure with no next run to clear it).
   */
  failed(name: string, error: unknown, lastsMs?: number): void {
    const full = this.disk?.noticed(error) ?? false;
    this.logger.error({ err: error, job: name }, full ? 'background job failed: the disk is full' : 'background job failed');
    const message = error instanceof Error ? error.message : String(error);
    const until = lastsMs === undefined ? undefined : Date.now() + lastsMs;
    this.faults.report(`job:${name}`, `The background job ${name} failed: ${message.slice(0, 300)}`, until === undefined ? undefined : () => Date.now() < until);
  }
}
