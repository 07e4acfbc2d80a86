/**
 * Observers of answered requests (a metrics plugin counts them per route). The `onResponse` hook is installed on
 * the base servers only when the first observer arrives, so a service without observers pays nothing per request.
 */
import type { FastifyInstance } from 'fastify';
import type { BaseName } from '../plugin-host/plugin-manifest.ts';

/** One answered request. */
export interface RequestSample {
  base: BaseName;
  method: string;
  /** The route pattern (`/api/items/:id`), or `unmatched` for requests no route took. */
  route: string;
  status: number;
  /** Time from the request's arrival to the end of the answer. */
  durationMs: number;
}

/** Told of every answered request; must be cheap and must not throw. */
export type RequestObserver = (sample: RequestSample) => void;

/** The observers of the service's base servers. */
export class RequestObservers {
  private readonly observers: RequestObserver[] = [];
  private installed = false;

  constructor(private readonly apps: () => Array<{ base: BaseName; app: FastifyInstance }>) {}

  /** Adds an observer (before the servers listen). */
  add(observer: RequestObserver): void {
    this.observers.push(observer);
    if (this.installed) return;
    this.installed = true;
    for (const { base, app } of this.apps()) {
      app.addHook('onResponse', (request, reply, done) => {
        const sample: RequestSample = {
          base,
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: reply.statusCode,
          durationMs: reply.elapsedTime,
        };
        for (const each of this.observers) {
          try {
            each(sample);
          } catch {
            // An observer's failure must never break the answer.
          }
        }
        done();
      });
    }
  }
}
