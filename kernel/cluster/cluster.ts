/**
 * This process as a node of a team sharing one store. The node registers in `kernel_nodes` and beats: every third
 * of the lease (at most every 10 s) it writes the database's current time as its heartbeat. A node whose heartbeat
 * is older than the lease is dead; what it held (interfaces, job occurrences) passes to the live ones. After each
 * heartbeat the listeners run (the monitor balances its interfaces there). A node that could not beat for a whole
 * lease tells its lease-lost listeners, which let go of what they hold: the others have taken it by then.
 *
 * The beat and its listeners run under the background guard (background-guard.ts): a heartbeat that cannot reach the
 * store shows in health as `job:kernel:heartbeat` until a beat reaches it again, a failing listener as
 * `job:kernel:heartbeat-listener-<n>`; neither reaches the process.
 *
 * On SQLite the store is one process's alone: the node is the only one, always live.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Storage } from '../storage.ts';
import { BackgroundGuard, type BackgroundJobs } from '../background/background-guard.ts';
import { ServiceFaults } from '../background/service-faults.ts';
import type { ClusterDatabase, NodeRow } from './cluster-tables.ts';

/** A node as the nodes route shows it. */
export interface ClusterNode {
  name: string;
  version: string;
  host: string;
  pid: number;
  startedAt: string;
  lastHeartbeatAt: string;
  /** Whether its heartbeat is within the lease. */
  live: boolean;
  /** Whether it is this process. */
  self: boolean;
}

/** What removing a node found. */
export type NodeRemoval = 'removed' | 'live' | 'unknown';

/** Settings of the node. */
export interface ClusterSettings {
  name: string;
  leaseMs: number;
  version: string;
  /** Longest wait (ms) for another node's turn in {@link ClusterMembership.oneAtATime}; default two minutes. */
  turnWaitMs?: number;
}

/** The node view plugins get (`context.cluster`). */
export interface ClusterMembership {
  /** This node's name. */
  readonly name: string;
  /** Milliseconds after its last heartbeat a node is dead. */
  readonly leaseMs: number;
  /** Milliseconds between heartbeats. */
  readonly heartbeatIntervalMs: number;
  /** True on PostgreSQL, where several nodes may share the store. */
  readonly shared: boolean;
  /** The store's clock, epoch ms (PostgreSQL's on a shared store), for comparisons with heartbeats. */
  storeNowMs(): Promise<number>;
  /** Every registered node, live or not, by name. */
  nodes(): Promise<ClusterNode[]>;
  /** Names of the live nodes (this one included while it beats). */
  liveNodeNames(): Promise<string[]>;
  /** Removes a dead node's row; a live node is refused ('live'). */
  remove(name: string): Promise<NodeRemoval>;
  /** Runs after each heartbeat that reached the store (errors are logged). */
  onHeartbeat(listener: () => Promise<void> | void): void;
  /** Runs once when the node could not beat for a whole lease (it must let go of what it holds). */
  onLeaseLost(listener: () => Promise<void> | void): void;
  /**
   * Runs `work` while no other node of the team runs work of the same `name`, waiting for the one that does: for
   * work every node could do but one at a time should (catching up a derived table that all nodes share). The work
   * must stay correct when two nodes run it together: a node that holds its turn for more than two minutes without
   * dying (paused) no longer holds the others back. On PostgreSQL a session advisory lock, held on a connection of its
   * own for the duration (a node that dies lets go with its connection); on SQLite, whose store has one process, it
   * runs at once.
   */
  oneAtATime<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** First key of the advisory locks of {@link ClusterMembership.oneAtATime} ('wbte' in ASCII); the second is the name's hash. */
const ONE_AT_A_TIME_LOCKS = 0x77627465;

/** Longest wait (ms) for another node's turn before {@link ClusterMembership.oneAtATime} runs the work anyway. */
const DEFAULT_TURN_WAIT_MS = 120_000;

/** PostgreSQL's `lock_not_available`: the lock timeout passed. */
const LOCK_NOT_AVAILABLE = '55P03';

const MAX_HEARTBEAT_INTERVAL_MS = 10_000;

/** Whether a node's process was on this host and is gone (killed and started again within the lease). */
function endedHere(row: NodeRow): boolean {
  if (row.host !== hostname().slice(0, 255)) return false;
  try {
    process.kill(Number(row.pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The running node. */
export class Cluster implements ClusterMembership {
  readonly name: string;
  readonly leaseMs: number;
  readonly heartbeatIntervalMs: number;
  readonly shared: boolean;
  private readonly instance = randomUUID();
  private readonly db: Kysely<ClusterDatabase>;
  private readonly beatListeners: Array<() => Promise<void> | void> = [];
  private readonly lostListeners: Array<() => Promise<void> | void> = [];
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** performance.now() of the last heartbeat that reached the store. */
  private lastBeatAt = Number.NEGATIVE_INFINITY;
  private leaseLost = false;
  private stopped = false;
  private readonly background: BackgroundJobs;

  /** `background`: the process's guard (jobs named `kernel:*`); without one, failures are logged only. */
  constructor(
    private readonly storage: Pick<Storage, 'db' | 'dialect' | 'sql'>,
    private readonly settings: ClusterSettings,
    private readonly logger: Logger,
    background?: BackgroundJobs,
  ) {
    this.background = background ?? new BackgroundGuard(logger, new ServiceFaults()).forOwner('kernel');
    this.name = settings.name;
    this.leaseMs = settings.leaseMs;
    this.heartbeatIntervalMs = Math.max(200, Math.min(MAX_HEARTBEAT_INTERVAL_MS, Math.floor(settings.leaseMs / 3)));
    this.shared = storage.dialect === 'postgres';
    this.db = storage.db as Kysely<ClusterDatabase>;
  }

  async storeNowMs(): Promise<number> {
    if (!this.shared) return Date.now();
    const { sql } = this.storage;
    const result = await sql<{ now: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(this.db);
    return Number(result.rows[0].now);
  }

  /**
   * Registers the node and starts beating. A live node of the same name that is another process is a start error
   * naming both: two processes under one name would both watch its interfaces.
   */
  async start(): Promise<void> {
    this.stopped = false;
    const now = await this.storeNowMs();
    const existing = await this.db.selectFrom('kernel_nodes').selectAll().where('name', '=', this.name).executeTakeFirst();
    if (existing && existing.instance !== this.instance && now - Number(existing.heartbeat_ms) <= this.leaseMs && !endedHere(existing)) {
      throw new Error(
        `Node name "${this.name}" is taken by a live node (process ${existing.pid} on ${existing.host}, heartbeat ` +
          `${Math.round((now - Number(existing.heartbeat_ms)) / 1000)} s ago). Give each process its own node.name ` +
          `(WORKBENCH_NODE_NAME), or wait ${Math.ceil(this.leaseMs / 1000)} s after that process ended.`,
      );
    }
    const row: NodeRow = {
      name: this.name,
      instance: this.instance,
      version: this.settings.version,
      host: hostname().slice(0, 255),
      pid: process.pid,
      started_at_ms: now,
      heartbeat_ms: now,
    };
    await this.db
      .insertInto('kernel_nodes')
      .values(row)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          instance: row.instance,
          version: row.version,
          host: row.host,
          pid: row.pid,
          started_at_ms: row.started_at_ms,
          heartbeat_ms: row.heartbeat_ms,
        }),
      )
      .execute();
    this.lastBeatAt = performance.now();
    this.leaseLost = false;
    clearInterval(this.timer);
    this.timer = this.background.every('heartbeat', this.heartbeatIntervalMs, () => this.beat());
  }

  /**
   * One heartbeat and its listeners; a beat already running is waited for rather than doubled. Rejects when the
   * heartbeat could not reach the store (after letting go of the node's work once a whole lease has passed so).
   */
  beat(): Promise<void> {
    this.beating ??= this.beatNow().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private async beatNow(): Promise<void> {
    if (this.stopped) return;
    try {
      const now = await this.storeNowMs();
      const result = await this.db
        .updateTable('kernel_nodes')
        .set({ heartbeat_ms: now })
        .where('name', '=', this.name)
        .where('instance', '=', this.instance)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        // removed by an administrator while alive, or the name taken over after a long outage: register again
        this.logger.warn({ node: this.name }, 'this node was missing from the node list; it registers again');
        await this.db
          .insertInto('kernel_nodes')
          .values({ name: this.name, instance: this.instance, version: this.settings.version, host: hostname().slice(0, 255), pid: process.pid, started_at_ms: now, heartbeat_ms: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ instance: this.instance, heartbeat_ms: now, pid: process.pid }))
          .execute();
      }
      this.lastBeatAt = performance.now();
      if (this.leaseLost) this.logger.info({ node: this.name }, 'this node beats again; it takes its share of the work back');
      this.leaseLost = false;
    } catch (error) {
      if (!this.leaseLost && performance.now() - this.lastBeatAt > this.leaseMs) {
        this.leaseLost = true;
        this.logger.error({ node: this.name, leaseMs: this.leaseMs }, 'this node could not beat for a whole lease; it lets go of its interfaces');
        for (const listener of this.lostListeners) await this.background.run('lease-lost', listener);
      }
      throw error;
    }
    await this.tellBeat();
  }

  /** Runs each heartbeat listener under its own guarded name: one that fails never keeps the others from running. */
  private async tellBeat(): Promise<void> {
    for (const [index, listener] of this.beatListeners.entries()) {
      if (this.stopped) return;
      await this.background.run(`heartbeat-listener-${index + 1}`, listener);
    }
  }

  onHeartbeat(listener: () => Promise<void> | void): void {
    this.beatListeners.push(listener);
  }

  onLeaseLost(listener: () => Promise<void> | void): void {
    this.lostListeners.push(listener);
  }

  async nodes(): Promise<ClusterNode[]> {
    const [rows, now] = await Promise.all([this.db.selectFrom('kernel_nodes').selectAll().orderBy('name').execute(), this.storeNowMs()]);
    return rows.map((row) => ({
      name: row.name,
      version: row.version,
      host: row.host,
      pid: Number(row.pid),
      startedAt: new Date(Number(row.started_at_ms)).toISOString(),
      lastHeartbeatAt: new Date(Number(row.heartbeat_ms)).toISOString(),
      live: row.name === this.name ? !this.leaseLost : now - Number(row.heartbeat_ms) <= this.leaseMs,
      self: row.name === this.name && row.instance === this.instance,
    }));
  }

  async liveNodeNames(): Promise<string[]> {
    return (await this.nodes()).filter((node) => node.live).map((node) => node.name);
  }

  async oneAtATime<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (!this.shared) return work();
    const { sql } = this.storage;
    return this.db.connection().execute(async (connection) => {
      // A node that holds the lock and stops answering (paused, not dead) must not stall the others for ever: past
      // the wait, the work runs anyway (work given here must be safe to run on two nodes at once; the lock only
      // spares the second the effort).
      const waitMs = this.settings.turnWaitMs ?? DEFAULT_TURN_WAIT_MS;
      await sql`select set_config('lock_timeout', ${`${waitMs}ms`}, false)`.execute(connection);
      let locked = true;
      try {
        await sql`select pg_advisory_lock(${ONE_AT_A_TIME_LOCKS}, hashtext(${name}))`.execute(connection);
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
        locked = false;
        this.logger.warn({ work: name, waitedMs: waitMs }, 'another node held its turn too long; this node runs the work beside it');
      } finally {
        await sql`select set_config('lock_timeout', '0', false)`.execute(connection).catch(() => undefined);
      }
      try {
        return await work();
      } finally {
        // a connection lost meanwhile took the lock with it
        if (locked) await sql`select pg_advisory_unlock(${ONE_AT_A_TIME_LOCKS}, hashtext(${name}))`.execute(connection).catch(() => undefined);
      }
    });
  }

  async remove(name: string): Promise<NodeRemoval> {
    const node = (await this.nodes()).find((candidate) => candidate.name === name);
    if (!node) return 'unknown';
    if (node.live) return 'live';
    const cutoff = (await this.storeNowMs()) - this.leaseMs;
    // only while still dead: a node that beat meanwhile stays
    const result = await this.db.deleteFrom('kernel_nodes').where('name', '=', name).where('heartbeat_ms', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows) > 0 ? 'removed' : 'live';
  }

  /** Stops beating and removes this node's row, so the others take its work at once rather than after the lease. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.beating;
    try {
      await this.db.deleteFrom('kernel_nodes').where('name', '=', this.name).where('instance', '=', this.instance).execute();
    } catch (error) {
      this.logger.warn({ reason: (error as Error).message }, 'this node could not remove itself from the node list');
    }
  }
}
