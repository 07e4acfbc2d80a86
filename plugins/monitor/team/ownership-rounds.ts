/**
 * Runs the ownership rounds of a node (interface-ownership.ts) and makes watching follow them: after each round the
 * watch manager opens what this node took, closes what it let go of, follows interfaces created or changed on
 * another node (their `updatedAt` moved) and forgets removed ones. Rounds run one at a time: at start, after each
 * heartbeat, and when the node lost its lease (everything let go, locally).
 */
import type { Logger } from 'pino';
import type { MonitoredInterface } from '../api.ts';
import type { InterfaceOwnership } from './interface-ownership.ts';
import type { InterfaceStore } from '../interfaces/interface-store.ts';
import type { WatchManager } from '../ingest/watch-manager.ts';

/** What the rounds need. */
export interface OwnershipRoundDeps {
  ownership: InterfaceOwnership;
  interfaces: InterfaceStore;
  watchManager: WatchManager;
  logger: Logger;
  /** Told when an interface changed hands here (shared answers end). */
  changed(): void;
}

/** The rounds of one node. */
export class OwnershipRounds {
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: OwnershipRoundDeps) {}

  /** One round, after the one running (if any). */
  run(): Promise<void> {
    const next = this.running.then(() => this.roundNow());
    this.running = next.catch((error: unknown) => this.deps.logger.warn({ reason: (error as Error).message }, 'monitor ownership round failed'));
    return next;
  }

  /** The node lost its lease: closes every watcher it holds (the other nodes took them). */
  letGoOfAll(): Promise<void> {
    const next = this.running.then(async () => {
      const { watchManager } = this.deps;
      for (const id of this.deps.ownership.dropAll()) {
        const monitored = watchManager.state(id)?.monitored;
        if (monitored) await watchManager.apply(monitored);
      }
      this.deps.changed();
    });
    this.running = next.catch(() => undefined);
    return next;
  }

  private async roundNow(): Promise<void> {
    const { ownership, watchManager } = this.deps;
    const list = await this.deps.interfaces.list();
    const byId = new Map<string, MonitoredInterface>(list.map((monitored) => [monitored.id, monitored]));
    const change = await ownership.round(list, async (id) => {
      const monitored = watchManager.state(id)?.monitored ?? byId.get(id);
      if (monitored) await watchManager.apply(monitored);
    });
    // taken here: its watcher opens; taken away by another node (this one was too slow to beat): it closes
    const handed = new Set(change.taken);
    for (const monitored of list) {
      const state = watchManager.state(monitored.id);
      const stale = Boolean(state?.watcher) && !ownership.owns(monitored.id);
      if (handed.has(monitored.id) || stale || !state || state.monitored.updatedAt !== monitored.updatedAt) await watchManager.apply(monitored);
    }
    for (const id of watchManager.ids()) if (!byId.has(id)) await watchManager.remove(id);
    if (change.taken.length > 0 || change.released.length > 0) this.deps.changed();
  }
}
