/**
 * Watches one interface's folder with chokidar (events, or polling for network shares) and hands over files only
 * once they settled: size and mtime unchanged for `settleMs`. chokidar 5 matches no globs, so the interface's
 * pattern (picomatch) filters what it reports, on the path relative to the folder. Files already in the folder are
 * reported when watching starts, so a restart or a re-enable picks up what arrived meanwhile. File-system events can
 * be lost (a full kernel event queue while the machine is busy, a file created while a folder's watch is being set
 * up), so the watch manager also lists the folder now and then ({@link FolderWatcher.listFiles}) and hands back what
 * the ledger has not counted ({@link FolderWatcher.reconsider}).
 */
import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { MonitoredInterface } from './api.ts';
import { compileFilePattern } from './file-pattern.ts';

/** A settled file, ready to read. */
export interface SettledFile {
  absolutePath: string;
  /** Path relative to the folder, `/` separated. */
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Options of a watcher. */
export interface FolderWatcherOptions {
  settleMs: number;
  pollingIntervalMs: number;
  onSettled(file: SettledFile): void;
  onError(error: Error): void;
}

/** A matching regular file found by listing the folder. */
export interface ListedFile {
  absolutePath: string;
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Files stat-ed at once while listing a folder. */
const LIST_STAT_CONCURRENCY = 64;

/** Extra age, beyond the settle time, a file's mtime must have to count as settled without waiting. */
const MTIME_MARGIN_MS = 1000;

interface Pending {
  size: number;
  mtimeMs: number;
  timer: NodeJS.Timeout;
}

/** One folder's watcher. */
export class FolderWatcher {
  private watcher: FSWatcher | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Size and mtime each file last settled with: an event that changes neither (atime only) is ignored. */
  private readonly settled = new Map<string, string>();
  private readonly matches: (relativePath: string) => boolean;
  private closed = false;

  constructor(
    private readonly monitored: MonitoredInterface,
    private readonly options: FolderWatcherOptions,
  ) {
    this.matches = compileFilePattern(monitored.filePattern);
    const root = monitored.directoryPath;
    this.rootPrefix = root.endsWith(sep) ? root : `${root}${sep}`;
  }

  /** The folder with a trailing separator: paths under it are cut by prefix, with no `path.relative` per file. */
  private readonly rootPrefix: string;

  private relativeOf(path: string): string {
    const inside = path.startsWith(this.rootPrefix) ? path.slice(this.rootPrefix.length) : relative(this.monitored.directoryPath, path);
    return sep === '/' ? inside : inside.split(sep).join('/');
  }

  /** Starts watching; resolves once the files already there were reported. */
  async start(): Promise<void> {
    const root = this.monitored.directoryPath;
    // loaded when the first folder is watched, so one-shot CLI commands never pay for it
    const { watch } = await import('chokidar');
    if (this.closed) return;
    this.watcher = watch(root, {
      ignoreInitial: false,
      persistent: true,
      alwaysStat: true,
      followSymlinks: false,
      depth: this.monitored.recursive ? undefined : 0,
      usePolling: this.monitored.usePolling,
      interval: this.options.pollingIntervalMs,
      binaryInterval: this.options.pollingIntervalMs,
      ignorePermissionErrors: true,
      // folders are always walked (subject to depth); files only when the pattern matches
      ignored: (path: string, stats?: Stats) => path !== root && stats?.isFile() === true && !this.matches(this.relativeOf(path)),
    });
    let ready = false;
    const onFile = (path: string, stats?: Stats) => {
      if (!this.matches(this.relativeOf(path))) return;
      void this.observe(path, stats);
    };
    // Files reported by the initial scan carry the stat chokidar took a moment ago while listing the folder, and no
    // earlier size and mtime exist to compare them with: they need no second stat (a folder of 10,000 files would
    // otherwise cost 10,000 more). The queue compares the file with a fresh stat after reading it anyway.
    this.watcher.on('add', (path: string, stats?: Stats) => {
      if (!this.matches(this.relativeOf(path))) return;
      void this.observe(path, stats, !ready && stats !== undefined);
    });
    this.watcher.on('change', onFile);
    this.watcher.on('unlink', (path: string) => this.forget(path));
    this.watcher.on('error', (error: unknown) => this.options.onError(error instanceof Error ? error : new Error(String(error))));
    await new Promise<void>((resolve) =>
      this.watcher?.once('ready', () => {
        ready = true;
        resolve();
      }),
    );
  }

  private forget(path: string): void {
    this.settled.delete(path);
    const pending = this.pending.get(path);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(path);
  }

  private async observe(path: string, stats?: Stats, statIsFresh = false): Promise<void> {
    let current = stats;
    // An event's stats may be older than the event (a loaded machine delivers late): the shortcut below must judge
    // the file as it is now, so it stats afresh.
    const fresh = !this.monitored.usePolling;
    if (!current || (fresh && !statIsFresh)) {
      try {
        current = await stat(path);
      } catch {
        this.forget(path);
        return;
      }
    }
    // reading a file moves its atime, which file-system events report as a change of a file that did not change
    if (this.settled.get(path) === `${current.size}:${current.mtimeMs}`) return;
    // A file last modified longer ago than the settle time has settled already (files found at start, or seen
    // late): no timer. Only with file-system events: over polled network shares the server's clock may differ.
    if (fresh && Date.now() - current.mtimeMs >= this.options.settleMs + MTIME_MARGIN_MS) {
      this.forget(path);
      this.handOver(path, current.size, current.mtimeMs);
      return;
    }
    this.arm(path, current.size, current.mtimeMs);
  }

  /** (Re)starts the settle timer of a file with the size and mtime just seen. */
  private arm(path: string, size: number, mtimeMs: number): void {
    if (this.closed) return;
    const previous = this.pending.get(path);
    if (previous) clearTimeout(previous.timer);
    const timer = setTimeout(() => void this.check(path), this.options.settleMs);
    this.pending.set(path, { size, mtimeMs, timer });
  }

  private async check(path: string): Promise<void> {
    const pending = this.pending.get(path);
    if (!pending || this.closed) return;
    let now: Stats;
    try {
      now = await stat(path);
    } catch {
      this.forget(path);
      return;
    }
    if (!now.isFile()) {
      this.forget(path);
      return;
    }
    if (now.size !== pending.size || now.mtimeMs !== pending.mtimeMs) {
      this.arm(path, now.size, now.mtimeMs);
      return;
    }
    this.pending.delete(path);
    this.handOver(path, now.size, now.mtimeMs);
  }

  private handOver(path: string, size: number, mtimeMs: number): void {
    this.settled.set(path, `${size}:${mtimeMs}`);
    this.options.onSettled({ absolutePath: path, relativePath: this.relativeOf(path), size, mtimeMs });
  }

  /**
   * Every regular file of the folder that the pattern matches (subfolders when the interface is recursive) and `skip`
   * does not leave out (it is asked before the file is stat-ed), with its size and mtime. Symbolic links are left
   * out, as the watcher leaves them. A folder that cannot be read gives an empty list (the periodic reachability
   * check reports it).
   */
  async listFiles(skip: (absolutePath: string, relativePath: string) => boolean = () => false): Promise<ListedFile[]> {
    const root = this.monitored.directoryPath;
    let entries;
    try {
      entries = await readdir(root, { withFileTypes: true, recursive: this.monitored.recursive });
    } catch {
      return [];
    }
    const candidates: string[] = [];
    const relativePaths: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const absolutePath = join(entry.parentPath, entry.name);
      const relativePath = this.relativeOf(absolutePath);
      if (!this.matches(relativePath) || skip(absolutePath, relativePath)) continue;
      candidates.push(absolutePath);
      relativePaths.push(relativePath);
    }
    const listed: ListedFile[] = [];
    for (let i = 0; i < candidates.length; i += LIST_STAT_CONCURRENCY) {
      const stats = await Promise.all(candidates.slice(i, i + LIST_STAT_CONCURRENCY).map((path) => stat(path).catch(() => undefined)));
      stats.forEach((s, k) => {
        const absolutePath = candidates[i + k];
        if (s?.isFile()) listed.push({ absolutePath, relativePath: relativePaths[i + k], size: s.size, mtimeMs: s.mtimeMs });
      });
    }
    return listed;
  }

  /** Whether a file is waiting for its settle time. */
  isPending(absolutePath: string): boolean {
    return this.pending.has(absolutePath);
  }

  /**
   * Looks at a file again as if the watcher had just reported it, forgetting that it was handed over with this
   * size and mtime: for files the ledger has not counted although no event is left to bring them.
   */
  reconsider(absolutePath: string): void {
    if (this.closed || this.pending.has(absolutePath)) return;
    this.settled.delete(absolutePath);
    void this.observe(absolutePath);
  }

  /** Files seen but not settled yet. */
  get unsettled(): number {
    return this.pending.size;
  }

  /** Stops watching and drops files not settled yet; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.pending.values()) clearTimeout(pending.timer);
    this.pending.clear();
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
