/**
 * Ignore patterns of a diff: exact paths (`MSH.7`), whole fields or segments (`MSH.10` also ignores `MSH.10.1`),
 * and wildcards for the segment occurrence, the field, the repetition or a component (`ZPI.*`, `OBX[*].14`,
 * `PID.3[*].4`). A missing segment occurrence or repetition index covers every one (`OBX.14` is OBX-14 of every OBX,
 * `OBX[2].14` of the second only), which is what an analyst leaving a field out of a comparison means.
 */

/** A difference's location, 1-based; a missing level means the difference covers all of it. */
export interface DiffLocation {
  segment: string;
  segmentIndex: number;
  field?: number;
  repetition?: number;
  component?: number;
  subcomponent?: number;
}

/** One level of a pattern: a number, any (`*`), or absent (the pattern stops above it). */
type PatternPart = number | '*' | undefined;

/** A compiled ignore pattern. */
export interface IgnorePattern {
  text: string;
  segment: string;
  segmentIndex: PatternPart;
  field: PatternPart;
  repetition: PatternPart;
  component: PatternPart;
  subcomponent: PatternPart;
}

const PATTERN =
  /^([A-Z][A-Z0-9]{2}|\*)(?:\[(\d+|\*)\])?(?:[.-](\d+|\*)(?:\[(\d+|\*)\])?(?:\.(\d+|\*)(?:\.(\d+|\*))?)?)?$/;

function part(text: string | undefined): PatternPart {
  if (text === undefined) return undefined;
  return text === '*' ? '*' : Number(text);
}

/** Compiles one pattern; undefined when the text is not a path pattern (it then ignores nothing). */
export function compileIgnorePattern(text: string): IgnorePattern | undefined {
  const match = PATTERN.exec(text.trim().toUpperCase());
  if (!match) return undefined;
  return {
    text,
    segment: match[1] as string,
    segmentIndex: part(match[2]),
    field: part(match[3]),
    repetition: part(match[4]),
    component: part(match[5]),
    subcomponent: part(match[6]),
  };
}

/**
 * True when the pattern covers the whole difference. Where the difference is coarser than the pattern (a whole field
 * added while the pattern names one component), it is covered only if the pattern's remaining levels are wildcards.
 */
export function patternCovers(pattern: IgnorePattern, at: DiffLocation): boolean {
  if (pattern.segment !== '*' && pattern.segment !== at.segment) return false;
  const index = pattern.segmentIndex;
  if (index !== undefined && index !== '*' && index !== at.segmentIndex) return false;
  const levels: Array<[PatternPart, number | undefined, boolean]> = [
    [pattern.field, at.field, false],
    [pattern.repetition, at.repetition, true],
    [pattern.component, at.component, false],
    [pattern.subcomponent, at.subcomponent, false],
  ];
  for (let i = 0; i < levels.length; i++) {
    const [wanted, actual, isRepetition] = levels[i];
    if (wanted === undefined) {
      // A pattern that stops at a level covers everything below it; a repetition left out means any repetition.
      if (!isRepetition || levels.slice(i + 1).every(([w]) => w === undefined)) return true;
      continue;
    }
    if (actual === undefined) return levels.slice(i).every(([w]) => w === undefined || w === '*');
    if (wanted !== '*' && wanted !== actual) return false;
  }
  return true;
}
