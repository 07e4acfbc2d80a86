/**
 * The field scanner of the HL7 v2 parser (hl7-parser.ts): the delimiters of a header segment (MSH-1 and MSH-2, FHS,
 * BHS) read and checked, and one segment line split into fields, repetitions, components and subcomponents through a
 * lookup table per delimiter set, values decoded as they are read.
 */
import { decodeHl7Escapes } from './hl7-escape.ts';
import type { Hl7Component, Hl7Delimiters, Hl7Field, Hl7Repetition, Hl7Segment } from '../hl7-model.ts';

/** The delimiters of the standard, used when MSH-2 is unusable. */
export const DEFAULT_HL7_DELIMITERS: Hl7Delimiters = {
  field: '|',
  component: '^',
  repetition: '~',
  escape: '\\',
  subcomponent: '&',
};

// Character classes of the scanner's lookup table.
const PLAIN = 0;
const FIELD = 1;
const REPETITION = 2;
const COMPONENT = 3;
const SUBCOMPONENT = 4;
const ESCAPE = 5;

/** Per-delimiter-set scanner state: a class table for ASCII and the codes of non-ASCII delimiters. */
export interface DelimiterScanner {
  delimiters: Hl7Delimiters;
  table: Uint8Array;
  /** Non-ASCII delimiter characters (rare), checked only when a code is >= 128. */
  wide: Map<number, number>;
  /** Code of the field separator, compared at every segment start. */
  fieldCode: number;
}

const scannerCache = new Map<string, DelimiterScanner>();

/** The scanner of a delimiter set, built once per set and kept. */
export function scannerFor(d: Hl7Delimiters): DelimiterScanner {
  if (d === DEFAULT_HL7_DELIMITERS) return defaultScanner;
  const key = `${d.field}\u0000${d.component}\u0000${d.repetition}\u0000${d.escape}\u0000${d.subcomponent}\u0000${d.truncation ?? ''}`;
  let scanner = scannerCache.get(key);
  if (scanner) return scanner;
  const table = new Uint8Array(128);
  const wide = new Map<number, number>();
  // Assigned lowest priority first so that, should two delimiters coincide, the field separator wins.
  const assign = (ch: string, cls: number) => {
    if (ch === '') return;
    const code = ch.charCodeAt(0);
    if (code < 128) table[code] = cls;
    else wide.set(code, cls);
  };
  assign(d.escape, ESCAPE);
  assign(d.subcomponent, SUBCOMPONENT);
  assign(d.component, COMPONENT);
  assign(d.repetition, REPETITION);
  assign(d.field, FIELD);
  scanner = { delimiters: d, table, wide, fieldCode: d.field.charCodeAt(0) };
  if (scannerCache.size < 64) scannerCache.set(key, scanner);
  return scanner;
}

/** The scanner of the standard delimiters, looked up by identity (no key string to build). */
const defaultScanner = scannerFor({ ...DEFAULT_HL7_DELIMITERS });

/**
 * Splits the fields of one segment, from `pos` (first character after a field separator) to `end`, appending them
 * to `fields`. Values are escape-decoded only when the escape character occurs in them. The part arrays are
 * allocated only when a field actually has repetitions, components or subcomponents, so a plain or empty value
 * costs one nested literal. (Sharing one frozen empty field was tried: frozen arrays have another elements kind,
 * which made every reader of the tree polymorphic and slower than the allocations it saved.)
 */
function scanFields(text: string, pos: number, end: number, scanner: DelimiterScanner, fields: Hl7Field[]): void {
  const { table, wide, delimiters } = scanner;
  let field: Hl7Field | undefined;
  let rep: Hl7Repetition | undefined;
  let comp: Hl7Component | undefined;
  let start = pos;
  let escaped = false;
  for (let i = pos; ; i++) {
    // Skip plain characters in a tight loop; reaching `end` closes the last field.
    let cls = FIELD;
    for (; i < end; i++) {
      const code = text.charCodeAt(i);
      const found = code < 128 ? (table[code] as number) : wide.size === 0 ? PLAIN : (wide.get(code) ?? PLAIN);
      if (found === PLAIN) continue;
      if (found === ESCAPE) {
        escaped = true;
        continue;
      }
      cls = found;
      break;
    }
    const raw = text.slice(start, i);
    const value = escaped ? decodeHl7Escapes(raw, delimiters) : raw;
    escaped = false;
    start = i + 1;
    if (cls === FIELD && field === undefined && rep === undefined && comp === undefined) {
      fields.push([[[value]]]);
      if (i >= end) return;
      continue;
    }
    if (comp === undefined) comp = [value];
    else comp.push(value);
    if (cls === SUBCOMPONENT) continue;
    if (rep === undefined) rep = [comp];
    else rep.push(comp);
    comp = undefined;
    if (cls === COMPONENT) continue;
    if (field === undefined) field = [rep];
    else field.push(rep);
    rep = undefined;
    if (cls === REPETITION) continue;
    fields.push(field);
    field = undefined;
    if (i >= end) return;
  }
}

/** Segment names are three characters: an upper-case letter then upper-case letters or digits. */
export function isSegmentName(text: string, pos: number): boolean {
  const a = text.charCodeAt(pos);
  const b = text.charCodeAt(pos + 1);
  const c = text.charCodeAt(pos + 2);
  return a >= 65 && a <= 90 && ((b >= 65 && b <= 90) || (b >= 48 && b <= 57)) && ((c >= 65 && c <= 90) || (c >= 48 && c <= 57));
}

/** Characters that may serve as encoding characters: printable, not alphanumeric, not space. */
export function isDelimiterChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code <= 32 || code === 127) return false;
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return false;
  return true;
}

/** Result of reading a header segment's (MSH/FHS/BHS) delimiters. */
interface HeaderDelimiters {
  delimiters: Hl7Delimiters;
  /** Raw MSH-2 text as written. */
  encoding: string;
  /** Position right after MSH-2 (at the separator that ends it, or the line end). */
  after: number;
  problem?: { message: string; field: string; tolerable: boolean };
}

/** Reads MSH-1 and MSH-2 of a header segment starting at `pos`. */
export function readHeaderDelimiters(text: string, pos: number, end: number, name: string): HeaderDelimiters {
  const field = text.charAt(pos + 3);
  if (pos + 3 >= end || !isDelimiterChar(field)) {
    return {
      delimiters: DEFAULT_HL7_DELIMITERS,
      encoding: '',
      after: end,
      problem: {
        message: `${name}-1 (Field Separator) is missing or not a delimiter character; the segment cannot be read.`,
        field: `${name}.1`,
        tolerable: false,
      },
    };
  }
  let after = text.indexOf(field, pos + 4);
  if (after < 0 || after > end) after = end;
  const encoding = text.slice(pos + 4, after);
  // Nearly every message uses the standard delimiters: share one delimiter object (and so one cached scanner).
  if (field === '|' && encoding === '^~\\&') return { delimiters: DEFAULT_HL7_DELIMITERS, encoding, after };
  const chars = encoding.length <= 10 ? [...encoding] : [];
  const valid = chars.length >= 1 && chars.length <= 5 && chars.every(isDelimiterChar) && new Set([field, ...chars]).size === chars.length + 1;
  if (!valid) {
    const shown = encoding.length > 20 ? `${encoding.slice(0, 20)}...` : encoding;
    return {
      delimiters: { ...DEFAULT_HL7_DELIMITERS, field },
      encoding,
      after,
      problem: {
        message:
          encoding === ''
            ? `${name}-2 (Encoding Characters) is empty; the standard delimiters ^~\\& were assumed.`
            : `${name}-2 (Encoding Characters) "${shown}" is not a set of encoding characters; the standard delimiters ^~\\& were assumed.`,
        field: `${name}.2`,
        tolerable: false,
      },
    };
  }
  const delimiters: Hl7Delimiters = {
    field,
    component: chars[0] ?? '',
    repetition: chars[1] ?? '',
    escape: chars[2] ?? '',
    subcomponent: chars[3] ?? '',
  };
  if (chars[4] !== undefined) delimiters.truncation = chars[4];
  const problem =
    chars.length < 4
      ? {
          message: `${name}-2 (Encoding Characters) "${encoding}" has ${chars.length} of the 4 required characters; the missing delimiters are not used.`,
          field: `${name}.2`,
          tolerable: true,
        }
      : undefined;
  return { delimiters, encoding, after, problem };
}

/** Parses one header segment (MSH, FHS, BHS): MSH-1 and MSH-2 are kept as written, the rest is scanned. */
export function parseHeaderSegment(text: string, end: number, name: string, line: number, header: HeaderDelimiters): Hl7Segment {
  const fields: Hl7Field[] = [[[[name]]], [[[header.delimiters.field]]], [[[header.encoding]]]];
  if (header.after < end) scanFields(text, header.after + 1, end, scannerFor(header.delimiters), fields);
  return { name, fields, line };
}

/** Parses an ordinary segment line. */
export function parseSegment(text: string, pos: number, end: number, name: string, line: number, scanner: DelimiterScanner): Hl7Segment {
  const fields: Hl7Field[] = [[[[name]]]];
  if (pos + 3 < end) scanFields(text, pos + 4, end, scanner, fields);
  return { name, fields, line };
}
