/**
 * Where the whole resources of FHIR content end. JSON (one resource, or NDJSON with one per line) is scanned once for
 * its top-level values: a value whose braces are not all closed when the content ends is still being written, so
 * the whole resources end where it starts. XML is whole once its root element's end tag ends it. Content of neither
 * kind is whole as it is (the reading says what is wrong with it). Linear in the content's size, with no parse.
 */
import { xmlDocumentEnded } from '../../kernel/lib/xml/xml-document-end.ts';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The length of the prefix of JSON content made of whole top-level values (0 when none is whole yet). */
function jsonCompleteLength(content: Uint8Array, from: number): number {
  let depth = 0;
  /** Just after the last top-level value that closed. */
  let lastEnd = 0;
  for (let i = from; i < content.length; i++) {
    const byte = content[i];
    if (byte === QUOTE) {
      // a string is skipped whole: its closing quote is the next one not escaped by an odd run of backslashes
      const close = stringEnd(content, i + 1);
      if (close < 0) return lastEnd === 0 ? 0 : afterWhitespace(content, lastEnd);
      i = close;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      // more closers than openers: malformed, not unfinished; the reading reports it
      if (--depth < 0) return content.length;
      if (depth === 0) lastEnd = i + 1;
    }
  }
  if (depth === 0) return content.length;
  return lastEnd === 0 ? 0 : afterWhitespace(content, lastEnd);
}

/** Where the open value starts: after the whitespace that follows the last whole one. */
function afterWhitespace(content: Uint8Array, from: number): number {
  let start = from;
  while (start < content.length && isWhitespace(content[start])) start++;
  return start;
}

/** The index of the quote that closes a string whose text starts at `from`, or -1 when the content ends first. */
function stringEnd(content: Uint8Array, from: number): number {
  for (let at = content.indexOf(QUOTE, from); at >= 0; at = content.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (content[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** The length of the prefix of FHIR content that ends with a whole resource (0 when it holds none). */
export function fhirCompleteLength(content: Uint8Array): number {
  let first = 0;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) first = 3;
  while (first < content.length && isWhitespace(content[first])) first++;
  if (first === content.length) return content.length;
  if (content[first] === OPEN_BRACE) return jsonCompleteLength(content, first);
  if (content[first] !== LESS_THAN) return content.length;
  return xmlDocumentEnded(content) ? content.length : 0;
}
