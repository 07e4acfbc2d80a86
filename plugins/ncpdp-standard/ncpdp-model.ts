/**
 * The parsed NCPDP trees. SCRIPT is XML, kept as an ordered element tree (order is part of the standard and is
 * validated); Telecommunication D.0 is a fixed-width header followed by control-character framed segments.
 */

/** One XML element of a SCRIPT message, namespace prefix removed, children in document order. */
export interface ScriptElement {
  /** Local name (no prefix). */
  name: string;
  attributes: Record<string, string>;
  children: ScriptElement[];
  /** Concatenated, trimmed character data directly inside the element. */
  text: string;
}

/** A parsed SCRIPT message. */
export interface ScriptDocument {
  format: 'script';
  root: ScriptElement;
  /** Namespace URI of the root element, when declared. */
  namespace?: string;
}

/** One positional field of the fixed-width transaction header. */
export interface TelecomHeaderField {
  /** Two-character field id from the data dictionary (`A1` BIN, `A2` version, ...). */
  id: string;
  value: string;
  /** Byte offset in the transmission (after STX framing). */
  offset: number;
  /** Defined width; `value` is shorter when the header was cut short. */
  length: number;
  /** False when the header ended before this field. */
  present: boolean;
}

/** One field of a segment: two-character id and its value. */
export interface TelecomField {
  id: string;
  value: string;
  offset: number;
}

/** One segment: its identification (111-AM value, e.g. `07`) and fields in order. */
export interface TelecomSegment {
  /** The 111-AM value (`01`, `07`, `21`...); empty when the segment has no AM field. */
  id: string;
  fields: TelecomField[];
  /** 0 = transmission level (before any group separator); n >= 1 = nth transaction group. */
  group: number;
  offset: number;
}

/** A parsed Telecommunication transmission (request or response). */
export interface TelecomMessage {
  format: 'telecom';
  direction: 'request' | 'response';
  /** Header fields in order. */
  header: TelecomHeaderField[];
  segments: TelecomSegment[];
  /** Number of group separators seen (transaction groups). */
  groupCount: number;
  /** Whether STX/ETX framing bytes surrounded the transmission. */
  framed: boolean;
}

/** Any parsed NCPDP message. */
export type NcpdpMessage = ScriptDocument | TelecomMessage;
