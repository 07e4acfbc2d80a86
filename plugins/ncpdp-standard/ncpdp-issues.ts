/**
 * Collects validation findings with a path, a code and a sentence, and applies the mode: findings the README lists
 * as "strict only" are errors in strict mode and warnings in compatibility mode. Findings are counted exactly and
 * listed up to the result's bound.
 */
import { IssueList, type IssueSink } from '../../kernel/standards/issue-list.ts';
import type { ValidationIssue } from '../../kernel/standards-registry.ts';

/** What a check wanted and what it found. */
export type NcpdpIssueDetail = Pick<ValidationIssue, 'expected' | 'actual'>;

/** Validation mode, as the adapter receives it. */
export type NcpdpMode = 'strict' | 'compatibility';

/**
 * Gathers findings in the order they are found into a sink: the validation's bounded list (kernel/standards/issue-list.ts),
 * or a part of it for one record of a batch, or a rewriting sink for a best-effort check.
 */
export class IssueCollector {
  /** @param sink where findings go (default: a bounded list of its own) */
  constructor(
    readonly mode: NcpdpMode,
    readonly sink: IssueSink = new IssueList(),
  ) {}

  /** An error in every mode; `detail` gives its `expected` and `actual` (kernel/standards/issue-detail.ts). */
  error(field: string, code: string, message: string, detail?: NcpdpIssueDetail): void {
    this.sink.add({ field, code, message, severity: 'error', ...detail });
  }

  /** A warning in every mode (never fails a message). */
  warning(field: string, code: string, message: string, detail?: NcpdpIssueDetail): void {
    this.sink.add({ field, code, message, severity: 'warning', ...detail });
  }

  /** An error in strict mode, a warning in compatibility mode (deviations that real traffic tolerates). */
  strictError(field: string, code: string, message: string, detail?: NcpdpIssueDetail): void {
    if (this.mode === 'strict') this.error(field, code, message, detail);
    else this.warning(field, code, message, detail);
  }
}

/** One PARSE_ERROR finding (a message that could not be read at all). */
export function parseErrorIssue(field: string, message: string): ValidationIssue {
  return { field, code: 'PARSE_ERROR', message, severity: 'error' };
}
