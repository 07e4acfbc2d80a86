// The bounded lists of findings and differences: exact counts, bounded lists, errors before warnings, excerpts,
// and work that grows linearly with the findings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DifferenceList, IssueList, IssuePart, rewritingSink, withDifferenceTotals, withIssueTotals } from '../../kernel/standards/issue-list.ts';
import type { ValidationIssue } from '../../kernel/standards-registry.ts';
import { doublingRatio } from '../helpers/growth-ratio.ts';

const issueArb = fc.record({
  field: fc.constantFrom('PID.5', 'OBX[2].5', 'Patient.name'),
  code: fc.constantFrom('A', 'B', 'C'),
  message: fc.constant('a sentence'),
  severity: fc.constantFrom<'error' | 'warning'>('error', 'warning'),
});

describe('IssueList', () => {
  it('counts every issue exactly, lists at most its limit, and lists errors before warnings', () => {
    fc.assert(
      fc.property(fc.array(issueArb, { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (issues, limit) => {
        const list = new IssueList(limit);
        for (const issue of issues) list.add(issue);
        const errors = issues.filter((i) => i.severity === 'error');
        const warnings = issues.filter((i) => i.severity === 'warning');
        expect(list.errors.length + list.warnings.length).toBe(Math.min(limit, issues.length));
        // Errors are never left out while a warning is listed.
        expect(list.errors).toEqual(errors.slice(0, Math.min(limit, errors.length)));
        expect(list.warnings).toEqual(warnings.slice(0, Math.max(0, Math.min(limit, issues.length) - list.errors.length)));
        const byCode: Record<string, number> = {};
        for (const issue of issues) byCode[issue.code] = (byCode[issue.code] ?? 0) + 1;
        expect(list.totals()).toEqual({ errors: errors.length, warnings: warnings.length, byCode });
        expect(list.truncated).toBe(issues.length > limit);
      }),
    );
  });

  it('lists a megabyte path or sentence as an excerpt', () => {
    const list = new IssueList();
    list.add({ field: `Patient.${'x'.repeat(1_000_000)}`, code: 'UNKNOWN_ELEMENT', message: 'y'.repeat(2_000_000), severity: 'error' });
    const [issue] = list.errors;
    expect(issue?.field).toBe(`Patient.${'x'.repeat(192)}… (999808 more characters)`);
    expect(issue?.message.length).toBeLessThan(1_100);
  });

  it('collects in time linear in the number of issues', () => {
    const issues = (n: number): ValidationIssue[] =>
      Array.from({ length: n }, (_, i) => ({ field: `F${i}`, code: `C${i % 50}`, message: 'm', severity: i % 3 ? 'warning' : 'error' }));
    const ratio = doublingRatio(issues, (all) => {
      const list = new IssueList(1_000);
      for (const issue of all) list.add(issue);
      return list.totals();
    }, 100_000);
    expect(ratio).toBeLessThan(3);
  });
});

describe('IssuePart', () => {
  it('counts a part exactly and lists in its entry only what the result lists, as the result shows it or as its own', () => {
    const result = new IssueList(3);
    const first = new IssuePart(result, { asReported: (issue) => ({ ...issue, field: `message[1].${issue.field}` }) });
    const second = new IssuePart(result, { listed: false });
    for (let i = 0; i < 2; i++) first.add({ field: `F${i}`, code: 'A', message: 'm', severity: 'error' });
    for (let i = 0; i < 4; i++) second.add({ field: `G${i}`, code: 'B', message: 'm', severity: 'warning' });
    expect(first.errorCount).toBe(2);
    expect(first.errors.map((e) => e.field)).toEqual(['F0', 'F1']);
    expect(second.warningCount).toBe(4);
    expect(second.warnings).toEqual([]);
    expect(result.errors.map((e) => e.field)).toEqual(['message[1].F0', 'message[1].F1']);
    expect(result.warnings.map((e) => e.field)).toEqual(['G0']);
    expect(result.totals()).toEqual({ errors: 2, warnings: 4, byCode: { A: 2, B: 4 } });
    const rewritten = new IssueList();
    rewritingSink(rewritten, (issue) => ({ ...issue, severity: 'warning' })).add({ field: 'X', code: 'C', message: 'm', severity: 'error' });
    expect(rewritten.totals()).toEqual({ errors: 0, warnings: 1, byCode: { C: 1 } });
  });
});

describe('DifferenceList', () => {
  it('counts by change type, lists at most its limit and shows long values as excerpts', () => {
    const list = new DifferenceList(2);
    list.add({ field: 'A', leftValue: 'x'.repeat(500), rightValue: '', changeType: 'removed' });
    list.add({ field: 'B', leftValue: '1', rightValue: '2', changeType: 'modified' });
    list.add({ field: 'C', leftValue: '', rightValue: '3', changeType: 'added' });
    expect(list.count).toBe(3);
    expect(list.totals()).toEqual({ modified: 1, added: 1, removed: 1 });
    expect(list.truncated).toBe(true);
    expect(list.differences.map((d) => d.field)).toEqual(['A', 'B']);
    expect(list.differences[0]?.leftValue).toBe(`${'x'.repeat(200)}… (300 more characters)`);
  });
});

describe('results of adapters that do not bound their lists', () => {
  it('are counted from their lists and cut to the limit', () => {
    const issue = (severity: 'error' | 'warning'): ValidationIssue => ({ field: 'F', code: 'X', message: 'm', severity });
    const result = withIssueTotals({ isValid: false, errors: [issue('error'), issue('error')], warnings: [issue('warning')] }, 2);
    expect(result).toMatchObject({ totals: { errors: 2, warnings: 1, byCode: { X: 3 } }, truncated: true });
    expect(result.errors).toHaveLength(2);
    expect(result.warnings).toHaveLength(0);
    const diff = withDifferenceTotals(
      { differences: [{ field: 'A', leftValue: '1', rightValue: '2', changeType: 'modified' }], totalDifferences: 1, ignoredFields: [] },
      5,
    );
    expect(diff).toMatchObject({ totalDifferences: 1, totals: { modified: 1, added: 0, removed: 0 }, truncated: false });
  });
});
