/**
 * The watching facts status, metrics and reports show for an interface, on whichever node answers: the node's own
 * watcher when it owns the interface, otherwise what the owner recorded in the store (its problem, since when it
 * watches), or why no node watches it (a team on one store; interface-ownership.ts).
 */
import type { InterfaceOwnership } from '../team/interface-ownership.ts';
import type { WatchManager } from '../ingest/watch-manager.ts';

/** Why the folder cannot be watched, and since when it is watched. */
export interface WatchFacts {
  problem(id: string): string | undefined;
  watchingSinceMs(id: string): number | null;
}

/** The facts of every interface, answered from this node's watchers or from its owner's record. */
export function teamWatchFacts(ownership: InterfaceOwnership, watchManager: WatchManager): WatchFacts {
  return {
    problem(id) {
      if (ownership.owns(id)) return watchManager.state(id)?.problem;
      const facts = ownership.facts(id);
      if (facts.owner) return facts.ownerProblem ?? undefined;
      const pinned = facts.placement === 'pinned' && facts.pinnedNode ? ` (it is pinned to node ${facts.pinnedNode}, which is not running)` : '';
      return `no live node watches it${pinned}`;
    },
    watchingSinceMs(id) {
      if (ownership.owns(id)) return watchManager.state(id)?.watchingSinceMs ?? null;
      const owner = ownership.facts(id).owner;
      return owner ? Date.parse(owner.since) : null;
    },
  };
}
