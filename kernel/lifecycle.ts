/**
 * Start and stop hooks. Stop hooks run in reverse order of registration (last started, first stopped), each with
 * a time budget so one stuck hook cannot hold shutdown. A start hook that fails because the database is
 * unreachable (the store went away while the service was starting: it already listens and answers 503 meanwhile)
 * does not end the process: it is run again, with growing pauses, until it succeeds or the service stops. Start
 * hooks are therefore written to be run again after a failure.
 */
import type { Logger } from 'pino';
import type { Lifecycle } from './plugin-api.ts';
import { isConnectionLoss } from './store/connection-loss.ts';

/** Pauses before a start hook is run again, in ms (the last one repeats). */
const START_RETRY_PAUSES_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

type Hook = () => Promise<void> | void;

/** Ordered start/stop hooks. */
export class LifecycleHooks implements Lifecycle {
  private readonly starts: Array<{ owner: string; hook: Hook }> = [];
  private readonly stops: Array<{ owner: string; hook: Hook }> = [];
  private readonly retries = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(private readonly logger: Logger) {}

  /** A view of the hooks that records who registered them. */
  forOwner(owner: string): Lifecycle {
    return {
      onStart: (hook) => this.starts.push({ owner, hook }),
      onStop: (hook) => this.stops.push({ owner, hook }),
    };
  }

  onStart(hook: Hook): void {
    this.starts.push({ owner: 'kernel', hook });
  }

  onStop(hook: Hook): void {
    this.stops.push({ owner: 'kernel', hook });
  }

  /**
   * Runs start hooks in order; a failure names its owner. A hook that failed on an unreachable database is run
   * again later instead (see the file comment).
   */
  async runStart(): Promise<void> {
    this.stopping = false;
    for (const { owner, hook } of this.starts) {
      try {
        await hook();
      } catch (error) {
        if (!isConnectionLoss(error)) {
          throw new Error(`Plugin "${owner}" failed to start: ${(error as Error).message}`, { cause: error });
        }
        this.logger.warn({ owner, reason: (error as Error).message }, 'a plugin could not start while the database is unreachable; it is started again when the database answers');
        this.startLater(owner, hook, 0);
      }
    }
  }

  private startLater(owner: string, hook: Hook, attempt: number): void {
    if (this.stopping) return;
    const pause = START_RETRY_PAUSES_MS[Math.min(attempt, START_RETRY_PAUSES_MS.length - 1)];
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      if (this.stopping) return;
      Promise.resolve()
        .then(hook)
        .then(
          () => this.logger.info({ owner }, 'plugin started once the database answered'),
          (error: unknown) => {
            if (isConnectionLoss(error)) this.startLater(owner, hook, attempt + 1);
            else this.logger.error({ err: error, owner }, 'plugin failed to start; it is not tried again');
          },
        );
    }, pause);
    // A pending retry never keeps a stopping process alive.
    timer.unref();
    this.retries.add(timer);
  }

  /** Runs stop hooks in reverse order, each within `budgetMs`; failures are logged, never thrown. */
  async runStop(budgetMs: number): Promise<void> {
    this.stopping = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    for (const { owner, hook } of [...this.stops].reverse()) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(hook),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`stop hook took over ${budgetMs} ms`)), budgetMs);
          }),
        ]);
      } catch (error) {
        this.logger.warn({ err: error, owner }, 'stop hook failed');
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
