/**
 * The `fileName` filter of stored messages: messages of the files whose path under the watched folder, or whose
 * name (the path's last part), is the given text in any letter case; `*` matches any characters. The ledger's files
 * are matched (one row per file read), then their messages by the file id, so the messages are never scanned for it.
 */
import { sql, type RawBuilder } from 'kysely';
import { monitorErrors } from '../errors.ts';

/** Longest `fileName` accepted. */
export const FILE_NAME_MAX = 1000;

/** LIKE patterns of a checked file name: for the whole relative path and for its last part. */
export interface FileNamePattern {
  path: string;
  name: string;
}

/** Checks a file name into its LIKE patterns; 400 MESSAGE_FILTER_INVALID naming what is wrong. */
export function checkFileName(value: unknown): FileNamePattern {
  if (typeof value !== 'string' || value.length === 0 || value.length > FILE_NAME_MAX) {
    throw monitorErrors.create('MESSAGE_FILTER_INVALID', { reason: `fileName must be a text of 1 to ${FILE_NAME_MAX} characters` });
  }
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw monitorErrors.create('MESSAGE_FILTER_INVALID', { reason: 'fileName may not hold control characters' });
  }
  const pattern = value
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*+/g, '%');
  return { path: pattern, name: `%/${pattern}` };
}

/** The condition on `m.file_id` of a checked file name. */
export function fileNameCondition(pattern: FileNamePattern): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref('m.file_id')} in (select f.id from monitor_files f
    where lower(f.path) like ${pattern.path} escape '\\' or lower(f.path) like ${pattern.name} escape '\\')`;
}
