/**
 * Paths into a message, 1-based as the standard counts: `PID`, `PID.5`, `PID.5.1`, `PID.3[2].1`, `OBX[3].5`,
 * `PID.3[2].4.2` (segment[occurrence].field[repetition].component.subcomponent). A missing occurrence or
 * repetition index means the first one.
 */
import type { Hl7Field, Hl7Message, Hl7Segment } from './hl7-model.ts';

/** A parsed path. Indexes are 1-based; `undefined` means "not given". */
export interface Hl7Path {
  segment: string;
  /** Occurrence of the segment (1 = first). */
  segmentIndex?: number;
  field?: number;
  /** Repetition of the field (1 = first). */
  repetition?: number;
  component?: number;
  subcomponent?: number;
}

const PATH = /^([A-Z][A-Z0-9]{2})(?:\[(\d+)\])?(?:[.-](\d+)(?:\[(\d+)\])?(?:\.(\d+)(?:\.(\d+))?)?)?$/;

/** Parses a path such as `PID.3[2].1`; undefined when the text is not a path. `PID-5` is accepted as `PID.5`. */
export function parseHl7Path(path: string): Hl7Path | undefined {
  const match = PATH.exec(path.trim());
  if (!match) return undefined;
  const num = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const result: Hl7Path = { segment: match[1] as string };
  const values: Array<[keyof Hl7Path, number | undefined]> = [
    ['segmentIndex', num(match[2])],
    ['field', num(match[3])],
    ['repetition', num(match[4])],
    ['component', num(match[5])],
    ['subcomponent', num(match[6])],
  ];
  for (const [key, value] of values) {
    if (value === undefined) continue;
    if (value < 1 && !(key === 'field' && value === 0)) return undefined;
    (result as unknown as Record<string, number>)[key] = value;
  }
  return result;
}

/** Formats a path back to text (`OBX[3].5`, `PID.3[2].1`); indexes of 1 are left out unless `explicit`. */
export function formatHl7Path(path: Hl7Path, explicit = false): string {
  let text = path.segment;
  if (path.segmentIndex !== undefined && (explicit || path.segmentIndex !== 1)) text += `[${path.segmentIndex}]`;
  if (path.field === undefined) return text;
  text += `.${path.field}`;
  if (path.repetition !== undefined && (explicit || path.repetition !== 1)) text += `[${path.repetition}]`;
  if (path.component === undefined) return text;
  text += `.${path.component}`;
  if (path.subcomponent !== undefined) text += `.${path.subcomponent}`;
  return text;
}

/** All segments with the given name, in message order. */
export function getSegments(message: Hl7Message, name: string): Hl7Segment[] {
  return message.segments.filter((segment) => segment.name === name);
}

/**
 * The value at a path, as a decoded string: a whole field or component is given with its parts joined by the
 * message's delimiters (unescaped), a subcomponent as is. Missing parts give `undefined`.
 */
export function getHl7Value(message: Hl7Message, path: string | Hl7Path): string | undefined {
  const parsed = typeof path === 'string' ? parseHl7Path(path) : path;
  if (!parsed) return undefined;
  let seen = 0;
  const wanted = parsed.segmentIndex ?? 1;
  let segment: Hl7Segment | undefined;
  for (const candidate of message.segments) {
    if (candidate.name === parsed.segment && ++seen === wanted) {
      segment = candidate;
      break;
    }
  }
  if (!segment) return undefined;
  const d = message.delimiters;
  if (parsed.field === undefined) {
    return segment.fields
      .slice(1)
      .map((f) => joinField(f, d.repetition, d.component, d.subcomponent))
      .join(d.field);
  }
  const field = segment.fields[parsed.field];
  if (!field) return undefined;
  if (parsed.repetition === undefined && parsed.component === undefined) return joinField(field, d.repetition, d.component, d.subcomponent);
  const repetition = field[(parsed.repetition ?? 1) - 1];
  if (!repetition) return undefined;
  if (parsed.component === undefined) return repetition.map((c) => c.join(d.subcomponent)).join(d.component);
  const component = repetition[parsed.component - 1];
  if (!component) return undefined;
  if (parsed.subcomponent === undefined) return component.join(d.subcomponent);
  return component[parsed.subcomponent - 1];
}

function joinField(field: Hl7Field, rep: string, comp: string, sub: string): string {
  if (field.length === 1 && field[0]?.length === 1 && field[0][0]?.length === 1) return field[0][0][0] ?? '';
  return field.map((r) => r.map((c) => c.join(sub)).join(comp)).join(rep);
}

/**
 * True when a field holds no data at all (every subcomponent of every repetition is empty). Index loops, not
 * for-of: validation asks this of every field of every message, and the iterator protocol doubled its cost.
 */
export function isFieldEmpty(field: Hl7Field | undefined): boolean {
  if (!field) return true;
  for (let r = 0; r < field.length; r++) {
    const rep = field[r] as Hl7Field[number];
    for (let c = 0; c < rep.length; c++) {
      const comp = rep[c] as string[];
      for (let s = 0; s < comp.length; s++) if (comp[s] !== '') return false;
    }
  }
  return true;
}
