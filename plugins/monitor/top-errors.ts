/** The most frequent validation errors of an interface in a window, by code and field. */
import type { Kysely } from 'kysely';
import type { StoredIssue } from './api.ts';
import type { MonitorDatabase } from './monitor-tables.ts';

/** Failed messages looked at, at most, per interface and report (the newest first). */
export const TOP_ERRORS_SCAN_MAX = 20_000;

/** One row of the top errors. */
export interface ErrorCount {
  code: string;
  field: string;
  count: number;
  /** One message text of that code and field, as an example. */
  example: string;
}

/** Top `n` errors of failed messages received since `since`; `scanned` says how many failed messages were read. */
export async function topErrors(
  db: Kysely<MonitorDatabase>,
  interfaceId: string,
  since: string,
  n = 10,
): Promise<{ errors: ErrorCount[]; scanned: number; capped: boolean }> {
  const rows = await db
    .selectFrom('monitor_messages')
    .select('errors')
    .where('interface_id', '=', interfaceId)
    .where('received_at', '>=', since)
    .where('is_valid', '=', 0)
    .orderBy('received_at', 'desc')
    .limit(TOP_ERRORS_SCAN_MAX)
    .execute();
  const counts = new Map<string, ErrorCount>();
  for (const row of rows) {
    for (const issue of JSON.parse(row.errors) as StoredIssue[]) {
      const key = `${issue.code}\u0000${issue.field}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { code: issue.code, field: issue.field, count: 1, example: issue.message });
    }
  }
  const errors = [...counts.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)).slice(0, n);
  return { errors, scanned: rows.length, capped: rows.length === TOP_ERRORS_SCAN_MAX };
}
