/**
 * HL7 v2 escape sequences (v2.5 chapter 2.7): decoding on read, encoding on write.
 *
 * Decoded: `\F\ \S\ \T\ \R\ \E\` (delimiters), `\P\` (truncation character, v2.7+), `\Xhh..\` (hexadecimal data) and
 * `\.br\` (line break, decoded as "\n"). Every other sequence (`\H\`, `\N\`, `\.sp\`, `\Cxxyy\`, `\Zxxx\`, ...) is a
 * formatting or locally defined instruction the value keeps verbatim; the encoder writes such sequences back
 * unchanged so that parse -> encode gives the original text.
 */
import type { Hl7Delimiters } from '../hl7-model.ts';

/** Formatting sequences kept verbatim (content between the two escape characters). */
const KEPT_SEQUENCE = /^(?:H|N|\.(?:sp|in|ti|sk)[+-]?\d*|\.(?:ce|fi|nf)|Z[^\s]*|C[0-9A-Fa-f]{4}|M[0-9A-Fa-f]{4,6})$/;

/** Longest escape sequence the decoder looks for, so a lone escape character never makes it scan a huge value. */
const MAX_SEQUENCE_LENGTH = 64;

/** Decodes the hexadecimal data of a `\Xhh..\` sequence; undefined when it is not valid hex. */
function decodeHex(hex: string): string | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: the bytes are most likely single-byte characters (ISO-8859-1 is the common legacy charset).
    return String.fromCharCode(...bytes);
  }
}

/**
 * Resolves the escape sequences of one raw (sub)component value. A value without the escape character is returned
 * as is; unterminated or unknown sequences stay verbatim.
 */
export function decodeHl7Escapes(raw: string, delimiters: Hl7Delimiters): string {
  const esc = delimiters.escape;
  if (esc === '' || raw.indexOf(esc) < 0) return raw;
  let out = '';
  let last = 0;
  let i = raw.indexOf(esc);
  while (i >= 0) {
    const end = raw.indexOf(esc, i + 1);
    if (end < 0 || end - i - 1 > MAX_SEQUENCE_LENGTH) break;
    const content = raw.slice(i + 1, end);
    const decoded = decodeSequence(content, delimiters);
    if (decoded === undefined) {
      // Kept verbatim: continue after the closing escape character.
      i = raw.indexOf(esc, end + 1);
      continue;
    }
    out += raw.slice(last, i) + decoded;
    last = end + 1;
    i = raw.indexOf(esc, last);
  }
  return last === 0 ? raw : out + raw.slice(last);
}

/** The decoded text of one sequence, or undefined when it is kept verbatim. */
function decodeSequence(content: string, d: Hl7Delimiters): string | undefined {
  switch (content) {
    case 'F':
      return d.field;
    case 'S':
      return d.component;
    case 'T':
      return d.subcomponent;
    case 'R':
      return d.repetition;
    case 'E':
      return d.escape;
    case 'P':
      return d.truncation;
    case '.br':
      return '\n';
    default:
      if (content.length > 1 && content.charCodeAt(0) === 88 /* X */) return decodeHex(content.slice(1));
      return undefined;
  }
}

/** True when the text at `index` (an escape character) opens a formatting sequence that is kept verbatim. */
function keptSequenceAt(value: string, index: number, esc: string): number {
  const end = value.indexOf(esc, index + 1);
  if (end < 0 || end - index - 1 > MAX_SEQUENCE_LENGTH) return -1;
  return KEPT_SEQUENCE.test(value.slice(index + 1, end)) ? end : -1;
}

/**
 * Escapes a decoded value for writing: delimiters become `\F\ \S\ \T\ \R\ \E\` (and `\P\` for the truncation
 * character), a line break becomes `\.br\` and a carriage return `\X0D\`. Formatting sequences the decoder kept
 * verbatim are written back unchanged.
 */
export function escapeHl7Value(value: string, delimiters: Hl7Delimiters): string {
  const { field, component, repetition, escape: esc, subcomponent, truncation } = delimiters;
  let needs = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (
      c === field ||
      c === component ||
      c === repetition ||
      c === esc ||
      c === subcomponent ||
      c === '\n' ||
      c === '\r' ||
      (truncation !== undefined && c === truncation)
    ) {
      needs = true;
      break;
    }
  }
  if (!needs || esc === '') return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === esc) {
      const end = keptSequenceAt(value, i, esc);
      if (end > 0) {
        out += value.slice(i, end + 1);
        i = end;
      } else out += `${esc}E${esc}`;
    } else if (c === field) out += `${esc}F${esc}`;
    else if (c === component) out += `${esc}S${esc}`;
    else if (c === subcomponent) out += `${esc}T${esc}`;
    else if (c === repetition) out += `${esc}R${esc}`;
    else if (truncation !== undefined && c === truncation) out += `${esc}P${esc}`;
    else if (c === '\n') out += `${esc}.br${esc}`;
    else if (c === '\r') out += `${esc}X0D${esc}`;
    else out += c;
  }
  return out;
}
