/**
 * The parsed HL7 v2 message tree. Values are stored decoded (escape sequences resolved); the encoder escapes them
 * again on write. Indexes follow the standard: `segment.fields[1]` is SEG-1 (for MSH, MSH-1 is the field separator
 * and MSH-2 the encoding characters, as the standard counts them).
 */

/** The five (or six, with the 2.7+ truncation character) delimiters read from MSH-1 and MSH-2. */
export interface Hl7Delimiters {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
  /** MSH-2 fifth character (v2.7+), when present. */
  truncation?: string;
}

/** Subcomponents of one component (decoded strings). */
export type Hl7Component = string[];
/** Components of one repetition. */
export type Hl7Repetition = Hl7Component[];
/** Repetitions of one field (an empty field is `[[[""]]]`). */
export type Hl7Field = Hl7Repetition[];

/** One segment. `fields[0]` is unused (the segment name); `fields[n]` is SEG-n. */
export interface Hl7Segment {
  name: string;
  fields: Hl7Field[];
  /** 1-based line (segment) number within the input, for messages that point at a place. */
  line: number;
}

/** One message: delimiters and segments in order. */
export interface Hl7Message {
  delimiters: Hl7Delimiters;
  segments: Hl7Segment[];
}
