/**
 * Reading an HL7 v2 message by path in tests: a field, component or subcomponent as decoded text, a path formatted
 * back to text, the segments of a name. The validator reads parsed segments directly; only tests need these.
 */
import type { Hl7Field, Hl7Message, Hl7Segment } from '../../plugins/hl7-standard/hl7-model.ts';
import { parseHl7Path, type Hl7Path } from '../../plugins/hl7-standard/hl7-path.ts';

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
