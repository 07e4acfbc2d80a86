/**
 * Reads a Telecommunication D.0 transmission: optional STX/ETX framing, the fixed-width transaction header
 * (56 characters for a request, 31 for a response), then segments. Segment separator 0x1E ends a segment, group
 * separator 0x1D starts a transaction group, field separator 0x1C precedes every field; each field is a
 * two-character id and its value, and a segment opens with 111-AM (segment identification).
 * The reader is tolerant of the shortened framing some test tools write (no separator between the header and the
 * first segment, no field separator before AM): it never guesses values, it only accepts either spelling.
 */
import type { ValidationIssue } from '../../../kernel/standards-registry.ts';
import type { TelecomField, TelecomHeaderField, TelecomMessage, TelecomSegment } from '../ncpdp-model.ts';
import { parseErrorIssue } from '../ncpdp-issues.ts';
import { REQUEST_HEADER, RESPONSE_HEADER, type TelecomHeaderDefinition } from './telecom-d0-definitions.ts';

/** Field separator (FS). */
export const FIELD_SEPARATOR = '\x1c';
/** Group separator (GS): starts a transaction group. */
export const GROUP_SEPARATOR = '\x1d';
/** Segment separator (RS). */
export const SEGMENT_SEPARATOR = '\x1e';
/** Start of text, optional framing before the header. */
export const START_OF_TEXT = '\x02';
/** End of text, optional framing after the last segment. */
export const END_OF_TEXT = '\x03';

/** Largest transmission read, in characters (a full D.0 transmission of four claims is a few kilobytes). */
export const TELECOM_MAX_CHARS = 1_000_000;

/** Outcome of reading a transmission. */
export type TelecomParseOutcome = { ok: true; message: TelecomMessage } | { ok: false; issue: ValidationIssue };

/** Index of the first field, group or segment separator, or -1. */
export function firstSeparatorIndex(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1c || c === 0x1d || c === 0x1e) return i;
  }
  return -1;
}

/** Matches a segment identification field (`AM07` followed by a field separator). */
export const SEGMENT_ID_FIELD = new RegExp(`AM\\d\\d${FIELD_SEPARATOR}`);

/** True when the text opens like a response header: version, transaction code, count digit, then A or R. */
export function looksLikeResponseHeader(text: string): boolean {
  return /^[A-Z0-9]{2}[A-Z0-9]{2}\d[AR]/.test(text) && !/^\d{6}/.test(text);
}

function readHeader(text: string, layout: readonly TelecomHeaderDefinition[], end: number): TelecomHeaderField[] {
  const fields: TelecomHeaderField[] = [];
  let offset = 0;
  for (const def of layout) {
    const present = offset < end;
    const raw = present ? text.slice(offset, Math.min(offset + def.length, end)) : '';
    fields.push({ id: def.id, value: raw.trimEnd(), offset, length: def.length, present });
    offset += def.length;
  }
  return fields;
}

function readSegment(text: string, start: number, group: number): TelecomSegment {
  const pieces = text.split(FIELD_SEPARATOR);
  const fields: TelecomField[] = [];
  let offset = start;
  for (const piece of pieces) {
    if (piece.length > 0) fields.push({ id: piece.slice(0, 2), value: piece.slice(2), offset });
    offset += piece.length + 1;
  }
  const first = fields[0];
  const id = first?.id === 'AM' ? first.value : '';
  return { id, fields: first?.id === 'AM' ? fields.slice(1) : fields, group, offset: start };
}

/** Reads a D.0 transmission; never throws for bad content. */
export function parseTelecomD0(input: string): TelecomParseOutcome {
  if (input.length > TELECOM_MAX_CHARS) {
    return { ok: false, issue: parseErrorIssue('Header', `The transmission is ${input.length} characters long, above the limit of ${TELECOM_MAX_CHARS}; it was not read.`) };
  }
  let text = input;
  let framed = false;
  if (text.startsWith(START_OF_TEXT)) {
    text = text.slice(1);
    framed = true;
  }
  // Trailing line breaks, dropped by a backward scan (`/[\r\n]+$/` retries every run of them: quadratic).
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x0a || text.charCodeAt(end - 1) === 0x0d)) end--;
  text = text.slice(0, end);
  if (text.endsWith(END_OF_TEXT)) text = text.slice(0, -1);
  if (text.length === 0) return { ok: false, issue: parseErrorIssue('Header', 'The transmission is empty.') };
  const direction = looksLikeResponseHeader(text) ? 'response' : 'request';
  const layout = direction === 'response' ? RESPONSE_HEADER : REQUEST_HEADER;
  const fixedLength = layout.reduce((sum, def) => sum + def.length, 0);
  const firstSeparator = firstSeparatorIndex(text);
  if (firstSeparator === -1 && text.length <= fixedLength) {
    return { ok: false, issue: parseErrorIssue('Header', 'The transmission has no segments: no field, segment or group separator (0x1C, 0x1E, 0x1D) follows the header.') };
  }
  // The header ends at its fixed width, or earlier when a separator cuts it short.
  let headerEnd = firstSeparator === -1 ? fixedLength : Math.min(fixedLength, firstSeparator);
  // A shortened header directly followed by "AM" (no separator) still ends at the AM.
  const amInHeader = text.slice(0, headerEnd).search(SEGMENT_ID_FIELD);
  if (amInHeader > 0) headerEnd = amInHeader;
  const header = readHeader(text, layout, headerEnd);
  const segments: TelecomSegment[] = [];
  let group = 0;
  let groupCount = 0;
  let start = headerEnd;
  for (let i = headerEnd; i <= text.length; i++) {
    const c = i < text.length ? text[i] : SEGMENT_SEPARATOR;
    if (c !== SEGMENT_SEPARATOR && c !== GROUP_SEPARATOR) continue;
    const body = text.slice(start, i);
    if (body.length > 0) segments.push(readSegment(body, start, group));
    if (c === GROUP_SEPARATOR) {
      groupCount++;
      group = groupCount;
    }
    start = i + 1;
  }
  return { ok: true, message: { format: 'telecom', direction, header, segments, groupCount, framed } };
}
