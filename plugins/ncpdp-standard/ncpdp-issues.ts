/**
 * Collects validation findings with a path, a code and a sentence, and applies the mode: findings the README lists
 * as "strict only" are errors in strict mode and warnings in compatibility mode.
 */
import type { ValidationIssue } from '../../kernel/standards-registry.ts';

/** Validation mode, as the adapter receives it. */
export type NcpdpMode = 'strict' | 'compatibility';

/** Gathers findings in the order they are found. */
export class IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];

  constructor(readonly mode: NcpdpMode) {}

  /** An error in every mode. */
  error(field: string, code: string, message: string): void {
    this.errors.push({ field, code, message, severity: 'error' });
  }

  /** A warning in every mode (never fails a message). */
  warning(field: string, code: string, message: string): void {
    this.warnings.push({ field, code, message, severity: 'warning' });
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
