/**
 * The status, metrics and report routes share identical computations: a hundred dashboards polling the same status
 * cost one computation, not a hundred. Requests with the same key arriving while one computes, or within the time to
 * live after it finished, get its answer (see kernel/lib/async/shared-computation.ts).
 *
 * An answer is never older than what the service knew when the request arrived: every change that can alter one (a
 * commit of files, an alert raised, escalated, cleared or acknowledged, an interface created, changed or removed)
 * starts a new generation, and the generation is part of every key. So an operator who acknowledges an alert sees it
 * acknowledged on the next status, and a request arriving after a commit never joins a computation started before
 * it. The time to live only bounds what changes with time alone (silence, uptime).
 */
import type { Logger } from 'pino';
import type { Clock } from '../../../kernel/clock.ts';
import { SharedComputations } from '../../../kernel/lib/async/shared-computation.ts';

/** Shared answers of the monitor's read routes, in generations. */
export class SharedAnswers {
  private generation = 0;
  private readonly computations: SharedComputations;

  constructor(
    clock: Clock,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.computations = new SharedComputations(clock);
  }

  /**
   * The answer for `key` in the current generation: kept, being computed, or computed now. The answer is shared:
   * callers must not change it.
   */
  answer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.computations.run(
      `${this.generation}|${key}`,
      async () => {
        const startedMs = performance.now();
        const value = await compute();
        // one line per computation, not per request: how often the shared answers are computed, and how long it takes
        this.logger.debug({ answer: key, ms: Math.round(performance.now() - startedMs) }, 'monitor computed a shared answer');
        return value;
      },
      this.ttlMs,
    );
  }

  /** Something an answer may show changed: answers computed so far are never handed out again. */
  changed(): void {
    this.generation++;
    this.computations.clear();
  }
}
