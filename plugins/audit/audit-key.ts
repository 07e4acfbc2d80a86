/**
 * The key of the audit chain's links, kept outside the database: a file of 32 random bytes (hex), created 0600 on
 * first use in the data folder, or a file the config names (processes sharing one PostgreSQL store must share the
 * key, so they point `plugins.audit.keyFile` at the same file). Whoever can only write the database cannot forge a
 * link without it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The key and whether this call created it (the chain is keyed from the next entry on). */
export interface AuditKey {
  key: Buffer;
  created: boolean;
}

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/** Reads the key file, or creates it (0600) when it does not exist; a file that holds no key is an error. */
export function loadOrCreateAuditKey(path: string): AuditKey {
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text === undefined) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    try {
      // 'wx': two processes starting at once never each write a different key; the loser reads the winner's.
      writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      return { key, created: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      text = readFileSync(path, 'utf8').trim();
    }
  }
  if (!KEY_PATTERN.test(text)) {
    throw new Error(`The audit key file ${path} does not hold a key (64 hexadecimal characters); restore it from a backup.`);
  }
  // A key readable by others proves nothing: keep it the owner's alone.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return { key: Buffer.from(text, 'hex'), created: false };
}
