/**
 * The default name of a node: the host name and the id of its data folder (`<host>-<id>`). The id is made once,
 * eight random hex digits kept in the file `node-id` of the data folder, so a node keeps its name across restarts
 * and two processes of one host with their own data folders get two names.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** File of the data folder that holds its id. */
export const NODE_ID_FILE = 'node-id';

/** The data folder's id, made and stored on first use. */
export function dataFolderId(dataDir: string): string {
  const file = join(dataDir, NODE_ID_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{8}$/.test(stored)) return stored;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const id = randomBytes(4).toString('hex');
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

/** The configured node name, or `<host>-<data folder id>` (the host name reduced to the characters a name allows). */
export function nodeNameOf(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'node';
  return `${host.slice(0, 180)}-${dataFolderId(dataDir)}`;
}
