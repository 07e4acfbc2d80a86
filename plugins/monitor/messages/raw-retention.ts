/** Retention of raw message text: text older than the configured days is removed; the message's facts stay. */
import type { Kysely } from 'kysely';
import type { MonitorDatabase } from '../monitor-tables.ts';

/** Removes the raw text of messages received before `beforeMs`; returns how many lost their text. */
export async function pruneRawContent(db: Kysely<MonitorDatabase>, beforeMs: number): Promise<number> {
  const result = await db
    .updateTable('monitor_messages')
    .set({ raw: null })
    .where('received_at', '<', new Date(beforeMs).toISOString())
    .where('raw', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
