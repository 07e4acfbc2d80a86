/**
 * Scheduled jobs on node-cron, all stopped at shutdown. Every tick runs under the background guard
 * (background-guard.ts): a job that throws is logged and reported, and runs again at its next tick.
 *
 * Names are unique: a second job under a name already scheduled is an error naming both (a plugin's jobs are
 * named `<plugin id>:<name>` through {@link Scheduler.forPlugin}, so plugins never collide). On a store shared by a
 * team every occurrence runs on one node only: each tick is claimed first ({@link JobClaims}), and the node whose
 * claim wins runs it.
 */
import { createRequire } from 'node:module';
import type { ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { slotOf, type JobClaims } from '../cluster/job-claims.ts';
import { BackgroundGuard } from './background-guard.ts';
import { ServiceFaults } from './service-faults.ts';

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

/** Options of a job. */
export interface ScheduleOptions {
  /** IANA time zone the expression is read in (e.g. `Europe/Berlin`); default the process's local time. */
  timeZone?: string;
}

/** What plugins schedule with (`context.scheduler`); their job names are their own. */
export interface JobScheduler {
  /** Schedules `run` on the cron expression; a name already scheduled is an error naming both. */
  schedule(name: string, expression: string, run: () => Promise<void> | void, options?: ScheduleOptions): ScheduledJob;
  /** Runs a scheduled job now, on this node, and resolves when it ends (rejects with its error). */
  runNow(name: string): Promise<void>;
  /** Names of the scheduled jobs. */
  list(): string[];
}

interface Job {
  task: ScheduledTask;
  expression: string;
  run: () => Promise<void> | void;
}

/** Schedules cron jobs and stops them all on shutdown. */
export class Scheduler implements JobScheduler {
  private readonly jobs = new Map<string, Job>();
  private claims: JobClaims | undefined;
  private stopped = false;

  private readonly guard: BackgroundGuard;

  /** `guard`: the process's background guard; without one, failures are logged and reported to nobody else. */
  constructor(logger: Logger, guard?: BackgroundGuard) {
    this.guard = guard ?? new BackgroundGuard(logger, new ServiceFaults());
  }

  /** Makes every later tick claim its occurrence first (a team on one store: each occurrence runs on one node). */
  coordinate(claims: JobClaims): void {
    this.claims = claims;
  }

  /** The view of one plugin: names are scoped `<pluginId>:<name>`. */
  forPlugin(pluginId: string): JobScheduler {
    const scoped = (name: string) => `${pluginId}:${name}`;
    return {
      schedule: (name, expression, run, options) => {
        const job = this.schedule(scoped(name), expression, run, options);
        return { name, stop: job.stop };
      },
      runNow: (name) => this.runNow(scoped(name)),
      list: () => this.list().filter((name) => name.startsWith(`${pluginId}:`)).map((name) => name.slice(pluginId.length + 1)),
    };
  }

  schedule(name: string, expression: string, run: () => Promise<void> | void, options: ScheduleOptions = {}): ScheduledJob {
    if (this.stopped) throw new Error(`Scheduler is stopped; cannot schedule ${name}.`);
    if (!cron().validate(expression)) throw new Error(`Invalid cron expression for job ${name}: "${expression}".`);
    const existing = this.jobs.get(name);
    if (existing) {
      throw new Error(
        `Scheduled job "${name}" is declared twice: once on "${existing.expression}" and again on "${expression}". ` +
          'Job names must be unique within a plugin; stop the first job before scheduling another under its name.',
      );
    }
    const task = cron().schedule(
      expression,
      () =>
        this.guard.run(name, async () => {
          if (this.claims && !(await this.claims.claim(name, slotOf(expression, Date.now())))) return;
          await run();
        }),
      { name, noOverlap: true, ...(options.timeZone ? { timezone: options.timeZone } : {}) },
    );
    const job: Job = { task, expression, run };
    this.jobs.set(name, job);
    return {
      name,
      stop: () => {
        // an in-process task (a function, not a forked script) stops at once; node-cron's promise is for forked ones
        void task.stop();
        if (this.jobs.get(name) === job) this.jobs.delete(name);
      },
    };
  }

  async runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No scheduled job is named "${name}" (scheduled: ${this.list().join(', ') || 'none'}).`);
    await job.run();
  }

  list(): string[] {
    return [...this.jobs.keys()];
  }

  /** Stops every job; safe to call twice. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    for (const { task } of this.jobs.values()) {
      await task.stop();
      await task.destroy?.();
    }
    this.jobs.clear();
  }
}
