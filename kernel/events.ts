/**
 * The in-process typed event bus. Plugins declare their events by augmenting {@link WorkbenchEvents}:
 *
 * ```ts
 * declare module '../../kernel/events.ts' {
 *   interface WorkbenchEvents { 'message.ingested': { interfaceId: string; ... } }
 * }
 * ```
 *
 * Only declared names are accepted: a misspelt event name is a compile error, not a listener that never hears.
 * A listener that throws is logged and never breaks the emitter or the other listeners.
 */
import type { Logger } from 'pino';

/** Event name -> payload. Augmented by plugins. */
// augmented by plugins through declaration merging
export interface WorkbenchEvents {}

type EventName = keyof WorkbenchEvents & string;
type Listener<P> = (payload: P) => void | Promise<void>;

/** Publish/subscribe between plugins, without them importing each other. */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener<unknown>>>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger?: Logger) {}

  /** Subscribes to a declared event (a name {@link WorkbenchEvents} does not declare does not compile); returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: Listener<WorkbenchEvents[E]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<unknown>);
    return () => set.delete(listener as Listener<unknown>);
  }

  /** Delivers the payload to every listener; async listeners are tracked so shutdown can wait for them. */
  emit<E extends EventName>(event: E, payload: WorkbenchEvents[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of set) {
      try {
        const result = listener(payload);
        if (result && typeof (result as Promise<void>).then === 'function') {
          const tracked = (result as Promise<void>)
            .catch((error: unknown) => this.logger?.error({ err: error, event }, 'event listener failed'))
            .finally(() => this.pending.delete(tracked));
          this.pending.add(tracked);
        }
      } catch (error) {
        this.logger?.error({ err: error, event }, 'event listener failed');
      }
    }
  }

  /** Resolves when every async listener started so far has finished. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Number of listeners of an event (for diagnostics). */
  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}
