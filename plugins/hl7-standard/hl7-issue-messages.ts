/**
 * Issue codes of HL7 v2 validation, their severity per mode, and the collector the checks report into.
 * Strict mode follows the standard; compatibility mode keeps as errors only what breaks a message's meaning and
 * turns into warnings what working interfaces commonly tolerate (lengths, tables, unknown and Z-segments...).
 */
import type { ValidationIssue } from '../../kernel/standards-registry.ts';

/** Every code an HL7 v2 validation can report. */
export const HL7_ISSUE_CODES = [
  'REQUIRED_FIELD_MISSING',
  'RECOMMENDED_FIELD_EMPTY',
  'SEGMENT_MISSING',
  'SEGMENT_UNEXPECTED',
  'SEGMENT_OUT_OF_ORDER',
  'TOO_MANY_REPETITIONS',
  'FIELD_TOO_LONG',
  'INVALID_DATA_TYPE',
  'INVALID_DATE',
  'VALUE_NOT_IN_TABLE',
  'VALUE_NOT_IN_VALUE_SET',
  'CONSTRAINT_FAILED',
  'WITHDRAWN_FIELD_PRESENT',
  'UNKNOWN_MESSAGE_TYPE',
  'UNSUPPORTED_VERSION',
  'MSH_INVALID',
  'PARSE_ERROR',
  'UNKNOWN_ELEMENT',
  'INVALID_ENCODING',
] as const;

/** One HL7 v2 issue code. */
export type Hl7IssueCode = (typeof HL7_ISSUE_CODES)[number];

/** Validation mode. */
export type Hl7ValidationMode = 'strict' | 'compatibility';

/** Codes that compatibility mode reports as warnings (strict reports them as errors). */
const TOLERATED_IN_COMPATIBILITY: ReadonlySet<Hl7IssueCode> = new Set<Hl7IssueCode>([
  'SEGMENT_UNEXPECTED',
  'SEGMENT_OUT_OF_ORDER',
  'TOO_MANY_REPETITIONS',
  'FIELD_TOO_LONG',
  'VALUE_NOT_IN_TABLE',
  'WITHDRAWN_FIELD_PRESENT',
  'UNKNOWN_MESSAGE_TYPE',
  'UNSUPPORTED_VERSION',
  'UNKNOWN_ELEMENT',
  'INVALID_ENCODING',
]);

/**
 * Severity of a code in a mode. `tolerable` true marks a finding that compatibility mode accepts whatever its code;
 * false one it never accepts whatever its code (a coding system a receiver cannot interpret); absent, the code
 * decides.
 */
export function severityOf(code: Hl7IssueCode, mode: Hl7ValidationMode, tolerable?: boolean): 'error' | 'warning' {
  if (code === 'RECOMMENDED_FIELD_EMPTY') return 'warning';
  if (mode === 'strict' || tolerable === false) return 'error';
  return tolerable === true || TOLERATED_IN_COMPATIBILITY.has(code) ? 'warning' : 'error';
}

/** Collects the issues of one message. */
export class Hl7IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  /**
   * Code and field of every issue recorded, built on the first {@link has} (only profile checks ask) and kept up to
   * date from then on: asking stays constant-time however many issues a large message has.
   */
  private places: Set<string> | undefined;

  constructor(readonly mode: Hl7ValidationMode) {}

  /** True when an issue with this code at this field has been recorded (in either severity). */
  has(code: string, field: string): boolean {
    if (!this.places) {
      this.places = new Set();
      for (const issue of this.errors) this.places.add(placeKey(issue.code, issue.field));
      for (const issue of this.warnings) this.places.add(placeKey(issue.code, issue.field));
    }
    return this.places.has(placeKey(code, field));
  }

  /** Records an issue with the mode's severity for its code. */
  add(code: Hl7IssueCode, field: string, message: string, tolerable?: boolean): void {
    this.push({ field, code, message, severity: severityOf(code, this.mode, tolerable) });
  }

  /** Records an issue whose severity is decided by the caller (profiles: RE is a warning in both modes). */
  push(issue: ValidationIssue): void {
    (issue.severity === 'error' ? this.errors : this.warnings).push(issue);
    this.places?.add(placeKey(issue.code, issue.field));
  }
}

/** One string for a code and a field (a NUL cannot occur in either). */
function placeKey(code: string, field: string): string {
  return `${code}\u0000${field}`;
}

/** "PID.5 (Patient Name)". */
export function describeField(path: string, name: string | undefined): string {
  return name ? `${path} (${name})` : path;
}
