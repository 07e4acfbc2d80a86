/**
 * A file the ingest read and judged against the ledger, ready to commit: what the ledger, the roll-up writer and the
 * claims of a commit share, kept apart from the ledger so they need not import each other.
 */
import type { ReadMessage } from './message-reading.ts';
import type { FileRow } from '../monitor-tables.ts';

/** How a file relates to what the ledger holds for its path. */
export type FileVerdict =
  | { kind: 'new' }
  | { kind: 'unchanged'; row: FileRow }
  | { kind: 'touched'; row: FileRow }
  | { kind: 'appended'; row: FileRow }
  | { kind: 'rewritten'; row: FileRow }
  /** The row of the file this one was before it was renamed (its content digest, and its path gone). */
  | { kind: 'renamed'; row: FileRow };

/** A file read and ready to commit. */
export interface ReadFile {
  interfaceId: string;
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  receivedAt: string;
  verdict: FileVerdict;
  /** `partial`: a slice of a file committed in slices, not its last (sliced-commit.ts). */
  state: 'ingested' | 'unparsable' | 'empty' | 'partial';
  error: string | null;
  /** The messages this read adds (after any already stored). */
  messages: ReadMessage[];
}
