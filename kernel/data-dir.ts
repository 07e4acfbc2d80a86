/**
 * The default data folder: the platform's per-user data folder (env-paths: `~/.local/share/...` on Linux,
 * `~/Library/Application Support/...` on macOS, `%LOCALAPPDATA%\...\Data` on Windows), so the server and every CLI
 * command find the same database whatever folder they are started from. `dataDir` in the config or
 * WORKBENCH_DATA_DIR replace it.
 */
import envPaths from 'env-paths';

/** Name of the per-user folder. */
export const DATA_FOLDER_NAME = 'healthcare-integration-workbench';

/** The per-user data folder of this platform (read from the environment each time: tests point it elsewhere). */
export function defaultDataDir(): string {
  return envPaths(DATA_FOLDER_NAME, { suffix: '' }).data;
}
