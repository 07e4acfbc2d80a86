/**
 * Message files on the command line: reading them (a file that cannot be read is a usage problem, exit code 2, never
 * "invalid"), splitting NDJSON (one JSON message per line) into messages, and writing generated messages so that
 * `workbench validate` reads them back: JSON messages one per line (NDJSON), text messages separated by a blank line.
 */
import { readFileSync } from 'node:fs';

/** A file the command cannot read: reported with exit code 2 (bad input), not 1 (invalid message). */
export class UnreadableFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: cannot read (${reason})`);
    this.name = 'UnreadableFileError';
  }
}

/** Reads a message file as UTF-8; throws {@link UnreadableFileError} naming the file and the reason. */
export function readMessageFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UnreadableFileError(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

function isJsonObjectLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The messages of an NDJSON text (two or more lines, each one JSON object, blank lines ignored) with their 1-based
 * line numbers; undefined when the text is not NDJSON (then it is one message).
 */
export function splitNdjson(content: string): Array<{ line: number; message: string }> | undefined {
  const lines = content
    .split(/\r?\n/)
    .map((text, index) => ({ line: index + 1, message: text.trim() }))
    .filter((entry) => entry.message !== '');
  if (lines.length < 2 || !lines.every((entry) => isJsonObjectLine(entry.message))) return undefined;
  return lines;
}

/** Generated messages as one text: JSON messages as NDJSON, others separated by a blank line (CR shown as newline). */
export function formatGenerated(messages: string[]): string {
  if (messages.length > 0 && messages.every(isJson)) {
    return messages.map((message) => JSON.stringify(JSON.parse(message))).join('\n');
  }
  return messages.map((message) => message.replace(/\r/g, '\n').trimEnd()).join('\n\n');
}

function isJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
