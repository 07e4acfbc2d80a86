/** The shape of a finding's place in a message's text (see finding-position.ts). */

/** The place of a finding in a message's text. Fields a standard has no notion of are null. */
export interface FindingPosition {
  /** 0-based index of the segment among the message's segments (HL7, NCPDP Telecommunication). */
  segmentIndex: number | null;
  /** Segment id (`PID`, `AM07`). */
  segment: string | null;
  /** Field number (HL7, 1-based as the standard counts) . */
  field: number | null;
  /** Repetition (1-based) when the path names one. */
  repetition: number | null;
  /** Component (1-based) when the path names one. */
  component: number | null;
  /** Subcomponent (1-based) when the path names one. */
  subcomponent: number | null;
  /** The element's path as located (JSON and XML: the element, or its nearest present parent). */
  element: string | null;
  /** Start offset in the text (a JavaScript string index: UTF-16 code units), inclusive. */
  start: number;
  /** End offset, exclusive; equal to `start` for an empty or absent element's place. */
  end: number;
  /**
   * True when the range is the element itself; false when the element is absent and the range is where it would be
   * (the end of its segment, or its nearest present parent).
   */
  exact: boolean;
}

/** A position with every structural field null: a range of a tree-shaped text (JSON, XML). */
export function treePosition(element: string, start: number, end: number, exact: boolean): FindingPosition {
  return { segmentIndex: null, segment: null, field: null, repetition: null, component: null, subcomponent: null, element, start, end, exact };
}
