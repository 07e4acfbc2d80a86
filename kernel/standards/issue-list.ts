/**
 * Bounded lists of findings. A validation of hostile input can find millions of issues (350,000 bare `MSH` lines
 * are a few findings each); the result lists at most a configured number of them and counts every one exactly, by
 * severity and by code, while collecting: nothing is built in full and cut afterwards, so memory stays bounded and
 * the work stays linear in the findings. The same holds for the differences of a diff.
 */
import type { Difference, DifferenceTotals, DiffResult, IssueTotals, ValidationIssue, ValidationResult } from '../standards-registry.ts';
import { EXCERPT_CHARACTERS, excerpt } from '../lib/text/text-excerpt.ts';

/** Issues (or differences) a result lists unless configured otherwise. */
export const DEFAULT_MAX_ISSUES = 1_000;

/**
 * Longest issue sentence kept whole. A sentence quotes at most a short excerpt of input; this is the last guard for
 * one that quotes several, so no listed issue is ever large.
 */
const MAX_MESSAGE_CHARACTERS = 1_000;

/** An issue as listed: its path and sentence within bounds (a path can hold a megabyte-long element name). */
export function boundIssue(issue: ValidationIssue): ValidationIssue {
  if (issue.field.length <= EXCERPT_CHARACTERS && issue.message.length <= MAX_MESSAGE_CHARACTERS) return issue;
  return { ...issue, field: excerpt(issue.field), message: excerpt(issue.message, MAX_MESSAGE_CHARACTERS) };
}

/**
 * Findings of one validation: every one counted, at most `limit` listed. Errors are listed before warnings: once
 * the list is full, an error takes the place of the latest listed warning, so a result never shows warnings while
 * hiding errors.
 */
export class IssueList implements IssueSink {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  private errorTotal = 0;
  private warningTotal = 0;
  private readonly byCode = new Map<string, number>();

  /** @param limit most issues listed (errors and warnings together) */
  constructor(readonly limit: number = DEFAULT_MAX_ISSUES) {}

  /** True when an issue of this severity would be listed now (so a caller may skip building what it lists). */
  hasRoomFor(severity: ValidationIssue['severity']): boolean {
    return this.errors.length + this.warnings.length < this.limit || (severity === 'error' && this.warnings.length > 0);
  }

  /** Counts an issue without listing it (what {@link add} does once the list is full). */
  count(code: string, severity: ValidationIssue['severity']): void {
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + 1);
    if (severity === 'error') this.errorTotal++;
    else this.warningTotal++;
  }

  /** Counts the issue and lists it while there is room; true when it was listed. */
  add(issue: ValidationIssue): boolean {
    this.count(issue.code, issue.severity);
    const isError = issue.severity === 'error';
    if (this.errors.length + this.warnings.length < this.limit) {
      (isError ? this.errors : this.warnings).push(boundIssue(issue));
      return true;
    }
    if (isError && this.warnings.length > 0) {
      this.warnings.pop();
      this.errors.push(boundIssue(issue));
      return true;
    }
    return false;
  }

  /** Every error found, listed or not. */
  get errorCount(): number {
    return this.errorTotal;
  }

  /** Every warning found, listed or not. */
  get warningCount(): number {
    return this.warningTotal;
  }

  /** True when some findings are counted but not listed. */
  get truncated(): boolean {
    return this.errors.length + this.warnings.length < this.errorTotal + this.warningTotal;
  }

  /** Exact counts by severity and by code (codes in the order first found). */
  totals(): IssueTotals {
    return { errors: this.errorTotal, warnings: this.warningTotal, byCode: Object.fromEntries(this.byCode) };
  }
}

/** Differences of one diff: every one counted, at most `limit` listed, in the order found. */
export class DifferenceList {
  readonly differences: Difference[] = [];
  private readonly counts: DifferenceTotals = { modified: 0, added: 0, removed: 0 };
  private total = 0;

  /** @param limit most differences listed */
  constructor(readonly limit: number = DEFAULT_MAX_ISSUES) {}

  /** True while a difference added now would be listed (so a caller may skip rendering values it would drop). */
  hasRoom(): boolean {
    return this.differences.length < this.limit;
  }

  /** Counts the difference and lists it while there is room (values and path cut to an excerpt). */
  add(difference: Difference): void {
    this.total++;
    this.counts[difference.changeType]++;
    if (this.differences.length >= this.limit) return;
    const { field, leftValue, rightValue } = difference;
    const large = field.length > EXCERPT_CHARACTERS || leftValue.length > EXCERPT_CHARACTERS || rightValue.length > EXCERPT_CHARACTERS;
    this.differences.push(large ? { ...difference, field: excerpt(field), leftValue: excerpt(leftValue), rightValue: excerpt(rightValue) } : difference);
  }

  /** Every difference found, listed or not. */
  get count(): number {
    return this.total;
  }

  /** True when some differences are counted but not listed. */
  get truncated(): boolean {
    return this.differences.length < this.total;
  }

  /** Exact counts by change type. */
  totals(): DifferenceTotals {
    return { ...this.counts };
  }
}

/** Anything findings can be reported to. */
export interface IssueSink {
  add(issue: ValidationIssue): void;
}

/**
 * The findings of one part of a result (one message of several, one record of a batch): every one counted for the
 * part, each reported to the result's {@link IssueList}, and listed in the part's own entry only when the result
 * listed it, so the parts together never list more than the result does.
 */
export class IssuePart implements IssueSink {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  /** Every error of the part, listed or not. */
  errorCount = 0;
  /** Every warning of the part, listed or not. */
  warningCount = 0;

  /**
   * @param result the result's list, which counts and lists every part's findings
   * @param options `asReported`: how the result shows a finding of this part (e.g. its path under the message's);
   *   `listed`: false when the part has no entry of its own (a single message is the result itself)
   */
  constructor(
    private readonly result: IssueList,
    private readonly options: { asReported?: (issue: ValidationIssue) => ValidationIssue; listed?: boolean } = {},
  ) {}

  add(issue: ValidationIssue): void {
    const isError = issue.severity === 'error';
    if (isError) this.errorCount++;
    else this.warningCount++;
    if (!this.result.hasRoomFor(issue.severity)) {
      this.result.count(issue.code, issue.severity);
      return;
    }
    const reported = this.options.asReported ? this.options.asReported(issue) : issue;
    if (this.result.add(reported) && this.options.listed !== false) (isError ? this.errors : this.warnings).push(boundIssue(issue));
  }
}

/** A sink that rewrites each finding before passing it on (e.g. a best-effort check's findings as warnings). */
export function rewritingSink(sink: IssueSink, rewrite: (issue: ValidationIssue) => ValidationIssue): IssueSink {
  return { add: (issue) => sink.add(rewrite(issue)) };
}

/**
 * The result of an adapter that does not bound its own lists (one written before results carried totals): counted
 * from its lists and cut to `limit`. Adapters that fill `totals` are returned as they are.
 */
export function withIssueTotals(result: ValidationResult, limit: number): ValidationResult & Required<Pick<ValidationResult, 'totals' | 'truncated'>> {
  if (result.totals) return { ...result, totals: result.totals, truncated: result.truncated ?? false };
  const list = new IssueList(limit);
  for (const issue of result.errors) list.add(issue);
  for (const issue of result.warnings) list.add(issue);
  const messages = result.messages?.slice(0, limit);
  return {
    ...result,
    errors: list.errors,
    warnings: list.warnings,
    totals: list.totals(),
    truncated: list.truncated || (messages?.length ?? 0) < (result.messages?.length ?? 0),
    ...(messages ? { messages } : {}),
  };
}

/** The diff of an adapter that does not bound its own list: counted from it and cut to `limit`. */
export function withDifferenceTotals(result: DiffResult, limit: number): DiffResult & Required<Pick<DiffResult, 'totals' | 'truncated'>> {
  if (result.totals) return { ...result, totals: result.totals, truncated: result.truncated ?? false };
  const list = new DifferenceList(limit);
  for (const difference of result.differences) list.add(difference);
  return {
    ...result,
    differences: list.differences,
    totalDifferences: list.count,
    totals: list.totals(),
    truncated: list.truncated,
  };
}
