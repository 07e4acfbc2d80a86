/**
 * The default data folder: the platform's per-user data folder (env-paths: `~/.local/share/...` on Linux,
 * `~/Library/Application Support/...` on macOS, `%LOCALAPPDATA%\...\Data` on Windows), so the server and every CLI
 * command find the same database whatever folder they are started from. `dataDir` in the config or
 * WORKBENCH_DATA_DIR replace it.
 */
import { chmodSync, statSync } from 'node:fs';
import envPaths from 'env-paths';

/** Name of the per-user folder. */
export const DATA_FOLDER_NAME = 'healthcare-integration-workbench';

/** The per-user data folder of this platform (read from the environment each time: tests point it elsewhere). */
export function defaultDataDir(): string {
  return envPaths(DATA_FOLDER_NAME, { suffix: '' }).data;
}

/** What {@link secureDataFolder} found and did. */
export type DataFolderSecurity = 'absent' | 'private' | 'tightened' | { unchanged: string };

/**
 * Keeps a data folder that already exists the user's alone: it holds the credentials' digests and message data, so
 * a folder readable by group or others (0755, the usual default of mkdir) is tightened to 0700. When that is not
 * allowed (a folder of another owner, a file system without modes), the folder is left as it is and the reason is
 * returned for a start-up warning. A folder not yet there is created 0700 by the store.
 */
export function secureDataFolder(dir: string): DataFolderSecurity {
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return 'absent';
  }
  if (process.platform === 'win32' || (mode & 0o077) === 0) return 'private';
  try {
    chmodSync(dir, mode & 0o700);
    return 'tightened';
  } catch (error) {
    return { unchanged: `its mode is ${(mode & 0o777).toString(8).padStart(4, '0')} and it could not be changed (${(error as Error).message})` };
  }
}
