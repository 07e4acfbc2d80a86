/**
 * The checkpoint of the audit chain: the newest link this process wrote (id, link, time), the pruning anchor and
 * the first keyed entry, in a file beside the data (0600), rewritten atomically after every append and prune.
 * Someone who can only write the database can neither move it back nor forward, so deleting the newest entries
 * (truncating the head), deleting the oldest behind a forged anchor row (truncating the start) and rewriting the
 * chain all disagree with it. Exports carry it, so an exported trail can be checked against it too.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';

/** What the checkpoint records. */
export interface AuditCheckpoint {
  /** The newest entry this process appended (0 with the genesis link before any). */
  headId: number;
  headHash: string;
  /** When it was written. */
  at: string;
  /** The pruning anchor (last pruned id and link), or null before any pruning. */
  anchorId: number | null;
  anchorHash: string | null;
  /** The first entry linked under the key; earlier entries carry plain SHA-256 links. */
  keyedFromId: number;
}

const checkpointSchema = z
  .object({
    headId: z.number().int().min(0),
    headHash: z.string().regex(/^[0-9a-f]{64}$/),
    at: z.string(),
    anchorId: z.number().int().min(0).nullable(),
    anchorHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
    keyedFromId: z.number().int().min(1),
  })
  .strict();

/** Reads the checkpoint; undefined when there is none yet, an error when the file is not one. */
export function readCheckpoint(path: string): AuditCheckpoint | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = checkpointSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`The audit checkpoint ${path} is not a checkpoint: ${parsed.error.issues[0]?.message ?? 'unreadable'}.`);
  return parsed.data;
}

/**
 * Writes the checkpoint through a temporary file and a rename, so a crash never leaves half a checkpoint; a write
 * that fails (a full disk) removes its temporary file before the error is passed on, and the checkpoint on disk stays
 * the previous one.
 */
export function writeCheckpoint(path: string, checkpoint: AuditCheckpoint): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(checkpoint)}\n`, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temporary checkpoint files that a process killed mid-write (one no longer running) left beside it. */
export function removeStaleTemporaries(path: string): void {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (!name.startsWith(prefix) || !name.endsWith('.tmp') || !Number.isInteger(pid)) continue;
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(dirname(path), name), { force: true });
  }
}
