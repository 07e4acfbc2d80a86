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
 *
 * A file of many messages is committed in slices (batch-commit.ts): until its last slice its row is `partial`,
 * holding the count of the messages committed so far. Such a row is never unchanged: the same content (or more) is
 * judged appended, and only the messages after the stored count are read, so a crash between slices neither loses
 * nor counts twice a message.
 *
 * A file at a path the ledger has no row for whose content digest is that of a counted file of the interface whose
 * own path no longer exists was renamed (live, or while nothing watched): the same delivery, so its row moves to the
 * new path and nothing is counted again. A `partial` row renamed (the service was killed between two slices, and the
 * file renamed before it started again) moves too, and the messages after its stored count are committed with it.
 * A copy (the first file still there) is a new delivery.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inCommitTransaction, type CommitStatements, type CommitStore } from './commit-statements.ts';
import { keepUncounted, nextFileIds } from './ledger-claims.ts';
import { FACT_COLUMNS, factValues, storableText } from '../messages/message-facts.ts';
import type { FileVerdict, ReadFile } from './read-file.ts';
import { addToRollups, applyLatencyLimits, DEFAULT_LATENCY_LIMITS, type LatencyLimits } from './rollup-writer.ts';
import type { FileRow, FileTable, MessageRow, MonitorDatabase } from '../monitor-tables.ts';
import type { ReadMessage } from './message-reading.ts';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';

/** What a commit wrote for one file. */
export interface CommittedFile {
  file: ReadFile;
  fileId: number;
}

/** SHA-256 of bytes, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes hashed between two looks at the event loop's turn (about a millisecond of work). */
const HASH_STEP_BYTES = 1024 * 1024;

/** SHA-256 of bytes, hex, taking turns with the rest of the event loop (a 20 MB file is hashed in slices). */
export async function sha256InSlices(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= HASH_STEP_BYTES) return sha256(bytes);
  const hash = createHash('sha256');
  const slice = new LoopSlice();
  for (let at = 0; at < bytes.length; at += HASH_STEP_BYTES) {
    hash.update(bytes.subarray(at, at + HASH_STEP_BYTES));
    if (slice.spent()) await slice.pass();
  }
  return hash.digest('hex');
}

/** The state of a ledger row whose file's messages are committed in slices and not all stored yet. */
export const PARTIAL_STATE = 'partial';

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

/** Stored files of one digest looked at per new file at most (newest first), so a look-up stays bounded. */
const CANDIDATES_PER_FILE = 20;

/**
 * Files new at their paths that were renamed: for each, the counted row of the interface with the same content
 * digest whose own path is another that no longer exists (`exists` answers for a path of the ledger), newest first.
 * One query per interface and 500 digests; keyed by {@link ledgerKey} of the new path.
 */
export async function renamedFrom(
  db: Kysely<MonitorDatabase>,
  files: ReadonlyArray<{ interfaceId: string; path: string; hash: string }>,
  exists: (interfaceId: string, ledgerPath: string) => boolean,
): Promise<Map<string, FileRow>> {
  const found = new Map<string, FileRow>();
  const byInterface = new Map<string, Array<{ path: string; hash: string }>>();
  for (const file of files) {
    const group = byInterface.get(file.interfaceId) ?? [];
    group.push(file);
    byInterface.set(file.interfaceId, group);
  }
  for (const [interfaceId, group] of byInterface) {
    for (let i = 0; i < group.length; i += 500) {
      const slice = group.slice(i, i + 500);
      const rows = await db
        .selectFrom('monitor_files')
        .selectAll()
        .where('interface_id', '=', interfaceId)
        .where('content_hash', 'in', [...new Set(slice.map((f) => f.hash))])
        .where('state', '!=', 'replaced')
        .orderBy('id', 'desc')
        // content delivered many times (copies are new deliveries) must not make one batch read them all
        .limit(slice.length * CANDIDATES_PER_FILE)
        .execute();
      if (rows.length === 0) continue;
      const byHash = new Map<string, FileRow[]>();
      for (const row of rows) byHash.set(row.content_hash, [...(byHash.get(row.content_hash) ?? []), row]);
      // each stored path is looked at once per batch, however many new files share its digest
      const gone = new Map<string, boolean>();
      const isGone = (path: string) => {
        let answer = gone.get(path);
        if (answer === undefined) gone.set(path, (answer = !exists(interfaceId, path)));
        return answer;
      };
      const taken = new Set<number>();
      for (const file of slice) {
        const row = byHash.get(file.hash)?.find((r) => r.path !== file.path && !taken.has(Number(r.id)) && isGone(r.path));
        if (!row) continue;
        taken.add(Number(row.id));
        found.set(ledgerKey(interfaceId, file.path), row);
      }
    }
  }
  return found;
}

/** Judges a file by its stat alone: undefined means its content must be read to decide. */
export function judgeByStat(row: FileRow | undefined, size: number, mtimeMs: number): FileVerdict | undefined {
  if (!row) return { kind: 'new' };
  // a file committed in part is read again from its stored count
  if (row.state === PARTIAL_STATE) return undefined;
  if (Number(row.size) === size && Number(row.mtime_ms) === mtimeMs) return { kind: 'unchanged', row };
  return undefined;
}

/** Judges a file by its content against its row. */
export async function judgeByContent(row: FileRow, content: Buffer, hash: string): Promise<FileVerdict> {
  if (hash === row.content_hash) return row.state === PARTIAL_STATE ? { kind: 'appended', row } : { kind: 'touched', row };
  const oldSize = Number(row.size);
  if (content.length > oldSize && row.state !== 'unparsable' && (await sha256InSlices(content.subarray(0, oldSize))) === row.content_hash) {
    return { kind: 'appended', row };
  }
  return { kind: 'rewritten', row };
}

/** Columns of monitor_messages in the order {@link messageRow} gives their values: the declared facts after the rest. */
const MESSAGE_COLUMNS: ReadonlyArray<keyof MessageRow & string> = [
  'file_id', 'index_in_file', 'interface_id', 'received_at', 'standard', 'is_valid', 'errors', 'warnings', 'latency_ms',
  'latency_class', 'raw', ...FACT_COLUMNS,
];

/** An empty issue list, as stored (most messages of a healthy feed have no errors). */
const NO_ISSUES = '[]';

function issuesJson(issues: ReadMessage['errors']): string {
  return issues.length === 0 ? NO_ISSUES : JSON.stringify(issues);
}

function messageRow(file: ReadFile, fileId: number, m: ReadMessage, keepRaw: boolean): unknown[] {
  return [
    fileId,
    m.indexInFile,
    file.interfaceId,
    file.receivedAt,
    m.standard,
    m.isValid ? 1 : 0,
    issuesJson(m.errors),
    issuesJson(m.warnings),
    m.latencyMs,
    m.latencyClass,
    keepRaw ? storableText(m.raw) : null,
    ...factValues(m),
  ];
}

/** Columns of monitor_files in the order {@link writeFileRows} gives their values. */
const FILE_COLUMNS = [
  'id', 'interface_id', 'path', 'size', 'mtime_ms', 'content_hash', 'message_count', 'failed_count', 'state', 'error',
  'first_read_at', 'last_read_at',
] as const satisfies ReadonlyArray<keyof FileTable>;

/** A renamed file's row moves to its new path, adding the messages it brings (those after a `partial` row's count). */
const RENAME_FILE_SQL =
  'update monitor_files set path = ?, size = ?, mtime_ms = ?, message_count = ?, failed_count = ?, state = ?, last_read_at = ? where id = ?';

const UPDATE_FILE_SQL =
  'update monitor_files set size = ?, mtime_ms = ?, content_hash = ?, message_count = ?, failed_count = ?, state = ?, last_read_at = ? where id = ?';

/**
 * Writes the ledger rows of a batch: updates for touched and appended files, and for rewritten ones the old row
 * marked `replaced`; new rows inserted with ids taken after the highest stored one on SQLite (one process writes
 * its ledger, and the transaction holds the write lock), from the table's sequence on PostgreSQL (several nodes may
 * write at once; ledger-claims.ts), either way one round trip for the batch.
 */
async function writeFileRows(statements: CommitStatements, files: ReadFile[], dialect: CommitStore['dialect']): Promise<number[]> {
  const ids: number[] = [];
  const inserts: unknown[][] = [];
  const fresh = files.filter((file) => file.verdict.kind === 'new' || file.verdict.kind === 'rewritten').length;
  const reserved = dialect === 'postgres' ? await nextFileIds(statements, fresh) : undefined;
  const top = reserved ? undefined : await statements.first<{ top: number | string | null }>('select max(id) as top from monitor_files', []);
  let nextId = Number(top?.top ?? 0);
  for (const file of files) {
    let failed = 0;
    for (const m of file.messages) if (!m.isValid) failed++;
    const { verdict } = file;
    if (verdict.kind === 'renamed') {
      await statements.run(RENAME_FILE_SQL, [
        storableText(file.path, 4096),
        file.size,
        file.mtimeMs,
        Number(verdict.row.message_count) + file.messages.length,
        Number(verdict.row.failed_count) + failed,
        file.state,
        file.receivedAt,
        verdict.row.id,
      ]);
      ids.push(Number(verdict.row.id));
      continue;
    }
    if (verdict.kind === 'touched' || verdict.kind === 'appended') {
      await statements.run(UPDATE_FILE_SQL, [
        file.size,
        file.mtimeMs,
        file.hash,
        Number(verdict.row.message_count) + file.messages.length,
        Number(verdict.row.failed_count) + failed,
        verdict.kind === 'appended' ? file.state : verdict.row.state,
        file.receivedAt,
        verdict.row.id,
      ]);
      ids.push(Number(verdict.row.id));
      continue;
    }
    if (verdict.kind === 'rewritten') {
      await statements.run("update monitor_files set state = 'replaced' where id = ?", [verdict.row.id]);
    }
    const id = reserved ? reserved[inserts.length] : ++nextId;
    ids.push(id);
    inserts.push([
      id,
      file.interfaceId,
      storableText(file.path, 4096),
      file.size,
      file.mtimeMs,
      file.hash,
      file.messages.length,
      failed,
      file.state,
      storableText(file.error),
      file.receivedAt,
      file.receivedAt,
    ]);
  }
  await statements.insert('monitor_files', FILE_COLUMNS, inserts);
  return ids;
}

/**
 * Keeps the stable order of the query contract (received time, file, index) append-only: a file's messages are never
 * received before the newest message already stored (a file seen settled earlier may commit after a later one), and
 * a file that keeps its ledger row's id (appended) lands strictly after it. So a reader holding a cursor never misses
 * a message committed behind its position. One look-up of the order index per batch.
 */
async function keepOrderAppendOnly(statements: CommitStatements, files: ReadFile[]): Promise<void> {
  const top = await statements.first<{ top: string | null }>('select max(received_at) as top from monitor_messages', []);
  let floor = top?.top ?? null;
  for (const file of files) {
    if (file.messages.length === 0) continue;
    if (floor !== null) {
      const keepsId = file.verdict.kind === 'appended' || file.verdict.kind === 'touched' || file.verdict.kind === 'renamed';
      const earliest = keepsId ? new Date(Date.parse(floor) + 1).toISOString() : floor;
      if (file.receivedAt < earliest) file.receivedAt = earliest;
    }
    if (floor === null || file.receivedAt > floor) floor = file.receivedAt;
  }
}

/**
 * Commits files in one transaction: for each, its ledger row, its messages and their identifiers; then the roll-ups
 * of all of them (rollup-writer.ts). Either everything is stored or nothing is.
 */
export async function commitFiles(
  store: CommitStore,
  files: ReadFile[],
  keepRaw: boolean,
  latencyLimits: LatencyLimits = DEFAULT_LATENCY_LIMITS,
  /** Live ingest keeps the stable order append-only (the default); recording history (a backfill) does not. */
  options: { appendOnly?: boolean } = {},
): Promise<CommittedFile[]> {
  return inCommitTransaction(store, async (statements) => {
    // several nodes may share a PostgreSQL store: what another node counted meanwhile is not counted again
    if (store.dialect === 'postgres') files = await keepUncounted(statements, files);
    const committed: CommittedFile[] = [];
    const messages: unknown[][] = [];
    const identifiers: unknown[][] = [];
    if (options.appendOnly !== false) await keepOrderAppendOnly(statements, files);
    const fileIds = await writeFileRows(statements, files, store.dialect);
    // the rows of a batch file of 100,000 messages take a second to build: other work gets its turns meanwhile
    const slice = new LoopSlice();
    for (const [index, file] of files.entries()) {
      const fileId = fileIds[index];
      committed.push({ file, fileId });
      for (const m of file.messages) {
        if (slice.spent()) await slice.pass();
        applyLatencyLimits(m, latencyLimits);
        messages.push(messageRow(file, fileId, m, keepRaw));
        const seen = new Set<string>();
        const add = (kind: string, value: string | null, authority: string | null = null) => {
          const key = `${kind}:${value}\u0000${authority}`;
          if (value === null || value.length > 200 || (authority !== null && authority.length > 200) || seen.has(key)) return;
          seen.add(key);
          identifiers.push([fileId, m.indexInFile, kind, storableText(value), file.receivedAt, storableText(authority)]);
        };
        for (const patient of m.patientIds) add('patient', patient.id, patient.assigningAuthority);
        add('account', m.accountNumber);
        add('account', m.visitNumber);
      }
    }
    await statements.insert('monitor_messages', MESSAGE_COLUMNS, messages);
    await statements.insert('monitor_message_identifiers', ['file_id', 'index_in_file', 'kind', 'value', 'received_at', 'assigning_authority'], identifiers);
    await addToRollups(statements, files);
    return committed;
  });
}
