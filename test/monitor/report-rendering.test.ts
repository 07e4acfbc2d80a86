/**
 * The report's renderers, which the monitor's report route and analytics' generated and mailed reports share: HTML
 * with every value escaped, CSV one row per interface and formula-safe, text and JSON with the same figures.
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../plugins/monitor/reports/report-rendering.ts';
import { sampleReport } from '../kit/monitor-report.ts';

const hostile = '<img src=x onerror=alert(1)>';
const report = sampleReport({ interfaceName: hostile, alertTitle: '=HYPERLINK("x")' });

describe('report rendering', () => {
  it('renders HTML with the figures, durations a person reads, and every value escaped', () => {
    const html = renderReport(report, 'html');
    expect(html.contentType).toContain('text/html');
    expect(html.body).toContain('1234');
    expect(html.body).toContain('4.5 %');
    expect(html.body).toContain('5.1 s');
    expect(html.body).not.toContain('<img');
    expect(html.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('renders CSV one row per interface, formula-safe, and text and JSON with the same figures', () => {
    const csv = renderReport(report, 'csv');
    expect(csv.fileName).toBe('report-20260609T1200Z-20260610T1200Z.csv');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('interfaceId,interfaceName,state,messages,failed,errorRate,p99LatencyMs,lastMessageAt,windowStart,windowEnd');
    expect(lines[1]).toContain(',1234,56,');
    const text = renderReport(report, 'text');
    expect(text.fileName).toMatch(/\.txt$/);
    expect(text.body).toContain('messages 1234, failed 56, error rate 4.5 %');
    expect(JSON.parse(renderReport(report, 'json').body)).toEqual(report);
  });
});
