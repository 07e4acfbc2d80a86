/**
 * Collects validation findings with a path, a code and a sentence, and applies the mode: findings the README lists
 * as "strict only" are errors in strict mode and warnings in compatibility mode.
 */
import type { ValidationIssue } from '../../kernel/standards-registry.ts';

/** Validation mode, as the adapter receives it. */
export type NcpdpMode = 'strict' | 'compatibility';

/** Most findings kept per severity: a garbled megabyte could otherwise yield a finding per byte. */
export const MAX_FINDINGS = 500;

/** Gathers findings in the order they are found, up to {@link MAX_FINDINGS} of each severity. */
export class IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  private truncated = false;

  constructor(readonly mode: NcpdpMode) {}

  private add(list: ValidationIssue[], issue: ValidationIssue): void {
    if (list.length < MAX_FINDINGS) {
      list.push(issue);
      return;
    }
    if (!this.truncated) {
      this.truncated = true;
      this.warnings.push({
        field: 'Message',
        code: 'FINDINGS_TRUNCATED',
        message: `More than ${MAX_FINDINGS} findings of one severity; the rest were not listed.`,
        severity: 'warning',
      });
    }
  }

  /** An error in every mode. */
  error(field: string, code: string, message: string): void {
    this.add(this.errors, { field, code, message, severity: 'error' });
  }

  /** A warning in every mode (never fails a message). */
  warning(field: string, code: string, message: string): void {
    this.add(this.warnings, { field, code, message, severity: 'warning' });
  }

  /** An error in strict mode, a warning in compatibility mode (deviations that real traffic tolerates). */
  strictError(field: string, code: string, message: string): void {
    if (this.mode === 'strict') this.error(field, code, message);
    else this.warning(field, code, message);
  }
}

/** One PARSE_ERROR finding (a message that could not be read at all). */
export function parseErrorIssue(field: string, message: string): ValidationIssue {
  return { field, code: 'PARSE_ERROR', message, severity: 'error' };
}
