/**
 * Message files on the command line: reading them (a file that cannot be read is a usage problem, exit code 2, never
 * "invalid"), splitting NDJSON (one JSON message per line; kernel/lib/text/ndjson.ts) into messages, and writing generated
 * messages so that `workbench validate` reads them back: JSON messages one per line (NDJSON), text messages as the API
 * answers them (HL7 v2 segments end with CR), one after another.
 */
import { readFileSync } from 'node:fs';

export { splitNdjson } from '../../kernel/lib/text/ndjson.ts';

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

/**
 * Generated messages as one text: JSON messages as NDJSON; text messages byte for byte as the API answers them (an HL7
 * v2 message keeps its CR segment ends and gets one after its last segment, so the file is a batch any HL7 reader
 * takes whole); other text (an XML document) is separated from the next by a blank line.
 */
export function formatGenerated(messages: string[]): string {
  if (messages.length > 0 && messages.every(isJson)) {
    return messages.map((message) => JSON.stringify(JSON.parse(message))).join('\n');
  }
  const last = messages.length - 1;
  return messages
    .map((message, index) => {
      if (message.includes('\r')) return message.endsWith('\r') ? message : `${message}\r`;
      return index === last ? message : `${message}\n\n`;
    })
    .join('');
}

function isJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
