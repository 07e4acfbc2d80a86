/**
 * NDJSON (one JSON object per line), the form every command writes and reads a set of JSON messages in: `generate`
 * writes it for JSON standards, `validate` and `deidentify` read it back one message per line.
 */

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
