/**
 * How likely content is HL7 v2: after a BOM, MLLP framing or leading whitespace it must start with MSH, FHS or BHS
 * followed by a field separator and encoding characters. Content whose header comes a few lines late (a `[SOM]`
 * marker or junk lines before MSH) is still HL7: validation then reports what precedes the header.
 */

const HEADER = /^(MSH|FHS|BHS)([^A-Za-z0-9\s])([^A-Za-z0-9\s]{3,5})\2/;

/** How far into the content a late header is looked for: lines, and characters. */
const LATE_HEADER_LINES = 5;
const LATE_HEADER_CHARS = 1024;

/** Content that opens like JSON (an object or array) or XML is another standard's, whatever follows. */
const FOREIGN_START = /^(?:[{<]|\[\s*[[{"\d\]-])/;

/** Confidence 0..1 that the content is HL7 v2. */
export function detectHl7(content: string): number {
  let start = 0;
  while (start < content.length) {
    const c = content.charCodeAt(start);
    if (c === 0xfeff || c === 0x0b || c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) start++;
    else break;
  }
  const head = content.slice(start, start + 64);
  if (HEADER.test(head)) return 0.99;
  // A header whose encoding characters are missing or odd is still most likely HL7 v2.
  if (/^(MSH|FHS|BHS)[|^~\\&#]/.test(head)) return 0.8;
  return detectLateHeader(content.slice(start, start + LATE_HEADER_CHARS));
}

/** A complete header on one of the first few lines, after lines that are not segments. */
function detectLateHeader(window: string): number {
  if (FOREIGN_START.test(window)) return 0;
  const lines = window.split(/\r\n|\r|\n/, LATE_HEADER_LINES + 1);
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/^[\x0b\x1c\t ]+/, '');
    if (HEADER.test(line)) return 0.7;
  }
  return 0;
}
