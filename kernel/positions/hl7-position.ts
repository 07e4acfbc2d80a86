/**
 * HL7 v2 paths placed in a message's text: `PID`, `PID.5`, `PID.3[2].1`, `OBX[3].5.1.2`, `PID-5`
 * (segment[occurrence].field[repetition].component.subcomponent, 1-based as the standard counts). The delimiters
 * are the message's own (MSH-1 and MSH-2); MSH-1 is the field separator itself and MSH-2 the encoding characters.
 * Segments end at CR, LF or CRLF. A field, repetition or component the segment does not carry is placed, not
 * exact, at the end of what holds it.
 */
import type { FindingPosition } from './position.ts';

const PATH = /^([A-Z][A-Z0-9]{2})(?:\[(\d{1,6})\])?(?:[.-](\d{1,4})(?:\[(\d{1,6})\])?(?:\.(\d{1,4})(?:\.(\d{1,4}))?)?)?$/;

interface Hl7PathParts {
  segment: string;
  occurrence: number;
  field?: number;
  repetition?: number;
  component?: number;
  subcomponent?: number;
}

function parsePath(path: string): Hl7PathParts | undefined {
  const match = PATH.exec(path.trim());
  if (!match) return undefined;
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const parts: Hl7PathParts = {
    segment: match[1],
    occurrence: number(match[2]) ?? 1,
    field: number(match[3]),
    repetition: number(match[4]),
    component: number(match[5]),
    subcomponent: number(match[6]),
  };
  if (parts.occurrence < 1 || parts.repetition === 0 || parts.component === 0 || parts.subcomponent === 0) return undefined;
  return parts;
}

/** A range of the text: [start, end). */
interface Span {
  start: number;
  end: number;
}

/** The `n`-th (1-based) part of `span` split by `separator`, or where it would start when there are fewer. */
function part(raw: string, span: Span, separator: string, n: number): { span: Span; present: boolean } {
  let start = span.start;
  for (let i = 1; i < n; i++) {
    const next = raw.indexOf(separator, start);
    if (next === -1 || next >= span.end) return { span: { start: span.end, end: span.end }, present: false };
    start = next + 1;
  }
  const next = raw.indexOf(separator, start);
  return { span: { start, end: next === -1 || next >= span.end ? span.end : next }, present: true };
}

/** Where `path` is in an HL7 v2 message's text; undefined when the path is not HL7 or its segment is absent. */
export function locateHl7(raw: string, path: string): FindingPosition | undefined {
  const parts = parsePath(path);
  if (!parts) return undefined;
  const header = /^(MSH|BHS|FHS)/.test(raw) && raw.length > 3 ? raw : undefined;
  const fieldSeparator = header ? raw[3] : '|';
  const encoding = header ? raw.slice(4, 8) : '^~\\&';
  const componentSeparator = encoding[0] ?? '^';
  const repetitionSeparator = encoding[1] ?? '~';
  const subcomponentSeparator = encoding[3] ?? '&';

  // the segment: the occurrence-th line starting with its id
  let lineStart = 0;
  let segmentIndex = 0;
  let seen = 0;
  let line: Span | undefined;
  while (lineStart <= raw.length) {
    let lineEnd = lineStart;
    while (lineEnd < raw.length && raw[lineEnd] !== '\r' && raw[lineEnd] !== '\n') lineEnd++;
    if (lineEnd > lineStart) {
      if (raw.startsWith(parts.segment, lineStart) && (lineEnd === lineStart + 3 || raw[lineStart + 3] === fieldSeparator)) {
        seen++;
        if (seen === parts.occurrence) {
          line = { start: lineStart, end: lineEnd };
          break;
        }
      }
      segmentIndex++;
    }
    if (lineEnd >= raw.length) break;
    lineStart = lineEnd + (raw[lineEnd] === '\r' && raw[lineEnd + 1] === '\n' ? 2 : 1);
  }
  if (!line) return undefined;

  const position: FindingPosition = {
    segmentIndex,
    segment: parts.segment,
    field: parts.field ?? null,
    repetition: parts.repetition ?? null,
    component: parts.component ?? null,
    subcomponent: parts.subcomponent ?? null,
    element: null,
    start: line.start,
    end: line.end,
    exact: true,
  };
  if (parts.field === undefined || parts.field === 0) return position;

  const isHeader = parts.segment === 'MSH' || parts.segment === 'BHS' || parts.segment === 'FHS';
  let field: Span;
  let present: boolean;
  if (isHeader && parts.field === 1) {
    field = { start: line.start + 3, end: Math.min(line.end, line.start + 4) };
    present = field.end > field.start;
  } else {
    // the segment id is part 1; a header's field n is part n (its field 1 is the separator between id and MSH-2)
    const afterId = { start: Math.min(line.end, line.start + 4), end: line.end };
    if (line.end <= line.start + 3) {
      field = { start: line.end, end: line.end };
      present = false;
    } else {
      ({ span: field, present } = part(raw, afterId, fieldSeparator, isHeader ? parts.field - 1 : parts.field));
    }
  }
  const placed = (span: Span, exact: boolean): FindingPosition => ({ ...position, start: span.start, end: span.end, exact });
  if (!present) return placed(field, false);
  // MSH-2 holds the separators themselves: it has no repetitions or components
  if (isHeader && parts.field <= 2) return placed(field, parts.repetition === undefined && parts.component === undefined);
  if (parts.repetition === undefined && parts.component === undefined) return placed(field, true);

  const repetition = part(raw, field, repetitionSeparator, parts.repetition ?? 1);
  if (!repetition.present) return placed(repetition.span, false);
  if (parts.component === undefined) return placed(repetition.span, true);
  const component = part(raw, repetition.span, componentSeparator, parts.component);
  if (!component.present) return placed(component.span, false);
  if (parts.subcomponent === undefined) return placed(component.span, true);
  const subcomponent = part(raw, component.span, subcomponentSeparator, parts.subcomponent);
  return placed(subcomponent.span, subcomponent.present);
}
