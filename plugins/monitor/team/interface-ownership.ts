/**
 * Which node watches each interface, when several nodes share one store. Each interface has a placement: `pinned`
 * (to the node that created it: its folder is a path on that machine) or `any` (a shared folder every node can
 * read). Exactly one live node owns it at a time, recorded in `monitor_interface_placement` and held by the owner's
 * heartbeat (a node is live while its heartbeat is within the lease, see kernel/cluster/cluster.ts).
 *
 * After each heartbeat every node runs one round:
 * - an interface whose owner is gone (no owner, or one whose heartbeat is past the lease) is taken by an eligible
 *   node: the node it is pinned to, or for `any` a node that can read its folder and holds less than its share
 *   (the `any` interfaces divided by the live nodes, rounded up), or any node once it stayed unowned for two rounds;
 * - an owner of an `any` interface that cannot read its folder records why, and a node that can read it takes it;
 * - a node holding more than its share of `any` interfaces lets the extra go (they pass to the others' next round);
 * - a node stops holding what it is no longer eligible for (the placement changed).
 * Every take is a compare-and-set on the owner read, so two nodes never both take one interface. What a node
 * takes or lets go is handed to the watch manager (`changed`), which opens or closes its watcher; the ledger keeps
 * the hand-over exact (ingest/ledger-claims.ts).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ClusterMembership } from '../../../kernel/cluster/cluster.ts';
import type { MonitoredInterface } from '../api.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import type { PlacementRow } from './team-migration.ts';

/** Where an interface may be watched. */
export const PLACEMENTS = ['pinned', 'any'] as const;

/** A placement. */
export type Placement = (typeof PLACEMENTS)[number];

/** The owner of an interface as the API shows it. */
export interface InterfaceOwner {
  node: string;
  since: string;
}

/** An interface's placement and owner, as the API shows them. */
export interface PlacementFacts {
  placement: Placement;
  /** The node a pinned interface belongs to (null until a node takes it; always null for `any`). */
  pinnedNode: string | null;
  /** The live node watching it, or null when none does. */
  owner: InterfaceOwner | null;
  /** Why its owner cannot read its folder, or null. */
  ownerProblem: string | null;
}

/** What the ownership needs. */
export interface OwnershipDeps {
  db: Kysely<MonitorDatabase>;
  cluster: ClusterMembership;
  logger: Logger;
  /** Why this node cannot read a folder, or undefined when it can. */
  folderProblem(path: string): string | undefined;
  /** Why this node's watcher of an interface it owns cannot watch, or undefined. */
  watchProblem(id: string): string | undefined;
}

/** What changed hands on this node in a round. */
export interface OwnershipChange {
  taken: string[];
  released: string[];
}

function placementOf(row: PlacementRow | undefined): Placement {
  return row?.placement === 'any' ? 'any' : 'pinned';
}

/** The ownership of interfaces by this node. */
export class InterfaceOwnership {
  private readonly owned = new Set<string>();
  /** Placement rows as the last round (or change) saw them, with the live nodes then. */
  private rows = new Map<string, PlacementRow>();
  private live = new Set<string>();
  /** Rounds an interface was seen without a live owner, by id. */
  private readonly unownedRounds = new Map<string, number>();

  constructor(private readonly deps: OwnershipDeps) {}

  /** Whether this node owns (watches) the interface. */
  owns(id: string): boolean {
    return this.owned.has(id);
  }

  /** Ids of the interfaces this node owns. */
  ownedIds(): string[] {
    return [...this.owned];
  }

  /** Placement and owner of an interface, as last seen. */
  facts(id: string): PlacementFacts {
    const row = this.rows.get(id);
    const ownerLive = row?.owner_node != null && (row.owner_node === this.deps.cluster.name ? this.owned.has(id) : this.live.has(row.owner_node));
    return {
      placement: placementOf(row),
      pinnedNode: placementOf(row) === 'pinned' ? (row?.pinned_node ?? null) : null,
      owner: ownerLive && row?.owner_node ? { node: row.owner_node, since: new Date(Number(row.owned_since_ms)).toISOString() } : null,
      ownerProblem: ownerLive ? (row?.problem ?? null) : null,
    };
  }

  /** Interfaces owned per live node, as last seen. */
  ownersByNode(): Map<string, string[]> {
    const byNode = new Map<string, string[]>();
    for (const [id] of this.rows) {
      const owner = this.facts(id).owner;
      if (!owner) continue;
      byNode.set(owner.node, [...(byNode.get(owner.node) ?? []), id]);
    }
    return byNode;
  }

  /** Refreshes the rows and live nodes seen (the facts every node answers with). */
  async refresh(): Promise<void> {
    const [rows, live] = await Promise.all([
      this.deps.db.selectFrom('monitor_interface_placement').selectAll().execute(),
      this.deps.cluster.liveNodeNames(),
    ]);
    this.rows = new Map(rows.map((row) => [row.interface_id, row]));
    this.live = new Set(live);
    this.live.add(this.deps.cluster.name);
  }

  /**
   * Places a created or changed interface: `pinned` pins it to this node. This node takes it at once when no live
   * node holds it (a new interface is watched where it was made; rounds spread `any` ones later).
   */
  async place(id: string, placement: Placement): Promise<void> {
    const me = this.deps.cluster.name;
    const now = await this.deps.cluster.storeNowMs();
    await this.deps.db
      .insertInto('monitor_interface_placement')
      .values({ interface_id: id, placement, pinned_node: placement === 'pinned' ? me : null, owner_node: null, owned_since_ms: now, problem: null })
      .onConflict((oc) => oc.column('interface_id').doUpdateSet({ placement, pinned_node: placement === 'pinned' ? me : null }))
      .execute();
    await this.refresh();
    const row = this.rows.get(id)!;
    if (row.owner_node === me) {
      this.owned.add(id);
    } else if (row.owner_node === null || !this.live.has(row.owner_node)) {
      await this.take(row, now);
    }
  }

  /** Forgets a removed interface. */
  async forget(id: string): Promise<void> {
    this.owned.delete(id);
    this.rows.delete(id);
    await this.deps.db.deleteFrom('monitor_interface_placement').where('interface_id', '=', id).execute();
  }

  /** Compare-and-set: takes the interface if its owner is still the one read. */
  private async take(row: PlacementRow, now: number): Promise<boolean> {
    const me = this.deps.cluster.name;
    const pinnedNode = placementOf(row) === 'pinned' ? (this.deps.cluster.shared ? (row.pinned_node ?? me) : me) : null;
    let update = this.deps.db
      .updateTable('monitor_interface_placement')
      .set({ owner_node: me, owned_since_ms: now, problem: null, pinned_node: pinnedNode })
      .where('interface_id', '=', row.interface_id);
    update = row.owner_node === null ? update.where('owner_node', 'is', null) : update.where('owner_node', '=', row.owner_node);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    this.owned.add(row.interface_id);
    this.rows.set(row.interface_id, { ...row, owner_node: me, owned_since_ms: now, problem: null, pinned_node: pinnedNode });
    if (row.owner_node && row.owner_node !== me) {
      this.deps.logger.info({ interface: row.interface_id, from: row.owner_node }, 'this node took over an interface whose owner is gone or cannot read its folder');
    }
    return true;
  }

  /** Lets go of an interface: no longer owned here, then `beforeRelease` (its watcher closes), then the store told. */
  private async release(id: string, now: number, reason: string, beforeRelease: (id: string) => Promise<void>): Promise<void> {
    this.owned.delete(id);
    await beforeRelease(id);
    await this.deps.db
      .updateTable('monitor_interface_placement')
      .set({ owner_node: null, owned_since_ms: now, problem: null })
      .where('interface_id', '=', id)
      .where('owner_node', '=', this.deps.cluster.name)
      .execute();
    this.deps.logger.info({ interface: id, reason }, 'this node let go of an interface');
  }

  /**
   * One round (see the file comment) over the stored interfaces. `beforeRelease` runs for each interface this node
   * lets go of, before the store is told (its watcher closes first).
   */
  async round(interfaces: readonly MonitoredInterface[], beforeRelease: (id: string) => Promise<void>): Promise<OwnershipChange> {
    const me = this.deps.cluster.name;
    const before = new Set(this.owned);
    const now = await this.deps.cluster.storeNowMs();
    await this.refresh();
    // interfaces made before placements existed are pinned to the first node that takes them
    const missing = interfaces.filter((monitored) => !this.rows.has(monitored.id));
    if (missing.length > 0) {
      await this.deps.db
        .insertInto('monitor_interface_placement')
        .values(missing.map((monitored) => ({ interface_id: monitored.id, placement: 'pinned', pinned_node: null, owner_node: null, owned_since_ms: now, problem: null })))
        .onConflict((oc) => oc.column('interface_id').doNothing())
        .execute();
      await this.refresh();
    }
    const ids = new Set(interfaces.map((monitored) => monitored.id));
    const byId = new Map(interfaces.map((monitored) => [monitored.id, monitored]));
    // what another node took from this one, or a removed interface
    for (const id of [...this.owned]) {
      if (!ids.has(id) || this.rows.get(id)?.owner_node !== me) this.owned.delete(id);
    }
    // on a store of one process (SQLite) this node is the only one: pins name it whatever it was called before (a
    // host renamed, a container made anew)
    const eligible = (row: PlacementRow) =>
      !this.deps.cluster.shared || placementOf(row) === 'any' || row.pinned_node === null || row.pinned_node === me;
    const anyIds = interfaces.filter((monitored) => monitored.enabled && placementOf(this.rows.get(monitored.id)) === 'any').map((m) => m.id).sort();
    const share = Math.ceil(anyIds.length / Math.max(1, this.live.size));
    let mineAny = anyIds.filter((id) => this.owned.has(id)).length;

    for (const id of [...ids].sort()) {
      const row = this.rows.get(id);
      const monitored = byId.get(id)!;
      if (!row) continue;
      if (this.owned.has(id)) {
        if (!eligible(row)) {
          await this.release(id, now, 'its placement no longer allows this node', beforeRelease);
          continue;
        }
        // an owner that cannot watch its folder says why: every node shows it, and for an `any` folder a node that
        // can read it takes it
        const problem = this.deps.watchProblem(id) ?? null;
        if (problem !== row.problem) {
          await this.deps.db.updateTable('monitor_interface_placement').set({ problem }).where('interface_id', '=', id).where('owner_node', '=', me).execute();
          this.rows.set(id, { ...row, problem });
        }
        continue;
      }
      if (!eligible(row)) continue;
      const ownerLive = row.owner_node !== null && this.live.has(row.owner_node) && row.owner_node !== me;
      const isAny = placementOf(row) === 'any';
      if (ownerLive) {
        this.unownedRounds.delete(id);
        // a live owner keeps it unless it cannot read a shared folder this node can read
        if (!(isAny && row.problem !== null && monitored.enabled && this.deps.folderProblem(monitored.directoryPath) === undefined)) continue;
        if (await this.take(row, now)) mineAny++;
        continue;
      }
      const rounds = (this.unownedRounds.get(id) ?? 0) + 1;
      this.unownedRounds.set(id, rounds);
      if (isAny) {
        const readable = !monitored.enabled || this.deps.folderProblem(monitored.directoryPath) === undefined;
        // under its share a node takes what it can read; after two rounds unowned, anybody takes it
        if (!((readable && mineAny < share) || rounds > 2)) continue;
        if (await this.take(row, now)) {
          mineAny++;
          this.unownedRounds.delete(id);
        }
      } else if (await this.take(row, now)) {
        this.unownedRounds.delete(id);
      }
    }
    // more than its share of `any` interfaces: the extra go to the others (the ones taken last first)
    if (this.live.size > 1 && mineAny > share) {
      const extra = anyIds
        .filter((id) => this.owned.has(id))
        .sort((a, b) => Number(this.rows.get(b)?.owned_since_ms ?? 0) - Number(this.rows.get(a)?.owned_since_ms ?? 0) || b.localeCompare(a))
        .slice(0, mineAny - share);
      for (const id of extra) {
        await this.release(id, now, 'this node holds more than its share of the shared interfaces', beforeRelease);
      }
    }
    await this.refresh();
    return {
      taken: [...this.owned].filter((id) => !before.has(id)),
      released: [...before].filter((id) => !this.owned.has(id)),
    };
  }

  /** Lets go of everything locally (the node lost its lease: the others have taken its interfaces by now). */
  dropAll(): string[] {
    const dropped = [...this.owned];
    this.owned.clear();
    return dropped;
  }

  /** Hands every interface this node owns back to the store, so the other nodes take them at once (clean stop). */
  async releaseAll(): Promise<void> {
    const now = await this.deps.cluster.storeNowMs();
    this.owned.clear();
    await this.deps.db
      .updateTable('monitor_interface_placement')
      .set({ owner_node: null, owned_since_ms: now, problem: null })
      .where('owner_node', '=', this.deps.cluster.name)
      .execute();
  }
}
