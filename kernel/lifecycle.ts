/**
 * Start and stop hooks. Stop hooks run in reverse order of registration (last started, first stopped), each with
 * a time budget so one stuck hook cannot hold shutdown.
 */
import type { Logger } from 'pino';
import type { Lifecycle } from './plugin-api.ts';

type Hook = () => Promise<void> | void;

/** Ordered start/stop hooks. */
export class LifecycleHooks implements Lifecycle {
  private readonly starts: Array<{ owner: string; hook: Hook }> = [];
  private readonly stops: Array<{ owner: string; hook: Hook }> = [];

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

  /** Runs start hooks in order; a failure names its owner. */
  async runStart(): Promise<void> {
    for (const { owner, hook } of this.starts) {
      try {
        await hook();
      } catch (error) {
        throw new Error(`Plugin "${owner}" failed to start: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** Runs stop hooks in reverse order, each within `budgetMs`; failures are logged, never thrown. */
  async runStop(budgetMs: number): Promise<void> {
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
