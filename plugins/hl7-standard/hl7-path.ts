/**
 * Paths into a message, 1-based as the standard counts: `PID`, `PID.5`, `PID.5.1`, `PID.3[2].1`, `OBX[3].5`,
 * `PID.3[2].4.2` (segment[occurrence].field[repetition].component.subcomponent). A missing occurrence or
 * repetition index means the first one.
 */
import type { Hl7Field } from './hl7-model.ts';

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
