/**
 * How a batch of read files is committed. Files of a few messages go in one transaction (a file the database refuses
 * is then committed alone, recorded unparsable without its messages). A file of many messages (a batch file of
 * 100,000, near the size limit) is committed in slices of {@link MESSAGES_PER_SLICE} messages instead, each slice its
 * own transaction of its messages, their identifiers, their roll-ups and the file's ledger row, the event loop free
 * between two slices: no commit holds it (nor the SQLite connection every other query waits for) for long. Until its
 * last slice the file's row is `partial` with the count stored so far, so a crash between two slices resumes the file
 * from that count through the ledger's append path (ledger.ts): nothing lost, nothing counted twice. After-commit
 * listeners hear of each slice as it is stored, as they hear of each appended part of a file.
 */
import type { Logger } from 'pino';
import { LoopSlice } from '../../../kernel/lib/async/loop-slice.ts';
import type { CommitStore } from './commit-statements.ts';
import { commitFiles, PARTIAL_STATE, type CommittedFile } from './ledger.ts';
import type { ReadFile } from './read-file.ts';
import type { LatencyLimits } from './rollup-writer.ts';
import type { FileRow } from '../monitor-tables.ts';

/**
 * Messages of one slice of a file committed in slices: about 20 ms of the event loop's work to build, insert and
 * roll up (small messages), and a file of fewer is committed whole.
 */
export const MESSAGES_PER_SLICE = 2_000;

/** What a batch commit needs. */
export interface BatchCommitDeps {
  commitStore: CommitStore;
  keepRaw: boolean;
  latencyLimits?: LatencyLimits;
  logger: Logger;
  /** Messages per slice of a file committed in slices (default {@link MESSAGES_PER_SLICE}). */
  messagesPerSlice?: number;
}

/** Told what a commit stored, once it is stored (the after-commit listeners). */
export type CommittedListener = (committed: CommittedFile[]) => Promise<void>;

/**
 * Commits a batch's files: those of at most a slice of messages in one transaction (told once), each larger one in
 * slices (told each slice). Rejects when a transaction could not be committed: what was committed before stays, and
 * the ledger tells what is left when the files are read again.
 */
export async function commitBatch(deps: BatchCommitDeps, files: ReadFile[], told: CommittedListener): Promise<void> {
  const perSlice = deps.messagesPerSlice ?? MESSAGES_PER_SLICE;
  const whole = files.filter((file) => file.messages.length <= perSlice);
  if (whole.length > 0) await told(await commitWhole(deps, whole));
  for (const file of files) if (file.messages.length > perSlice) await commitInSlices(deps, file, perSlice, told);
}

/** Commits files in one transaction; when it is refused, each file alone (commitAlone). */
async function commitWhole(deps: BatchCommitDeps, files: ReadFile[]): Promise<CommittedFile[]> {
  try {
    return await commitFiles(deps.commitStore, files, deps.keepRaw, deps.latencyLimits);
  } catch (error) {
    if (files.length === 1) return commitAlone(deps, files[0], error);
    // the batch rolled back: commit its files one by one, so one file the database refuses costs only itself
    deps.logger.warn({ err: error, files: files.length }, 'monitor batch refused; committing its files one by one');
    const committed: CommittedFile[] = [];
    for (const file of files) {
      try {
        committed.push(...(await commitFiles(deps.commitStore, [file], deps.keepRaw, deps.latencyLimits)));
      } catch (refused) {
        committed.push(...(await commitAlone(deps, file, refused)));
      }
    }
    return committed;
  }
}

/** Records a file the database refused in the ledger as unparsable, without messages. */
async function commitAlone(deps: BatchCommitDeps, file: ReadFile, error: unknown): Promise<CommittedFile[]> {
  deps.logger.error({ err: error, file: file.path }, 'monitor could not store a file; it is recorded as unparsable');
  const reason = `its messages could not be stored (${(error as Error).message.slice(0, 200)})`;
  return commitFiles(deps.commitStore, [{ ...file, state: 'unparsable', error: reason, messages: [] }], deps.keepRaw, deps.latencyLimits);
}

/**
 * Commits one file in slices of `perSlice` messages, each its own transaction; every slice but the last leaves the
 * file's row `partial`, the next slice appends to that row. A slice the database refuses rejects (the file is read
 * again later and resumes after the slices stored); another node that counted the file meanwhile (a shared store)
 * ends it.
 */
async function commitInSlices(deps: BatchCommitDeps, file: ReadFile, perSlice: number, told: CommittedListener): Promise<void> {
  const { commitStore } = deps;
  let verdict = file.verdict;
  const turn = new LoopSlice(0);
  for (let start = 0; start < file.messages.length; start += perSlice) {
    const last = start + perSlice >= file.messages.length;
    const slice: ReadFile = {
      ...file,
      verdict,
      messages: file.messages.slice(start, start + perSlice),
      state: last ? file.state : PARTIAL_STATE,
      error: last ? file.error : null,
    };
    const committed = await commitFiles(commitStore, [slice], deps.keepRaw, deps.latencyLimits);
    if (committed.length === 0) return;
    await told(committed);
    if (last) return;
    const row = (await commitStore.db.selectFrom('monitor_files').selectAll().where('id', '=', committed[0].fileId).executeTakeFirst()) as FileRow | undefined;
    if (!row) throw new Error(`the ledger row of ${file.path} vanished while its slices were committed`);
    verdict = { kind: 'appended', row };
    // requests and other background work take their turn between two slices
    await turn.pass();
  }
}
