/**
 * Issue codes of HL7 v2 validation, their severity per mode, and the collector the checks report into.
 * Strict mode follows the standard; compatibility mode keeps as errors only what breaks a message's meaning and
 * turns into warnings what working interfaces commonly tolerate (lengths, tables, unknown and Z-segments...).
 */
import { IssueList, IssuePart } from '../../../kernel/standards/issue-list.ts';
import type { ValidationIssue } from '../../../kernel/standards-registry.ts';

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
  'BATCH_ENVELOPE_INVALID',
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

/**
 * Collects the issues of one message into its part of the result (kernel/standards/issue-list.ts): every issue counted, listed
 * while the result has room, so a message with a million findings holds no more of them than the result shows.
 */
export class Hl7IssueCollector {
  /**
   * Code and field of every issue recorded, when asked for at construction (profile checks ask {@link has}); kept
   * from every issue, listed or not, so asking stays right and constant-time however many issues a message has.
   */
  private readonly places: Set<string> | undefined;

  /**
   * @param part where the issues go (default: a part of its own bounded list)
   * @param remembersPlaces true when {@link has} will be asked
   */
  constructor(
    readonly mode: Hl7ValidationMode,
    readonly part: IssuePart = new IssuePart(new IssueList()),
    remembersPlaces = false,
  ) {
    if (remembersPlaces) this.places = new Set();
  }

  /** True when an issue with this code at this field has been recorded (needs `remembersPlaces`). */
  has(code: string, field: string): boolean {
    if (!this.places) throw new Error('Hl7IssueCollector.has needs a collector that remembers places.');
    return this.places.has(placeKey(code, field));
  }

  /** Listed errors of the message. */
  get errors(): ValidationIssue[] {
    return this.part.errors;
  }

  /** Listed warnings of the message. */
  get warnings(): ValidationIssue[] {
    return this.part.warnings;
  }

  /** Every error of the message, listed or not. */
  get errorCount(): number {
    return this.part.errorCount;
  }

  /** Records an issue with the mode's severity for its code; `detail` gives its `expected` and `actual`. */
  add(code: Hl7IssueCode, field: string, message: string, tolerable?: boolean, detail?: IssueDetail): void {
    this.push({ field, code, message, severity: severityOf(code, this.mode, tolerable), ...detail });
  }

  /** Records an issue whose severity is decided by the caller (profiles: RE is a warning in both modes). */
  push(issue: ValidationIssue): void {
    this.part.add(issue);
    this.places?.add(placeKey(issue.code, issue.field));
  }
}

/** What a check wanted and what it found (kernel/standards/issue-detail.ts). */
export type IssueDetail = Pick<ValidationIssue, 'expected' | 'actual'>;

/** One string for a code and a field (a NUL cannot occur in either). */
function placeKey(code: string, field: string): string {
  return `${code}\u0000${field}`;
}

/** "PID.5 (Patient Name)". */
export function describeField(path: string, name: string | undefined): string {
  return name ? `${path} (${name})` : path;
}
