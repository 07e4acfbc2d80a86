/**
 * Turns message bytes into text using the character set the message declares in MSH-18 (v2.5 table 0211).
 * UTF-8 is the default; ISO-8859-1 (`8859/1`, `ISO IR100`) and plain ASCII are single-byte. Invalid UTF-8 never
 * throws: the bytes are decoded with replacement characters and the problem is reported.
 */

/** Result of decoding message bytes. */
export interface DecodedHl7Text {
  text: string;
  /** Character set used (`UTF-8`, `ISO-8859-1`). */
  charset: string;
  /** Set when the bytes were not valid in the character set. */
  problem?: string;
}

/** MSH-18 values (table 0211 and common spellings) that mean a single-byte Latin character set. */
const LATIN_CHARSETS = new Set([
  '8859/1',
  'ISO-8859-1',
  'ISO8859-1',
  'ISO_8859-1',
  'ISO IR100',
  'ISO-IR100',
  'LATIN1',
  'ASCII',
  'US-ASCII',
]);

/** True ISO-8859-1 (TextDecoder's "latin1" label is windows-1252). */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Reads MSH-18 from the bytes of the first MSH segment without decoding the whole input. */
export function readDeclaredCharset(bytes: Uint8Array): string | undefined {
  const limit = Math.min(bytes.length, 65_536);
  let start = -1;
  for (let i = 0; i + 3 < limit; i++) {
    if (bytes[i] === 0x4d && bytes[i + 1] === 0x53 && bytes[i + 2] === 0x48 && (i === 0 || bytes[i - 1] < 0x20 || bytes[i - 1] === 0xbf)) {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  const separator = bytes[start + 3];
  // The separator at start + 3 is MSH-1; the text after it is MSH-2, so the next separator opens MSH-3.
  let field = 2;
  let valueStart = -1;
  for (let i = start + 4; i < limit; i++) {
    const b = bytes[i];
    if (b === 0x0d || b === 0x0a) return field === 18 ? latin1(bytes.subarray(valueStart, i)) : undefined;
    if (b === separator) {
      field++;
      if (field === 18) valueStart = i + 1;
      else if (field === 19) return latin1(bytes.subarray(valueStart, i));
    }
  }
  return field === 18 && valueStart >= 0 ? latin1(bytes.subarray(valueStart, limit)) : undefined;
}

/** Decodes message bytes per MSH-18 (first repetition), UTF-8 when absent or unknown. */
export function decodeHl7Bytes(bytes: Uint8Array): DecodedHl7Text {
  const declared = readDeclaredCharset(bytes);
  const name = declared?.split(/[~^]/)[0]?.trim().toUpperCase() ?? '';
  if (LATIN_CHARSETS.has(name)) return { text: latin1(bytes), charset: 'ISO-8859-1' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), charset: 'UTF-8' };
  } catch {
    return {
      text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
      charset: 'UTF-8',
      problem: 'the input is not valid UTF-8 (invalid bytes were replaced with U+FFFD)',
    };
  }
}
