/**
 * Keeps one watcher per enabled interface and follows every change of the interfaces. A periodic check looks at
 * each folder: one that disappeared or became unreadable closes its watcher and raises a critical alert; when it is
 * back the watcher restarts by itself (and reads what arrived meanwhile). The same check writes each interface's
 * minute row (reachable, enabled) and evaluates the traffic rules. Right after a watcher starts, and every
 * `rescanIntervalMs` after that, the folder is listed and every file the ledger has not counted as it is now (and that
 * is neither settling nor queued) is handed to the watcher again: file-system events can be lost, the ledger cannot.
 *
 * The check, the watchers' timers and the rule evaluations after commits run under the background guard: a round
 * that fails shows in health as `job:monitor:watch-check` until a round succeeds, and never reaches the process.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { MonitoredInterface } from '../api.ts';
import type { AlertRuleEngine } from '../alerts/alert-rules.ts';
import { FolderWatcher, type UnreadableNames } from './folder-watcher.ts';
import type { IngestQueue } from './ingest-queue.ts';
import { directoryProblem } from '../interfaces/interface-input.ts';
import { currentRows, judgeByStat, ledgerKey } from './ledger.ts';
import { minuteOf } from '../messages/message-store.ts';
import type { MonitorDatabase } from '../monitor-tables.ts';
import { recordMinuteState } from './rollup-writer.ts';

/** The guarded name of the periodic check (health shows `job:monitor:watch-check` while it fails). */
const WATCH_CHECK = 'watch-check';

/** State of one interface in the running service. */
export interface WatchState {
  monitored: MonitoredInterface;
  watcher?: FolderWatcher;
  /** Why the folder cannot be watched, while it cannot. */
  problem?: string;
  /** When watching (re)started, by the kernel clock; null while not watching. */
  watchingSinceMs: number | null;
  /** Last minute row written: `minute|reachable|enabled`. */
  heartbeat?: string;
  /** When the folder was last listed against the ledger, by the kernel clock. */
  rescannedAtMs?: number;
}

/** What this node's ingest is doing now (`GET /api/monitor/activity`). */
export interface IngestActivity {
  /** Nothing settling, queued, held for its writer or being read or committed. */
  idle: boolean;
  /** Files seen and waiting for their size and mtime to stop changing. */
  settling: number;
  /** Settled files waiting for the ingest. */
  queued: number;
  /** Files whose last message waits for its writer to finish it. */
  held: number;
  /** When the ingest last finished its work, by the kernel clock (null: not since the start). */
  lastIngestEndedMs: number | null;
  /** When the last whole periodic check (reachability, minute rows, rules, due listings) ended (null: none yet). */
  checkedAtMs: number | null;
}

/** Options of the manager. */
export interface WatchManagerDeps {
  db: Kysely<MonitorDatabase>;
  clock: Clock;
  logger: Logger;
  queue: IngestQueue;
  rules: AlertRuleEngine;
  settleMs: number;
  pollingIntervalMs: number;
  checkIntervalMs: number;
  /** How often each watched folder is listed against the ledger (0: only when watching starts). */
  rescanIntervalMs: number;
  /**
   * Whether this node owns an interface (a team on one store: one node watches each; interface-ownership.ts).
   * Default: every interface. An interface not owned here is followed but never watched, checked or alerted on.
   */
  owns?: (id: string) => boolean;
  /** The guard the periodic check, the watchers' timers and the evaluations after commits run under. */
  background: BackgroundJobs;
}

/** Watchers of every interface. */
export class WatchManager {
  private readonly states = new Map<string, WatchState>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** When the last whole check ended, by the kernel clock. */
  private checkedAtMs: number | null = null;
  private stopped = false;
  /** Changes of one interface run one after another, so a quick disable/enable never leaves two watchers. */
  private changes: Promise<unknown> = Promise.resolve();
  /** Interfaces whose traffic evaluation waits for its turn ({@link evaluateSoon}). */
  private readonly evaluationsWaiting = new Set<string>();

  constructor(private readonly deps: WatchManagerDeps) {}

  /** The running state of an interface. */
  state(id: string): WatchState | undefined {
    return this.states.get(id);
  }

  /** Matching files of an interface's folder whose names are not valid UTF-8 (none when it is not watched here). */
  unreadableNames(id: string): UnreadableNames {
    return this.states.get(id)?.watcher?.unreadableNames ?? { names: [], total: 0 };
  }

  /** Files of an interface's folder its pattern does not match (none when it is not watched here). */
  skippedFiles(id: string): UnreadableNames {
    return this.states.get(id)?.watcher?.skippedFiles ?? { names: [], total: 0 };
  }

  /** Ids of the interfaces followed. */
  ids(): string[] {
    return [...this.states.keys()];
  }

  private owns(id: string): boolean {
    return this.deps.owns?.(id) ?? true;
  }

  /** Starts watching the given interfaces and the periodic check. */
  async start(interfaces: MonitoredInterface[]): Promise<void> {
    for (const monitored of interfaces) await this.apply(monitored);
    // Started again after a start that failed on an unreachable store: one timer, not two.
    clearInterval(this.timer);
    this.timer = this.deps.background.every(WATCH_CHECK, this.deps.checkIntervalMs, () => this.checkOnce());
  }

  /** Follows a created or changed interface: restarts its watcher with the new settings, or stops it. */
  apply(monitored: MonitoredInterface): Promise<void> {
    return this.serially(async () => {
      const previous = this.states.get(monitored.id);
      this.deps.queue.notWatching(monitored.id);
      await previous?.watcher?.close();
      const state: WatchState = { monitored, watchingSinceMs: null };
      this.states.set(monitored.id, state);
      // disabled: its episodes pause as they are (an acknowledged condition that still holds stays one alert)
      if (!this.owns(monitored.id)) return;
      if (monitored.enabled) await this.open(state);
      await this.writeHeartbeat(state);
    });
  }

  /** Stops watching an interface that is being removed. */
  remove(id: string): Promise<void> {
    return this.serially(async () => {
      const state = this.states.get(id);
      this.states.delete(id);
      this.deps.queue.notWatching(id);
      await state?.watcher?.close();
    });
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.changes.then(task, task);
    this.changes = run.catch(() => undefined);
    return run;
  }

  /** Opens the watcher of an enabled interface, or records why its folder cannot be watched. */
  private async open(state: WatchState): Promise<void> {
    if (this.stopped) return;
    const { monitored } = state;
    const problem = directoryProblem(monitored.directoryPath);
    state.problem = problem;
    await this.deps.rules.folderState(monitored, problem);
    if (problem) {
      this.deps.logger.warn({ interface: monitored.name, problem }, 'monitored folder is unreachable; retrying');
      return;
    }
    const watcher = new FolderWatcher(monitored, {
      settleMs: this.deps.settleMs,
      pollingIntervalMs: this.deps.pollingIntervalMs,
      onSettled: (file) => this.deps.queue.enqueue({ ...file, interfaceId: monitored.id, settledAtMs: this.deps.clock.nowMs() }),
      onError: (error) => this.deps.logger.warn({ interface: monitored.name, err: error }, 'folder watcher reported an error'),
      background: this.deps.background,
    });
    state.watcher = watcher;
    state.watchingSinceMs = this.deps.clock.nowMs();
    this.deps.queue.watching(monitored);
    await watcher.start();
    await this.rescan(state);
  }

  /**
   * Lists a watched folder and hands back to its watcher every file the ledger has not counted with its current size
   * and mtime, unless it is settling or queued already. Returns how many files were handed back.
   */
  async rescan(state: WatchState): Promise<number> {
    const watcher = state.watcher;
    if (!watcher) return 0;
    state.rescannedAtMs = this.deps.clock.nowMs();
    const { id } = state.monitored;
    const listing = watcher.listFiles(
      (absolutePath, relativePath) => watcher.isPending(absolutePath) || this.deps.queue.has(id, relativePath),
    );
    let missed = 0;
    for await (const listed of listing) {
      const rows = await currentRows(
        this.deps.db,
        listed.map((file) => ({ interfaceId: id, relativePath: file.relativePath })),
      );
      for (const file of listed) {
        const row = rows.get(ledgerKey(id, file.relativePath));
        if (judgeByStat(row, file.size, file.mtimeMs)?.kind === 'unchanged') continue;
        if (state.watcher !== watcher) return missed;
        watcher.reconsider(file.absolutePath, file);
        missed++;
      }
    }
    if (missed > 0) this.deps.logger.info({ interface: state.monitored.name, files: missed }, 'monitor found files not counted yet by listing the folder');
    return missed;
  }

  /**
   * One round of the periodic check: reachability, minute rows, traffic rules. Never rejects: a failure is logged and
   * reported by the guard.
   */
  check(): Promise<void> {
    return this.deps.background.run(WATCH_CHECK, () => this.checkOnce());
  }

  /** The round under way, or a new one; rejects when it fails. */
  private checkOnce(): Promise<void> {
    this.checking ??= this.checkNow()
      .then(() => {
        this.checkedAtMs = this.deps.clock.nowMs();
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  private async checkNow(): Promise<void> {
    for (const state of [...this.states.values()]) {
      if (this.stopped) return;
      await this.serially(async () => {
        if (this.states.get(state.monitored.id) !== state || !this.owns(state.monitored.id)) return;
        const { monitored } = state;
        if (monitored.enabled) {
          const problem = directoryProblem(monitored.directoryPath);
          if (problem && state.watcher) {
            this.deps.queue.notWatching(monitored.id);
            await state.watcher.close();
            state.watcher = undefined;
            state.watchingSinceMs = null;
            state.problem = problem;
            this.deps.logger.warn({ interface: monitored.name, problem }, 'monitored folder became unreachable');
            await this.deps.rules.folderState(monitored, problem);
          } else if (!problem && !state.watcher) {
            await this.open(state);
          }
        }
        await this.writeHeartbeat(state);
        if (state.watcher && state.watchingSinceMs !== null) await this.deps.rules.evaluateTraffic(monitored, state.watchingSinceMs);
        const { rescanIntervalMs } = this.deps;
        if (state.watcher && rescanIntervalMs > 0 && this.deps.clock.nowMs() - (state.rescannedAtMs ?? 0) >= rescanIntervalMs) {
          await this.rescan(state);
        }
      });
    }
  }

  /** After-commit listener: evaluates soon the traffic rules of every interface a commit touched. */
  evaluateCommitted(files: ReadonlyArray<{ file: { interfaceId: string } }>): void {
    for (const id of new Set(files.map(({ file }) => file.interfaceId))) this.evaluateSoon(id);
  }

  /**
   * Evaluates the traffic rules of an interface soon (after a commit), in turn with the interface changes and checks,
   * without holding up the caller: the ingest goes on with the next batch while a watcher is still starting. Asks
   * made while an evaluation of the interface waits for its turn are folded into that one.
   */
  evaluateSoon(id: string): void {
    if (this.stopped || this.evaluationsWaiting.has(id)) return;
    this.evaluationsWaiting.add(id);
    this.serially(async () => {
      this.evaluationsWaiting.delete(id);
      const state = this.states.get(id);
      if (!this.stopped && state?.watcher && state.watchingSinceMs !== null) {
        await this.deps.rules.evaluateTraffic(state.monitored, state.watchingSinceMs);
      }
    }).catch((error: unknown) => this.deps.background.failed('rule-evaluation', error));
  }

  /** Writes the minute row of an interface when the minute or its state changed. */
  private async writeHeartbeat(state: WatchState): Promise<void> {
    const minute = minuteOf(this.deps.clock.nowMs());
    const reachable = state.monitored.enabled ? Boolean(state.watcher) : !state.problem;
    const enabled = state.monitored.enabled;
    const key = `${minute}|${reachable}|${enabled}`;
    if (state.heartbeat === key) return;
    state.heartbeat = key;
    await recordMinuteState(this.deps.db, { interfaceId: state.monitored.id, minute, reachable, enabled });
  }

  /** What the ingest of this node is doing now: idle or not, and what it waits on. */
  activity(): IngestActivity {
    let settling = 0;
    for (const state of this.states.values()) settling += state.watcher?.unsettled ?? 0;
    const { queue } = this.deps;
    const queued = queue.size;
    const { held } = queue;
    return {
      idle: settling === 0 && queued === 0 && held === 0 && !queue.busy,
      settling,
      queued,
      held,
      lastIngestEndedMs: queue.lastRunEndedMs,
      checkedAtMs: this.checkedAtMs,
    };
  }

  /**
   * Resolves once the monitor is still: nothing settling, queued or held for its writer (open-tails.ts), every watched
   * folder listed once more against the ledger (and what that found read), then one whole periodic check
   * (reachability, minute rows, alert rules) and the rule evaluations commits asked for (`POST /api/monitor/rescan`).
   */
  async quiesce(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const settled = async () => {
      for (;;) {
        await this.deps.queue.idle();
        let unsettled = 0;
        for (const state of this.states.values()) unsettled += state.watcher?.unsettled ?? 0;
        const { held } = this.deps.queue;
        if (unsettled === 0 && this.deps.queue.size === 0 && held === 0) return;
        if (Date.now() > deadline) {
          throw new Error(`The monitor did not come to rest within ${timeoutMs} ms (${unsettled} files settling, ${held} held for their writers).`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await settled();
    for (const state of [...this.states.values()]) await this.serially(() => this.rescan(state));
    await settled();
    // a check in flight may have begun before the last commit: the second one begins after it
    await this.check();
    await this.check();
    await this.changes;
  }

  /** Stops the check and every watcher; safe to call twice. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.checking?.catch(() => undefined); // reported by the guard
    await this.changes;
    for (const state of this.states.values()) await state.watcher?.close();
  }
}
