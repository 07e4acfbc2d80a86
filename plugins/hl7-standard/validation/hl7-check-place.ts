/**
 * Where a checked HL7 v2 value sits: the message context of the field checks and the place of a value within a
 * segment, kept as indexes while checking and turned into a path (`PID.3[2].4`) and a name only when an issue is
 * raised.
 */
import type { Hl7ComponentDefinition, Hl7FieldDefinition, Hl7VersionDefinitions } from '../hl7-definitions.ts';
import type { Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Segment } from '../hl7-model.ts';

/** What the field checks need to know about the message. */
export interface FieldCheckContext {
  definitions: Hl7VersionDefinitions;
  issues: Hl7IssueCollector;
  /** "ADT^A01 v2.5.1", used in sentences. */
  label: string;
  /** Path of a segment occurrence (`OBX[2]`, `PID`); called only when an issue is raised. */
  pathOf: (segment: Hl7Segment) => string;
}

/**
 * Where a value sits, kept as indexes while checking and turned into a path and a name only for an issue.
 * One object is reused for a whole segment.
 */
export interface Place {
  ctx: FieldCheckContext;
  segment: Hl7Segment;
  field: Hl7FieldDefinition;
  /** 0-based repetition. */
  repetition: number;
  /** True when the segment's definition comes from a profile, whose lengths are the profile's own rules. */
  profileSegment: boolean;
}

function segmentPathOf(place: Place): string {
  return place.ctx.pathOf(place.segment);
}

/** `PID.3` (the whole field). */
export function fieldPathOf(place: Place): string {
  return `${segmentPathOf(place)}.${place.field.position}`;
}

/** `PID.3` for the first repetition, `PID.3[2]` for the others. */
export function repetitionPathOf(place: Place): string {
  return place.repetition === 0 ? fieldPathOf(place) : `${fieldPathOf(place)}[${place.repetition + 1}]`;
}

/** Path and name of a value: the repetition itself, one of its components, or a part of a component. */
export function describeValue(place: Place, component?: Hl7ComponentDefinition, part?: Hl7ComponentDefinition): { path: string; name: string } {
  let path = repetitionPathOf(place);
  let name = place.field.name;
  if (component) {
    path += `.${component.position}`;
    name += ` - ${component.name}`;
  }
  if (part) {
    path += `.${part.position}`;
    name += ` - ${part.name}`;
  }
  return { path, name };
}
