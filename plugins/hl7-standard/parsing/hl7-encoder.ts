/**
 * Writes message trees back to HL7 v2 text: values are escaped on write, segments are joined by carriage returns
 * (the standard's segment terminator). MSH-1 and MSH-2 (and FHS/BHS-1/2) are written as they are.
 */
import { escapeHl7Value } from './hl7-escape.ts';
import type { Hl7Delimiters, Hl7Field, Hl7Message, Hl7Segment } from '../hl7-model.ts';

/** Re-exported so that writers of single values escape them with the encoder's own rules. */
export { escapeHl7Value } from './hl7-escape.ts';

const HEADER_SEGMENTS = new Set(['MSH', 'FHS', 'BHS']);

/** Encodes one field (all repetitions, components and subcomponents). */
export function encodeHl7Field(field: Hl7Field, d: Hl7Delimiters): string {
  let out = '';
  for (let r = 0; r < field.length; r++) {
    if (r > 0) out += d.repetition;
    const rep = field[r] as string[][];
    for (let c = 0; c < rep.length; c++) {
      if (c > 0) out += d.component;
      const comp = rep[c] as string[];
      for (let s = 0; s < comp.length; s++) {
        if (s > 0) out += d.subcomponent;
        out += escapeHl7Value(comp[s] as string, d);
      }
    }
  }
  return out;
}

/** Encodes one segment with the given delimiters. */
export function encodeHl7Segment(segment: Hl7Segment, d: Hl7Delimiters): string {
  if (HEADER_SEGMENTS.has(segment.name)) {
    const encoding = segment.fields[2]?.[0]?.[0]?.[0] ?? '';
    let out = `${segment.name}${d.field}${encoding}`;
    for (let i = 3; i < segment.fields.length; i++) out += d.field + encodeHl7Field(segment.fields[i] as Hl7Field, d);
    return out;
  }
  let out = segment.name;
  for (let i = 1; i < segment.fields.length; i++) out += d.field + encodeHl7Field(segment.fields[i] as Hl7Field, d);
  return out;
}

/** Encodes a message: segments escaped and joined by `\r` (no trailing terminator). */
export function encodeHl7Message(message: Hl7Message): string {
  return message.segments.map((segment) => encodeHl7Segment(segment, message.delimiters)).join('\r');
}
