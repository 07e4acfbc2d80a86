/**
 * The findings of a validation placed in the validated text: each listed finding gets the character range of its
 * element (kernel/positions), so a page can highlight it in place whatever the format (HL7, FHIR JSON or XML, NCPDP
 * SCRIPT or Telecommunication). Content holding several messages is not placed (a path names a place in one message).
 */
import { locateFinding, type FindingPosition, type PositionedStandard } from '../../kernel/positions/finding-position.ts';
import type { ValidationIssue, ValidationResult } from '../../kernel/standards-registry.ts';

/** Characters read in all while placing one answer's findings (each finding reads the text once at most). */
export const PLACING_BUDGET = 50_000_000;

const PLACED: ReadonlySet<string> = new Set<PositionedStandard>(['hl7', 'fhir', 'ncpdp']);

/** A finding with its place: null when it names no place in the text or was not placed. */
export type PlacedIssue = ValidationIssue & { position: FindingPosition | null };

/**
 * The result with `position` on each listed error and warning; a standard the locator does not read, content of
 * several messages, and findings past the budget (long texts with many findings) get null.
 */
export function placeFindings<R extends ValidationResult>(result: R, standard: string, text: string): R & { errors: PlacedIssue[]; warnings: PlacedIssue[] } {
  const placeable = PLACED.has(standard) && (result.messages?.length ?? 1) <= 1;
  let left = placeable ? Math.floor(PLACING_BUDGET / Math.max(1, text.length)) : 0;
  const place = (issue: ValidationIssue): PlacedIssue => {
    if (left <= 0) return { ...issue, position: null };
    left--;
    return { ...issue, position: locateFinding(standard as PositionedStandard, text, issue.field) ?? null };
  };
  return { ...result, errors: result.errors.map(place), warnings: result.warnings.map(place) };
}
