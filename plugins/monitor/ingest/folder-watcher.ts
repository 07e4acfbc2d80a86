/**
 * Watches one interface's folder and hands over files only once they settled: size and mtime unchanged for
 * `settleMs`. The interface's pattern (picomatch) filters files, on the path relative to the folder.
 *
 * With file-system events (the default), the folders are watched ({@link DirectoryEvents}), never the files: each
 * folder event names the entry, and this watcher stats that file itself. A watch per file would cost more than
 * reading a 1 KB message and run out (Linux caps inotify watches per user) in the large folders a monitor that never
 * moves a file produces. The files already there are reported by listing the folder: the watch manager does it right
 * after start ({@link FolderWatcher.listFiles}, {@link FolderWatcher.reconsider}), and this watcher does it for a
 * subfolder that appears later. With polling (network shares, where folders report no event for a change inside a
 * file), chokidar polls each matching file and reports it.
 *
 * File-system events can be lost (a full kernel event queue while the machine is busy), so the watch manager also
 * lists the folder now and then and hands back what the ledger has not counted.
 */
import { readdir } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { BackgroundJobs } from '../../../kernel/background/background-guard.ts';
import type { MonitoredInterface } from '../api.ts';
import { compileFilePattern } from '../interfaces/file-pattern.ts';
import { DirectoryEvents } from './directory-events.ts';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import { lstatEntry } from './entry-stat.ts';

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
  /** The guard settle timers and the looks that events start run under (their failures are reported, never thrown). */
  background: Pick<BackgroundJobs, 'run' | 'after'>;
}

/** Matching files whose names are not valid UTF-8: some of the names, and how many there are. */
export interface UnreadableNames {
  names: string[];
  total: number;
}

/** Names of files the pattern does not match that a watcher keeps at most (it counts all): an alert shows a few. */
const SKIPPED_NAMES_KEPT = 20;

/** Names that are not valid UTF-8 a watcher keeps at most (it counts all): an alert shows a few. */
const NAMES_NOT_UTF8_KEPT = 100;

/** A matching regular file found by listing the folder. */
export interface ListedFile {
  absolutePath: string;
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Files stat-ed at once while listing a folder. */
const LIST_STAT_CONCURRENCY = 64;

/** Most files of one chunk of a listing. */
const LIST_CHUNK_FILES = 512;

/** What a name's undecodable bytes become when the platform gives it as UTF-8 text. */
const UNDECODABLE = '\uFFFD';

/** Extra age, beyond the settle time, a file's mtime must have to count as settled without waiting. */
const MTIME_MARGIN_MS = 1000;

interface Pending {
  size: number;
  mtimeMs: number;
  timer: NodeJS.Timeout;
  /** A folder event named the file again after it was stat-ed: its timer was pushed back, without a stat. */
  touched?: boolean;
}

/** One folder's watcher. */
export class FolderWatcher {
  /** The poller (chokidar), for an interface that polls. */
  private watcher: FSWatcher | undefined;
  /** The folders' file-system events, for an interface watched by events. */
  private events: DirectoryEvents | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Size and mtime each file last settled with: an event that changes neither (atime only) is ignored. */
  private readonly settled = new Map<string, string>();
  /** Entries folder events named, not looked at yet (in the order first named). */
  private readonly named = new Set<string>();
  private drainScheduled = false;
  /** Files whose stat for an event is under way, and whether another event named them meanwhile. */
  private readonly statting = new Map<string, boolean>();
  private readonly matches: (relativePath: string) => boolean;
  private closed = false;
  /**
   * Matching files whose names are not valid UTF-8 (relative paths, each undecodable byte as U+FFFD): they cannot be
   * opened by the name a listing gives. Found again by each whole listing, and by events meanwhile.
   */
  private namesNotUtf8 = new Set<string>();
  /** Files of the folder's last whole listing that the pattern does not match (a few names kept, all counted). */
  private skipped: UnreadableNames = { names: [], total: 0 };
  /** How many such files there are (the set keeps the first NAMES_NOT_UTF8_KEPT names). */
  private namesNotUtf8Total = 0;

  constructor(
    private readonly monitored: MonitoredInterface,
    private readonly options: FolderWatcherOptions,
  ) {
    this.matches = compileFilePattern(monitored.filePattern, monitored.recursive);
    const root = monitored.directoryPath;
    this.rootPrefix = root.endsWith(sep) ? root : `${root}${sep}`;
  }

  /** The folder with a trailing separator: paths under it are cut by prefix, with no `path.relative` per file. */
  private readonly rootPrefix: string;

  private relativeOf(path: string): string {
    const inside = path.startsWith(this.rootPrefix) ? path.slice(this.rootPrefix.length) : relative(this.monitored.directoryPath, path);
    return sep === '/' ? inside : inside.split(sep).join('/');
  }

  /**
   * Starts watching; resolves once the folders are watched (events) or chokidar is ready (polling). With polling, the files already there have been reported by
   * then; with events, the caller lists them ({@link FolderWatcher.listFiles}).
   */
  async start(): Promise<void> {
    const root = this.monitored.directoryPath;
    if (!this.monitored.usePolling) {
      // events: one operating-system watch per folder, and this watcher stats the entry an event names
      const events = new DirectoryEvents(root, this.monitored.recursive, {
        onEntry: (folder, name) => this.onFolderEvent(name, folder),
        // a subfolder that appears later may hold files already, written before its own watch was set up
        onFolderAdded: (folder) => this.spawn(() => this.observeListed(folder)),
        onError: (error) => this.options.onError(error),
      });
      this.events = events;
      await events.start();
      return;
    }
    // loaded when the first folder is polled, so one-shot CLI commands never pay for it
    const { watch } = await import('chokidar');
    if (this.closed) return;
    this.watcher = watch(root, {
      ignoreInitial: false,
      persistent: true,
      alwaysStat: true,
      followSymlinks: false,
      depth: this.monitored.recursive ? undefined : 0,
      usePolling: true,
      interval: this.options.pollingIntervalMs,
      binaryInterval: this.options.pollingIntervalMs,
      ignorePermissionErrors: true,
      // folders are walked (subject to depth), and the files the pattern matches
      ignored: (path: string, stats?: Stats) => path !== root && stats?.isFile() === true && !this.matches(this.relativeOf(path)),
    });
    const onFile = (path: string, stats?: Stats) => {
      if (!this.matches(this.relativeOf(path))) return;
      this.spawn(() => this.observe(path, stats));
    };
    this.watcher.on('add', onFile);
    this.watcher.on('change', onFile);
    this.watcher.on('unlink', (path: string) => this.forget(path));
    this.watcher.on('error', (error: unknown) => this.options.onError(error instanceof Error ? error : new Error(String(error))));
    await new Promise<void>((resolve) => this.watcher?.once('ready', () => resolve()));
  }

  /** A folder's own event about an entry of it: the entry is looked at (a file that is gone is forgotten). */
  private onFolderEvent(name: string | null, folder: string | undefined): void {
    if (this.closed || folder === undefined) return;
    if (!name) {
      // the platform did not say which entry changed: look at the whole folder
      this.spawn(() => this.observeListed(folder));
      return;
    }
    const path = join(folder, name);
    if (path === this.monitored.directoryPath) return;
    // A folder's events arrive many at once (a new file raises three or more, and a busy moment lets thousands
    // gather): they are noted here and looked at in slices of the event loop, each entry once however often named.
    this.named.add(path);
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(() => this.spawn(() => this.drainNamed()));
    }
  }

  /** Looks at the entries folder events named, LoopSlice by slice, until none is left. */
  private async drainNamed(): Promise<void> {
    const slice = new LoopSlice();
    for (const path of this.named) {
      this.named.delete(path);
      if (this.closed) break;
      if (this.matches(this.relativeOf(path))) {
        if (path.includes(UNDECODABLE)) this.spawn(() => this.checkName(path));
        else this.spawn(() => this.observe(path));
      }
      if (slice.spent()) await slice.pass();
    }
    // entries named while it ran were appended to the set and visited by this loop: none is left behind
    this.drainScheduled = false;
  }

  /** A name that came with undecodable bytes: noted when no file has that text name (its bytes are not UTF-8). */
  private async checkName(path: string): Promise<void> {
    try {
      await lstatEntry(path);
      this.spawn(() => this.observe(path));
    } catch {
      if (!this.closed) this.noteNameNotUtf8(this.relativeOf(path));
    }
  }

  /** Keeps a name that is not UTF-8, up to NAMES_NOT_UTF8_KEPT of them; the rest are only counted. */
  private noteNameNotUtf8(relativePath: string): void {
    if (this.namesNotUtf8.has(relativePath)) return;
    if (this.namesNotUtf8.size < NAMES_NOT_UTF8_KEPT) this.namesNotUtf8.add(relativePath);
    this.namesNotUtf8Total++;
  }

  /**
   * Matching files found whose names are not valid UTF-8: some of their names (relative, each undecodable byte as
   * U+FFFD; at most NAMES_NOT_UTF8_KEPT) and how many there are.
   */
  get unreadableNames(): UnreadableNames {
    return { names: [...this.namesNotUtf8], total: this.namesNotUtf8Total };
  }

  /**
   * Files the folder's last whole listing found that the pattern does not match (hidden files left out): counted,
   * the first names (in listing order) kept, so the interface can say which files it ignores.
   */
  get skippedFiles(): UnreadableNames {
    return { names: [...this.skipped.names], total: this.skipped.total };
  }

  /** Lists a (sub)folder and looks at each matching file with the size and mtime just listed. */
  private async observeListed(folder: string): Promise<void> {
    for await (const files of this.listFiles(() => false, folder)) {
      for (const file of files) {
        if (this.closed) return;
        this.spawn(() => this.observe(file.absolutePath, file, true));
      }
    }
  }

  /** Starts a look at the folder or a file that nobody awaits: a failure is logged and reported by the guard. */
  private spawn(look: () => Promise<void>): void {
    void this.options.background.run('folder-watch', look);
  }

  private forget(path: string): void {
    this.settled.delete(path);
    const pending = this.pending.get(path);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(path);
  }

  private async observe(path: string, stats?: Pick<Stats, 'size' | 'mtimeMs'>, statIsFresh = false): Promise<void> {
    const waiting = this.pending.get(path);
    if (waiting && !stats && !this.monitored.usePolling) {
      // A file being written raises an event per write: while it waits to settle, another event only pushes its
      // timer back (no stat per write); the check at the end stats it once.
      waiting.touched = true;
      waiting.timer.refresh();
      return;
    }
    let current = stats;
    // An event's stats may be older than the event (a loaded machine delivers late): the shortcut below must judge
    // the file as it is now, so it stats afresh.
    const fresh = !this.monitored.usePolling;
    // Events that named the file while its stat was under way (a new file raises three or more at once).
    let eventsMeanwhile = false;
    if (!current || (fresh && !statIsFresh)) {
      const forEvent = fresh && !stats;
      if (forEvent) {
        // one stat per file at a time: a further event only says that the file moved on meanwhile
        if (this.statting.has(path)) {
          this.statting.set(path, true);
          return;
        }
        this.statting.set(path, false);
      }
      let now: Stats | undefined;
      try {
        now = await lstatEntry(path);
      } catch {
        // gone (its events say so)
      }
      if (forEvent) {
        eventsMeanwhile = this.statting.get(path) === true;
        this.statting.delete(path);
      }
      if (!now) {
        this.forget(path);
        // gone when stat-ed, yet named again meanwhile: it may be back (deleted and written anew)
        if (eventsMeanwhile) this.spawn(() => this.observe(path));
        return;
      }
      if (!now.isFile()) return;
      current = now;
    }
    // Written to after the stat was taken: it waits for its settle time, whatever the stat said.
    if (!eventsMeanwhile) {
      // reading a file moves its atime, which file-system events report as a change of a file that did not change
      if (this.settled.get(path) === `${current.size}:${current.mtimeMs}`) return;
      // A file last modified longer ago than the settle time has settled already (files found at start, or seen
      // late): no timer. Only with file-system events: over polled network shares the server's clock may differ.
      if (fresh && Date.now() - current.mtimeMs >= this.options.settleMs + MTIME_MARGIN_MS) {
        this.forget(path);
        this.handOver(path, current.size, current.mtimeMs);
        return;
      }
    }
    this.arm(path, current.size, current.mtimeMs);
    // the timer starts after the last of those events: the check at its end takes the file as it is then
    const armed = this.pending.get(path);
    if (eventsMeanwhile && armed) armed.touched = true;
  }

  /** (Re)starts the settle timer of a file with the size and mtime just seen. */
  private arm(path: string, size: number, mtimeMs: number): void {
    if (this.closed) return;
    const previous = this.pending.get(path);
    if (previous) clearTimeout(previous.timer);
    const timer = this.options.background.after('settle', this.options.settleMs, () => this.check(path), { ref: true });
    this.pending.set(path, { size, mtimeMs, timer });
  }

  private async check(path: string): Promise<void> {
    const pending = this.pending.get(path);
    if (!pending || this.closed) return;
    let now: Stats;
    try {
      now = await lstatEntry(path);
    } catch {
      this.forget(path);
      return;
    }
    if (!now.isFile()) {
      this.forget(path);
      return;
    }
    // Changed since it was stat-ed: when events said so (touched), the settle time has passed since the last of
    // them, so the file is settled as it is now; a change no event reported waits one settle time more.
    if ((now.size !== pending.size || now.mtimeMs !== pending.mtimeMs) && !pending.touched) {
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
   * does not leave out (it is asked before the file is stat-ed), with its size and mtime, in chunks of at most
   * LIST_CHUNK_FILES as they are stat-ed, so a caller can work on the first files of a large folder while the rest
   * are stat-ed. Symbolic links are left out, as the watcher leaves them (files are looked at with lstat). A folder
   * that cannot be read gives nothing (the periodic reachability check reports it). `folder` lists a subfolder only.
   */
  async *listFiles(
    skip: (absolutePath: string, relativePath: string) => boolean = () => false,
    folder = this.monitored.directoryPath,
  ): AsyncGenerator<ListedFile[]> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true, recursive: this.monitored.recursive });
    } catch {
      return;
    }
    let chunk: ListedFile[] = [];
    let candidates: { absolutePath: string; relativePath: string }[] = [];
    const whole = folder === this.monitored.directoryPath;
    const notUtf8 = new Set<string>();
    const skipped: UnreadableNames = { names: [], total: 0 };
    const statCandidates = async () => {
      const stats = await Promise.all(candidates.map(({ absolutePath }) => lstatEntry(absolutePath).catch(() => undefined)));
      stats.forEach((s, k) => {
        if (s?.isFile()) chunk.push({ ...candidates[k], size: s.size, mtimeMs: s.mtimeMs });
        // listed, yet no file has that text name: its bytes are not UTF-8
        else if (!s && candidates[k].relativePath.includes(UNDECODABLE)) notUtf8.add(candidates[k].relativePath);
      });
      candidates = [];
    };
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const absolutePath = join(entry.parentPath, entry.name);
      const relativePath = this.relativeOf(absolutePath);
      if (!this.matches(relativePath)) {
        if (!entry.name.startsWith('.')) {
          skipped.total++;
          if (skipped.names.length < SKIPPED_NAMES_KEPT) skipped.names.push(relativePath);
        }
        continue;
      }
      if (skip(absolutePath, relativePath)) continue;
      candidates.push({ absolutePath, relativePath });
      if (candidates.length >= LIST_STAT_CONCURRENCY) await statCandidates();
      if (chunk.length >= LIST_CHUNK_FILES) {
        yield chunk;
        chunk = [];
      }
    }
    await statCandidates();
    // a whole listing says which such names are there now (renamed or removed ones are gone); a subfolder's adds
    if (whole) {
      this.namesNotUtf8 = new Set();
      this.namesNotUtf8Total = 0;
      this.skipped = skipped;
    }
    for (const name of notUtf8) this.noteNameNotUtf8(name);
    if (chunk.length > 0) yield chunk;
  }

  /** Whether a file is waiting for its settle time. */
  isPending(absolutePath: string): boolean {
    return this.pending.has(absolutePath);
  }

  /**
   * Looks at a file again as if the watcher had just reported it, forgetting that it was handed over with this
   * size and mtime: for files the ledger has not counted although no event is left to bring them. `listed` is the
   * size and mtime a listing took a moment ago (no second stat).
   */
  reconsider(absolutePath: string, listed?: Pick<ListedFile, 'size' | 'mtimeMs'>): void {
    if (this.closed || this.pending.has(absolutePath)) return;
    this.settled.delete(absolutePath);
    this.spawn(() => this.observe(absolutePath, listed, listed !== undefined));
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
    this.statting.clear();
    this.named.clear();
    this.events?.close();
    this.events = undefined;
    await this.watcher?.close();
    this.watcher = undefined;
  }
}
