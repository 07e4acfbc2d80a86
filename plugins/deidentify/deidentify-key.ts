/**
 * The local de-identification key: 32 random bytes in a file of the data folder, readable by its owner only (0600).
 * The same key gives the same pseudonyms across runs, so a de-identified feed still traces from one day to the next;
 * deleting the file starts a new, unlinkable mapping.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';

/** Bytes of a key. */
const KEY_BYTES = 32;

/** Where the key file lives: `keyFile` of the config (relative to the data folder) or `deidentify.key` there. */
export function keyFilePath(dataDir: string, keyFile: string): string {
  return isAbsolute(keyFile) ? keyFile : join(dataDir, keyFile);
}

/**
 * Reads the key file, creating it (0600, exclusive create so two processes starting together cannot write two
 * different keys) when it does not exist. A file of the wrong size is refused rather than silently replaced: the
 * pseudonyms of earlier runs depend on it.
 */
export function loadOrCreateKey(file: string): Buffer {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(KEY_BYTES).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new Error(`The de-identification key file ${file} does not hold 64 hexadecimal digits; restore it or delete it to start a new mapping.`);
  }
  // Tighten a copy restored with looser permissions (ignored where the platform has no modes).
  try {
    chmodSync(file, 0o600);
  } catch {
    /* best effort */
  }
  return Buffer.from(text, 'hex');
}
