/**
 * The ledger: one row per file version the monitor read, written in the same transaction as that file's messages,
 * their identifiers and the minute roll-ups they add to. A crash leaves each file either fully counted or not at
 * all, and the ledger row is what makes a restart skip a file already counted.
 *
 * How a file found at a path is judged against the ledger's current row for that path:
 * - no row: a new file, every message counts;
 * - same size and mtime: already counted, not read again;
 * - same content hash: touched only (mtime moved), nothing new;
 * - larger, and its first `size` bytes hash to the stored hash: appended, only the messages after the stored count;
 * - anything else: rewritten, a new file (the old row is kept, marked `replaced`, its messages stay counted).
 */
import { createHash } from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { latencyBucket } from './latency-histogram.ts';
import type { ReadMessage } from './message-reading.ts';
import { minuteOf } from './message-store.ts';
import type { FileRow, FileTable, MessageRow, MonitorDatabase } from './monitor-tables.ts';

/** How a file relates to what the ledger holds for its path. */
export type FileVerdict =
  | { kind: 'new' }
  | { kind: 'unchanged'; row: FileRow }
  | { kind: 'touched'; row: FileRow }
  | { kind: 'appended'; row: FileRow }
  | { kind: 'rewritten'; row: FileRow };

/** A file read and ready to commit. */
export interface ReadFile {
  interfaceId: string;
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  receivedAt: string;
  verdict: FileVerdict;
  state: 'ingested' | 'unparsable' | 'empty';
  error: string | null;
  /** The messages this read adds (after any already stored). */
  messages: ReadMessage[];
}

/** What a commit wrote for one file. */
export interface CommittedFile {
  file: ReadFile;
  fileId: number;
}

/** SHA-256 of bytes, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Key of a path of an interface in maps of files: `interfaceId NUL path`. */
export function ledgerKey(interfaceId: string, path: string): string {
  return `${interfaceId}\u0000${path}`;
}

/** Current ledger rows of many paths at once, keyed `interfaceId NUL path` (one query per interface and 500 paths). */
export async function currentRows(
  db: Kysely<MonitorDatabase>,
  files: ReadonlyArray<{ interfaceId: string; relativePath: string }>,
): Promise<Map<string, FileRow>> {
  const byInterface = new Map<string, string[]>();
  for (const f of files) {
    const paths = byInterface.get(f.interfaceId) ?? [];
    paths.push(f.relativePath);
    byInterface.set(f.interfaceId, paths);
  }
  const rows = new Map<string, FileRow>();
  for (const [interfaceId, paths] of byInterface) {
    for (let i = 0; i < paths.length; i += 500) {
      const found = await db
        .selectFrom('monitor_files')
        .selectAll()
        .where('interface_id', '=', interfaceId)
        .where('path', 'in', paths.slice(i, i + 500))
        .where('state', '!=', 'replaced')
        .orderBy('id')
        .execute();
      // the newest row of a path wins
      for (const row of found) rows.set(ledgerKey(interfaceId, row.path), row);
    }
  }
  return rows;
}

/** Judges a file by its stat alone: undefined means its content must be read to decide. */
export function judgeByStat(row: FileRow | undefined, size: number, mtimeMs: number): FileVerdict | undefined {
  if (!row) return { kind: 'new' };
  if (Number(row.size) === size && Number(row.mtime_ms) === mtimeMs) return { kind: 'unchanged', row };
  return undefined;
}

/** Judges a file by its content against its row. */
export function judgeByContent(row: FileRow, content: Buffer, hash: string): FileVerdict {
  if (hash === row.content_hash) return { kind: 'touched', row };
  const oldSize = Number(row.size);
  if (content.length > oldSize && row.state !== 'unparsable' && sha256(content.subarray(0, oldSize)) === row.content_hash) {
    return { kind: 'appended', row };
  }
  return { kind: 'rewritten', row };
}

const MESSAGE_CHUNK = 400;

/**
 * Text as every database stores it: PostgreSQL refuses NUL characters (binary files carry them) and values longer
 * than their column, so NUL becomes U+FFFD and a value is cut to `max` characters.
 */
function storable<T extends string | null>(value: T, max?: number): T {
  if (value === null) return value;
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  return (max !== undefined && clean.length > max ? clean.slice(0, max) : clean) as T;
}

function messageRows(file: ReadFile, fileId: number, keepRaw: boolean): MessageRow[] {
  return file.messages.map((m) => ({
    file_id: fileId,
    index_in_file: m.indexInFile,
    interface_id: file.interfaceId,
    received_at: file.receivedAt,
    message_time: m.messageTime,
    message_type: storable(m.messageType, 20),
    trigger_event: storable(m.triggerEvent, 20),
    version: storable(m.version, 20),
    control_id: storable(m.controlId, 200),
    sending_application: storable(m.sendingApplication, 200),
    sending_facility: storable(m.sendingFacility, 200),
    patient_ids: JSON.stringify(m.patientIds),
    account_number: storable(m.accountNumber, 200),
    visit_number: storable(m.visitNumber, 200),
    is_valid: m.isValid ? 1 : 0,
    errors: JSON.stringify(m.errors),
    warnings: JSON.stringify(m.warnings),
    latency_ms: m.latencyMs,
    raw: keepRaw ? storable(m.raw) : null,
  }));
}

/**
 * Writes the ledger rows of a batch: updates for touched and appended files, and for rewritten ones the old row
 * marked `replaced`; new rows in multi-row inserts with ids taken after the highest stored one (the monitor is the
 * only writer of its ledger, and the transaction holds the write lock), which saves a round trip per file.
 */
async function writeFileRows(trx: Transaction<MonitorDatabase>, files: ReadFile[]): Promise<number[]> {
  const ids: number[] = [];
  const inserts: Insertable<FileTable>[] = [];
  const top = await trx.selectFrom('monitor_files').select((eb) => eb.fn.max('id').as('top')).executeTakeFirst();
  let nextId = Number(top?.top ?? 0);
  for (const file of files) {
    const failed = file.messages.filter((m) => !m.isValid).length;
    const { verdict } = file;
    if (verdict.kind === 'touched' || verdict.kind === 'appended') {
      await trx
        .updateTable('monitor_files')
        .set({
          size: file.size,
          mtime_ms: file.mtimeMs,
          content_hash: file.hash,
          message_count: Number(verdict.row.message_count) + file.messages.length,
          failed_count: Number(verdict.row.failed_count) + failed,
          state: verdict.kind === 'appended' ? file.state : verdict.row.state,
          last_read_at: file.receivedAt,
        })
        .where('id', '=', verdict.row.id)
        .execute();
      ids.push(Number(verdict.row.id));
      continue;
    }
    if (verdict.kind === 'rewritten') {
      await trx.updateTable('monitor_files').set({ state: 'replaced' }).where('id', '=', verdict.row.id).execute();
    }
    const id = ++nextId;
    ids.push(id);
    inserts.push({
      id,
      interface_id: file.interfaceId,
      path: storable(file.path, 4096),
      size: file.size,
      mtime_ms: file.mtimeMs,
      content_hash: file.hash,
      message_count: file.messages.length,
      failed_count: failed,
      state: file.state,
      error: storable(file.error),
      first_read_at: file.receivedAt,
      last_read_at: file.receivedAt,
    });
  }
  for (let i = 0; i < inserts.length; i += MESSAGE_CHUNK / 2) {
    await trx.insertInto('monitor_files').values(inserts.slice(i, i + MESSAGE_CHUNK / 2)).execute();
  }
  return ids;
}

/** Adds the batch's messages to the minute roll-ups and latency histograms. */
async function addToRollups(trx: Transaction<MonitorDatabase>, files: ReadFile[]): Promise<void> {
  const minutes = new Map<string, { interfaceId: string; minute: string; messages: number; failed: number; sum: number; count: number }>();
  const buckets = new Map<string, { interfaceId: string; minute: string; bucket: number; count: number }>();
  for (const file of files) {
    if (file.messages.length === 0) continue;
    const minute = minuteOf(file.receivedAt);
    const key = `${file.interfaceId}|${minute}`;
    let entry = minutes.get(key);
    if (!entry) {
      entry = { interfaceId: file.interfaceId, minute, messages: 0, failed: 0, sum: 0, count: 0 };
      minutes.set(key, entry);
    }
    for (const message of file.messages) {
      entry.messages++;
      if (!message.isValid) entry.failed++;
      if (message.latencyMs === null) continue;
      const latency = Math.max(0, message.latencyMs);
      entry.sum += latency;
      entry.count++;
      const bucket = latencyBucket(latency);
      const bucketKey = `${key}|${bucket}`;
      const b = buckets.get(bucketKey);
      if (b) b.count++;
      else buckets.set(bucketKey, { interfaceId: file.interfaceId, minute, bucket, count: 1 });
    }
  }
  for (const m of minutes.values()) {
    await trx
      .insertInto('monitor_minutes')
      .values({
        interface_id: m.interfaceId,
        minute: m.minute,
        messages: m.messages,
        failed: m.failed,
        latency_sum: m.sum,
        latency_count: m.count,
        reachable: 1,
        enabled: 1,
      })
      .onConflict((oc) =>
        oc.columns(['interface_id', 'minute']).doUpdateSet((eb) => ({
          messages: eb('monitor_minutes.messages', '+', eb.ref('excluded.messages')),
          failed: eb('monitor_minutes.failed', '+', eb.ref('excluded.failed')),
          latency_sum: eb('monitor_minutes.latency_sum', '+', eb.ref('excluded.latency_sum')),
          latency_count: eb('monitor_minutes.latency_count', '+', eb.ref('excluded.latency_count')),
        })),
      )
      .execute();
  }
  const bucketRows = [...buckets.values()].map((b) => ({ interface_id: b.interfaceId, minute: b.minute, bucket: b.bucket, count: b.count }));
  for (let i = 0; i < bucketRows.length; i += MESSAGE_CHUNK) {
    await trx
      .insertInto('monitor_minute_latency')
      .values(bucketRows.slice(i, i + MESSAGE_CHUNK))
      .onConflict((oc) =>
        oc.columns(['interface_id', 'minute', 'bucket']).doUpdateSet((eb) => ({
          count: eb('monitor_minute_latency.count', '+', eb.ref('excluded.count')),
        })),
      )
      .execute();
  }
}

/**
 * Commits files in one transaction: for each, its ledger row, its messages and their identifiers; then the minute
 * roll-ups of all of them. Either everything is stored or nothing is.
 */
export async function commitFiles(db: Kysely<MonitorDatabase>, files: ReadFile[], keepRaw: boolean): Promise<CommittedFile[]> {
  return db.transaction().execute(async (trx) => {
    const committed: CommittedFile[] = [];
    const messages: MessageRow[] = [];
    const identifiers: MonitorDatabase['monitor_message_identifiers'][] = [];
    const fileIds = await writeFileRows(trx, files);
    for (const [index, file] of files.entries()) {
      const fileId = fileIds[index];
      committed.push({ file, fileId });
      for (const row of messageRows(file, fileId, keepRaw)) messages.push(row);
      for (const m of file.messages) {
        const seen = new Set<string>();
        const add = (kind: string, value: string | null) => {
          if (value === null || value.length > 200 || seen.has(`${kind}:${value}`)) return;
          seen.add(`${kind}:${value}`);
          identifiers.push({ file_id: fileId, index_in_file: m.indexInFile, kind, value: storable(value), received_at: file.receivedAt });
        };
        for (const patient of m.patientIds) add('patient', patient.id);
        add('account', m.accountNumber);
        add('account', m.visitNumber);
      }
    }
    for (let i = 0; i < messages.length; i += MESSAGE_CHUNK) {
      await trx.insertInto('monitor_messages').values(messages.slice(i, i + MESSAGE_CHUNK)).execute();
    }
    for (let i = 0; i < identifiers.length; i += MESSAGE_CHUNK * 2) {
      await trx.insertInto('monitor_message_identifiers').values(identifiers.slice(i, i + MESSAGE_CHUNK * 2)).execute();
    }
    await addToRollups(trx, files);
    return committed;
  });
}
