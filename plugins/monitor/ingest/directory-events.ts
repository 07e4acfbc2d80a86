/**
 * The file-system events of a folder (and, for a recursive interface, of each folder under it): one operating-system
 * watch per folder (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows, through `fs.watch`), each
 * event handed on with the folder it came from and the entry it names. Nothing is listed or stat-ed here: the folder
 * watcher stats the one entry an event names.
 *
 * This replaces chokidar for folders watched by events (polling stays with chokidar). chokidar answers every change in
 * a folder by listing the whole folder again and stat-ing each entry in it (at most once a second per folder): in a
 * folder a monitor never empties that is a full pass over every file ever delivered, every second, while files
 * arrive. With 13,000 files that was 3.2 s of the process's CPU in 20 s of load, and it grows with the folder.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { lstatEntry } from './entry-stat.ts';
import { join } from 'node:path';

/** What the events are handed to. */
export interface DirectoryEventHandlers {
  /** An entry of `folder` changed, appeared or went (`name` null when the platform did not say which). */
  onEntry(folder: string, name: string | null): void;
  /** A folder appeared under the root after the watch started (recursive only); its own watch is already set. */
  onFolderAdded(folder: string): void;
  /** A watch failed (e.g. the system's limit of watches reached); the folder is no longer watched. */
  onError(error: Error): void;
}

/** Watches a folder (and its subfolders when `recursive`) by file-system events. */
export class DirectoryEvents {
  private readonly watches = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly recursive: boolean,
    private readonly handlers: DirectoryEventHandlers,
  ) {}

  /** Sets the watches: the root's (a failure to watch the root is thrown) and, when recursive, every subfolder's. */
  async start(): Promise<void> {
    this.add(this.root, true);
    if (!this.recursive) return;
    let entries;
    try {
      entries = await readdir(this.root, { withFileTypes: true, recursive: true });
    } catch (error) {
      this.handlers.onError(error as Error);
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) this.add(join(entry.parentPath, entry.name), false);
  }

  /** The folders watched now. */
  get folders(): number {
    return this.watches.size;
  }

  /** Removes every watch; safe to call twice. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watches.values()) watcher.close();
    this.watches.clear();
  }

  private add(folder: string, throwOnFailure: boolean): void {
    if (this.closed || this.watches.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: true, encoding: 'utf8' }, (event, name) => this.onEvent(folder, event, name));
    } catch (error) {
      if (throwOnFailure) throw error;
      // a subfolder gone before its watch was set, or the watch limit reached: said once, the rest goes on
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.handlers.onError(error as Error);
      return;
    }
    watcher.on('error', (error: Error) => {
      watcher.close();
      this.watches.delete(folder);
      // a removed subfolder ends its watch with an error on some platforms: that is not a failure worth reporting
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') {
        this.handlers.onError(error);
      }
    });
    this.watches.set(folder, watcher);
  }

  private onEvent(folder: string, event: string, name: string | null): void {
    if (this.closed) return;
    this.handlers.onEntry(folder, name);
    // an entry appears or goes with a `rename` event (writes to a file are `change`): only then can it be a folder
    if (this.recursive && name && event === 'rename') void this.maybeFolder(join(folder, name));
  }

  /** An entry that is a folder not yet watched gets its watch (and the caller hears of it); a gone one loses it. */
  private async maybeFolder(path: string): Promise<void> {
    let isFolder = false;
    try {
      isFolder = (await lstatEntry(path)).isDirectory();
    } catch {
      const watcher = this.watches.get(path);
      if (watcher) {
        watcher.close();
        this.watches.delete(path);
      }
      return;
    }
    if (!isFolder || this.closed || this.watches.has(path)) return;
    this.add(path, false);
    // folders created inside it before its watch was set have no watch yet: list it for them
    try {
      for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
        if (entry.isDirectory()) this.add(join(entry.parentPath, entry.name), false);
      }
    } catch {
      // gone again: its events (if any) said so
    }
    if (this.watches.has(path)) this.handlers.onFolderAdded(path);
  }
}
