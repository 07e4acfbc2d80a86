/** The ledger rows of the files stored messages came from, read by file id for the message routes. */
import type { Kysely } from 'kysely';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** What the message routes tell of a file. */
export interface MessageFileFacts {
  /** Path under the watched folder, `/` separated. */
  path: string;
  size: number;
  mtimeMs: number;
  messageCount: number;
}

/** Ledger facts of the given files, by id (ids without a row are absent); one statement per 500 ids. */
export async function messageFiles(db: Kysely<MonitorDatabase>, fileIds: readonly number[]): Promise<Map<number, MessageFileFacts>> {
  const found = new Map<number, MessageFileFacts>();
  const ids = [...new Set(fileIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('monitor_files')
      .select(['id', 'path', 'size', 'mtime_ms', 'message_count'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      found.set(Number(row.id), { path: row.path, size: Number(row.size), mtimeMs: Number(row.mtime_ms), messageCount: Number(row.message_count) });
    }
  }
  return found;
}

/** The last part of a `/` separated path. */
export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
