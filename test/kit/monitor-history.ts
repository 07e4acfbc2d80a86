/**
 * Test kit: writes for tests and benches only, outside the service and its build (test/kit/): history
 * stored through the same commit as the ingest (ledger row, messages, roll-ups in one transaction) at chosen
 * received times, and minute rows as an import would have observed them. A test builds history in milliseconds
 * instead of waiting for files and clocks.
 */
import type { Kysely } from 'kysely';
import type { Storage } from '../../kernel/storage.ts';
import type { MinuteRollup, StoredIssue } from '../../plugins/monitor/api.ts';
import { commitFiles, sha256 } from '../../plugins/monitor/ingest/ledger.ts';
import type { ReadMessage } from '../../plugins/monitor/ingest/message-reading.ts';
import { minuteOf } from '../../plugins/monitor/messages/message-store.ts';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { DEFAULT_LATENCY_LIMITS, type LatencyLimits } from '../../plugins/monitor/ingest/rollup-writer.ts';

/** One message to store as if read from a file at `receivedAt`. */
export interface RecordedMessage {
  receivedAt: string | Date;
  messageType?: string | null;
  triggerEvent?: string | null;
  controlId?: string | null;
  sendingFacility?: string | null;
  /** Codes of its errors (a message with any is invalid). */
  errorCodes?: string[];
  /** Received minus the sender's time, ms (null: unknown). */
  latencyMs?: number | null;
}

function issue(code: string): StoredIssue {
  return { field: 'MSH', code, severity: 'error', message: `${code} recorded by a test` };
}

function readMessage(m: RecordedMessage, indexInFile: number, receivedMs: number): ReadMessage {
  const errors = (m.errorCodes ?? []).map(issue);
  const latencyMs = m.latencyMs ?? null;
  return {
    indexInFile,
    standard: 'hl7',
    messageTime: latencyMs === null ? null : new Date(receivedMs - latencyMs).toISOString(),
    messageType: m.messageType === undefined ? 'ADT' : m.messageType,
    triggerEvent: m.triggerEvent === undefined ? 'A01' : m.triggerEvent,
    version: '2.5',
    controlId: m.controlId ?? null,
    sendingApplication: 'TESTAPP',
    sendingFacility: m.sendingFacility === undefined ? 'TESTFAC' : m.sendingFacility,
    receivingApplication: null,
    receivingFacility: null,
    sequenceNumber: null,
    acknowledgedControlId: null,
    software: null,
    segmentIds: ['MSH'],
    patientIds: [],
    accountNumber: null,
    visitNumber: null,
    contentDigest: null,
    isValid: errors.length === 0,
    errors,
    warnings: [],
    latencyMs,
    latencyClass: latencyMs === null ? 'none' : 'ok',
    raw: '',
  };
}

let recorded = 0;

/**
 * Stores messages of an interface through the ingest's commit: one ledger row per distinct received time (a file
 * of those messages), in batches of `filesPerCommit`. Answers how many files were written.
 */
export async function recordMessages(
  storage: Storage,
  interfaceId: string,
  messages: RecordedMessage[],
  options: { latencyLimits?: LatencyLimits; filesPerCommit?: number } = {},
): Promise<number> {
  const byTime = new Map<string, RecordedMessage[]>();
  for (const m of messages) {
    const at = new Date(m.receivedAt).toISOString();
    const list = byTime.get(at) ?? [];
    list.push(m);
    byTime.set(at, list);
  }
  const files = [...byTime].map(([receivedAt, list]) => {
    const receivedMs = Date.parse(receivedAt);
    const path = `recorded/${++recorded}-${receivedMs}.hl7`;
    return {
      interfaceId,
      path,
      size: list.length,
      mtimeMs: receivedMs,
      hash: sha256(Buffer.from(path)),
      receivedAt,
      verdict: { kind: 'new' as const },
      state: 'ingested' as const,
      error: null,
      messages: list.map((m, i) => readMessage(m, i, receivedMs)),
    };
  });
  const perCommit = options.filesPerCommit ?? 200;
  const store = { db: storage.db, dialect: storage.dialect, sqlite: storage.sqlite };
  for (let i = 0; i < files.length; i += perCommit) {
    // history lands at its own times, behind what is stored: not the append-only order of live ingest
    await commitFiles(store, files.slice(i, i + perCommit), false, options.latencyLimits ?? DEFAULT_LATENCY_LIMITS, { appendOnly: false });
  }
  return files.length;
}

/**
 * Stores minute rows as observed (history imported from elsewhere): a row for an existing minute replaces it.
 * Latency histograms and hour and day roll-ups are not written, so only minute reads see imported rows.
 */
export async function importMinuteRollups(storage: Storage, rows: MinuteRollup[]): Promise<void> {
  if (rows.length === 0) return;
  const db = storage.db as Kysely<MonitorDatabase>;
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const minute = minuteOf(row.minute);
      await trx.deleteFrom('monitor_minutes').where('interface_id', '=', row.interfaceId).where('minute', '=', minute).execute();
      await trx
        .insertInto('monitor_minutes')
        .values({
          interface_id: row.interfaceId,
          minute,
          messages: row.messages,
          failed: row.failed,
          latency_sum: row.latencySumMs,
          latency_count: row.latencyCount,
          reachable: row.reachable ? 1 : 0,
          enabled: row.enabled ? 1 : 0,
        })
        .execute();
    }
  });
}
