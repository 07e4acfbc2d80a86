/**
 * The report in each format a person or a program asks for, from one set of renderers: HTML (report-html.ts), plain
 * text (report-text.ts), CSV (one row per interface, through the kernel's CSV writer) and JSON (the report itself).
 * The monitor's report route and analytics' generated and mailed reports all render here, so one window reads the
 * same wherever it is opened.
 */
import { csvDocument } from '../../../kernel/lib/text/csv.ts';
import type { MonitorReport, RenderedReport, ReportFormat } from '../api.ts';
import { renderReportHtml } from './report-html.ts';
import { renderReportText } from './report-text.ts';

/** Columns of the report's CSV, one row per interface. */
export const REPORT_CSV_COLUMNS = [
  'interfaceId',
  'interfaceName',
  'state',
  'messages',
  'failed',
  'errorRate',
  'p99LatencyMs',
  'lastMessageAt',
  'windowStart',
  'windowEnd',
] as const;

/** The report as CSV: one row per interface with its figures (raw numbers: rates as fractions, latency in ms). */
export function reportCsv(report: MonitorReport): string {
  return csvDocument(
    REPORT_CSV_COLUMNS,
    report.interfaces.map(({ status, metrics }) => [
      status.interfaceId,
      status.name,
      status.state,
      metrics.messagesTotal,
      metrics.messagesFailed,
      metrics.errorRate,
      metrics.p99LatencyMs,
      status.lastMessageAt,
      report.windowStart,
      report.windowEnd,
    ]),
  );
}

/** The report in one format, with the media type and a file name naming its window. */
export function renderReport(report: MonitorReport, format: ReportFormat): RenderedReport {
  const stamp = (iso: string) => iso.slice(0, 16).replace(/[-:]/g, '');
  const fileName = `report-${stamp(report.windowStart)}Z-${stamp(report.windowEnd)}Z.${format === 'text' ? 'txt' : format}`;
  switch (format) {
    case 'html':
      return { contentType: 'text/html; charset=utf-8', fileName, body: renderReportHtml(report) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', fileName, body: renderReportText(report) };
    case 'csv':
      return { contentType: 'text/csv; charset=utf-8', fileName, body: reportCsv(report) };
    case 'json':
      return { contentType: 'application/json; charset=utf-8', fileName, body: `${JSON.stringify(report, null, 2)}\n` };
  }
}
