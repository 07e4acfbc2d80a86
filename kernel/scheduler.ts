/**
 * Scheduled jobs on node-cron, all stopped at shutdown. A job that throws is logged and runs again at its next tick.
 */
import { createRequire } from 'node:module';
import type { ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';

const require = createRequire(import.meta.url);
let cronModule: typeof import('node-cron') | undefined;

/** node-cron, loaded on the first schedule: most one-shot commands schedule nothing. */
function cron(): typeof import('node-cron') {
  cronModule ??= require('node-cron') as typeof import('node-cron');
  return cronModule;
}

/** A handle to one scheduled job. */
export interface ScheduledJob {
  readonly name: string;
  stop(): void;
}

/** Schedules cron jobs and stops them all on shutdown. */
export class Scheduler {
  private readonly tasks = new Map<string, ScheduledTask>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  /**
   * Schedules `run` on the cron expression; names are unique (a second job with a name replaces the first). The
   * expression is read in the process's local time, or in `options.timeZone` (IANA, e.g. `Europe/Berlin`).
   */
  schedule(name: string, expression: string, run: () => Promise<void> | void, options: { timeZone?: string } = {}): ScheduledJob {
    if (this.stopped) throw new Error(`Scheduler is stopped; cannot schedule ${name}.`);
    if (!cron().validate(expression)) throw new Error(`Invalid cron expression for job ${name}: "${expression}".`);
    this.tasks.get(name)?.stop();
    const task = cron().schedule(
      expression,
      async () => {
        try {
          await run();
        } catch (error) {
          this.logger.error({ err: error, job: name }, 'scheduled job failed');
        }
      },
      { name, noOverlap: true, ...(options.timeZone ? { timezone: options.timeZone } : {}) },
    );
    this.tasks.set(name, task);
    return {
      name,
      stop: () => {
        task.stop();
        this.tasks.delete(name);
      },
    };
  }

  /** Names of the scheduled jobs. */
  list(): string[] {
    return [...this.tasks.keys()];
  }

  /** Stops every job; safe to call twice. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    for (const task of this.tasks.values()) {
      await task.stop();
      await task.destroy?.();
    }
    this.tasks.clear();
  }
}
