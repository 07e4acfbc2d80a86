/**
 * The shapes of HL7 v2 definitions (segments, fields, data types, components, message structures) and the versions
 * that have them: what hl7-definitions.ts builds and every checker, generator and diff reads.
 */

/** Versions with definitions, oldest first. */
export const HL7_VERSIONS = ['2.3', '2.3.1', '2.4', '2.5', '2.5.1', '2.6', '2.7', '2.7.1', '2.8'] as const;

/** A version with definitions. */
export type Hl7Version = (typeof HL7_VERSIONS)[number];

/** Optionality of a field or component: Required, Optional, Conditional, Backward-compatible, Withdrawn. */
export type Hl7Optionality = 'R' | 'O' | 'C' | 'B' | 'W';

/** One field of a segment. */
export interface Hl7FieldDefinition {
  /** 1-based position (SEG-n). */
  position: number;
  name: string;
  dataType: string;
  optionality: Hl7Optionality;
  /** Maximum repetitions; `Infinity` when unbounded. */
  maxRepetitions: number;
  maxLength?: number;
  /** HL7 table number as written in the standard (`0001`). */
  table?: string;
}

/** One segment. */
export interface Hl7SegmentDefinition {
  name: string;
  description: string;
  fields: Hl7FieldDefinition[];
}

/** One component of a composite data type. */
export interface Hl7ComponentDefinition {
  position: number;
  name: string;
  dataType: string;
  optionality: Hl7Optionality;
  maxLength?: number;
  table?: string;
}

/** A data type; primitives have no components. */
export interface Hl7DataTypeDefinition {
  name: string;
  description: string;
  components: Hl7ComponentDefinition[];
}

/** One element of a message structure: a segment, a group of elements, or a choice of one of its elements. */
export interface Hl7StructureNode {
  kind: 'segment' | 'group' | 'choice';
  /** Segment name, group name (`INSURANCE`) or choice label (`OBR,RQD`). */
  name: string;
  description: string;
  min: number;
  /** `Infinity` when the element repeats without limit. */
  max: number;
  children: Hl7StructureNode[];
}

/** A message structure (abstract message syntax). */
export interface Hl7MessageStructure {
  /** Structure id (`ADT_A01`), or the event key it was found under in hl7-dictionary. */
  id: string;
  description: string;
  nodes: Hl7StructureNode[];
}

/** The message type a header declares, resolved against a version. */
export interface Hl7MessageTypeResolution {
  /** `ADT^A01`. */
  messageType: string;
  structure?: Hl7MessageStructure;
  /** Structure id the header declared in MSH-9.3, if any. */
  declaredStructure?: string;
  /** True when the message code is in HL7 table 0076 (or is an ACK). */
  knownCode: boolean;
  /** True when the trigger event is in HL7 table 0003. */
  knownTrigger: boolean;
}

/** Definitions of one version. */
export interface Hl7VersionDefinitions {
  readonly version: Hl7Version;
  segment(name: string): Hl7SegmentDefinition | undefined;
  dataType(name: string): Hl7DataTypeDefinition | undefined;
  /** Structure by key: an event key (`ADT_A04`) or a structure id (`ADT_A01`). */
  structure(key: string): Hl7MessageStructure | undefined;
  /** Resolves MSH-9 (code, trigger, structure) to a message structure of this version. */
  resolveMessage(code: string, trigger: string, structure?: string): Hl7MessageTypeResolution;
  /** Message keys (event or structure ids) of this version. */
  messageKeys(): string[];
  /** Segment names of this version. */
  segmentNames(): string[];
}
