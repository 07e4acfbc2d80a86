/**
 * How likely content is HL7 v2: after a BOM, MLLP framing or leading whitespace it must start with MSH, FHS or BHS
 * followed by a field separator and encoding characters.
 */

const HEADER = /^(MSH|FHS|BHS)([^A-Za-z0-9\s])([^A-Za-z0-9\s]{3,5})\2/;

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
  return 0;
}
