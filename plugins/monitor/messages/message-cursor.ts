/**
 * The keyset cursor of the query contract: the position of a stored message in the stable order (received time,
 * file, index in file), as an opaque base64url string. Positions never move (a message's received time, file and
 * index are written once), so a cursor stored by a consumer resumes after a restart without missing or repeating.
 */

/** A position in the stable order. */
export interface MessagePosition {
  receivedAt: string;
  fileId: number;
  indexInFile: number;
}

const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The cursor of a position. */
export function encodeCursor(position: MessagePosition): string {
  return Buffer.from(`${position.receivedAt}|${position.fileId}|${position.indexInFile}`, 'utf8').toString('base64url');
}

/** The position a cursor names; undefined when the text is no cursor this store gave out. */
export function decodeCursor(cursor: string): MessagePosition | undefined {
  if (cursor.length === 0 || cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 3) return undefined;
  const [receivedAt, file, index] = parts;
  if (!STORED_INSTANT.test(receivedAt) || !/^\d{1,15}$/.test(file) || !/^\d{1,9}$/.test(index)) return undefined;
  return { receivedAt, fileId: Number(file), indexInFile: Number(index) };
}
