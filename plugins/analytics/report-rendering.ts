/**
 * Renders the monitor's report (built by the monitor's `buildReport`, never re-computed here) for a download or an
 * e-mail: HTML (a self-contained page, every value escaped), plain text, CSV (one row per interface, through the
 * kernel's CSV writer) or JSON (the report itself). Only the report's facts are read; no figure is derived here
 * except the per-interface error rate shown as a percentage.
 */
import { csvDocument } from '../../kernel/csv.ts';
import { escapeHtml } from '../../kernel/html-escape.ts';
import type { ReportFormat } from './report-schedules.ts';
import { alertSubject } from '../monitor/api.ts';
import { humanDuration } from '../../kernel/duration-text.ts';

/** The facts of a monitor report that analytics renders (a structural view of the monitor's report). */
export interface ReportFacts {
  generatedAt: string;
  windowStart: string;
  windowEnd: string;
  overallState: string;
  totals: { messages: number; failed: number; interfaces: number };
  interfaces: Array<{
    status: { interfaceId: string; name: string; state: string; lastMessageAt: string | null };
    metrics: { messagesTotal: number; messagesFailed: number; errorRate: number | null; p99LatencyMs: number | null };
    topErrors: Array<{ code: string; field: string; count: number; exampleControlIds?: string[] }>;
  }>;
  alerts: Array<{ interfaceName: string | null; severity: string; title: string; triggeredAt: string; acknowledgedAt: string | null }>;
}

/** A rendered report: its bytes, media type and file name. */
export interface RenderedReport {
  contentType: string;
  fileName: string;
  body: string;
}

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

const percent = (rate: number | null) => (rate === null ? 'n/a' : `${(rate * 100).toFixed(1)} %`);

/** The report as CSV: one row per interface with its figures. */
export function reportCsv(report: ReportFacts): string {
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

/** The report as plain text. */
export function reportText(report: ReportFacts): string {
  const lines = [
    `Interface report ${report.windowStart} to ${report.windowEnd} (generated ${report.generatedAt})`,
    `Overall state: ${report.overallState}`,
    `Messages: ${report.totals.messages}, failed: ${report.totals.failed}, interfaces: ${report.totals.interfaces}`,
    '',
  ];
  for (const { status, metrics, topErrors } of report.interfaces) {
    lines.push(
      `${status.name} [${status.state}]: ${metrics.messagesTotal} messages, ${metrics.messagesFailed} failed (${percent(metrics.errorRate)}), p99 ${humanDuration(metrics.p99LatencyMs)}, last message ${status.lastMessageAt ?? 'never'}`,
    );
    for (const error of topErrors) {
      const examples = error.exampleControlIds?.length ? ` (e.g. ${error.exampleControlIds.join(', ')})` : '';
      lines.push(`    ${error.count} x ${error.code} at ${error.field}${examples}`);
    }
  }
  lines.push('', `Alerts: ${report.alerts.length}`);
  for (const alert of report.alerts) {
    lines.push(`  ${alert.triggeredAt} ${alert.severity} ${alertSubject(alert)}: ${alert.title}${alert.acknowledgedAt ? ' (acknowledged)' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The report as a self-contained HTML page (inline styles only, no scripts, every value escaped). */
export function reportHtml(report: ReportFacts): string {
  const rows = report.interfaces
    .map(
      ({ status, metrics, topErrors }) =>
        `<tr><td>${escapeHtml(status.name)}</td><td>${escapeHtml(status.state)}</td><td style="text-align:right">${metrics.messagesTotal}</td>` +
        `<td style="text-align:right">${metrics.messagesFailed}</td><td style="text-align:right">${escapeHtml(percent(metrics.errorRate))}</td>` +
        `<td style="text-align:right">${escapeHtml(humanDuration(metrics.p99LatencyMs))}</td><td>${escapeHtml(status.lastMessageAt ?? 'never')}</td>` +
        `<td>${topErrors.map((e) => `${e.count} &times; <code>${escapeHtml(e.code)}</code> at <code>${escapeHtml(e.field)}</code>${e.exampleControlIds?.length ? ` (e.g. ${escapeHtml(e.exampleControlIds.join(', '))})` : ''}`).join('<br>')}</td></tr>`,
    )
    .join('\n');
  const alerts = report.alerts
    .map(
      (a) =>
        `<li>${escapeHtml(a.triggeredAt)} <strong>${escapeHtml(a.severity)}</strong> ${escapeHtml(alertSubject(a))}: ${escapeHtml(a.title)}${a.acknowledgedAt ? ' (acknowledged)' : ''}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Interface report</title></head>
<body style="font-family:system-ui,sans-serif;color:#1d2733">
<h1>Interface report</h1>
<p>${escapeHtml(report.windowStart)} to ${escapeHtml(report.windowEnd)}, generated ${escapeHtml(report.generatedAt)}. Overall state: <strong>${escapeHtml(report.overallState)}</strong>.</p>
<p>Messages: <strong>${report.totals.messages}</strong>, failed: <strong>${report.totals.failed}</strong>, interfaces: <strong>${report.totals.interfaces}</strong>.</p>
<table style="border-collapse:collapse" border="1" cellpadding="4">
<thead><tr><th>Interface</th><th>State</th><th>Messages</th><th>Failed</th><th>Error rate</th><th>p99 latency</th><th>Last message</th><th>Top errors</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Alerts (${report.alerts.length})</h2>
<ul>
${alerts}
</ul>
</body></html>
`;
}

/** The report in one format, with the media type and a file name naming its window. */
export function renderReport(report: ReportFacts, format: ReportFormat): RenderedReport {
  const stamp = (iso: string) => iso.slice(0, 16).replace(/[-:]/g, '');
  const fileName = `report-${stamp(report.windowStart)}Z-${stamp(report.windowEnd)}Z.${format === 'text' ? 'txt' : format}`;
  switch (format) {
    case 'html':
      return { contentType: 'text/html; charset=utf-8', fileName, body: reportHtml(report) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', fileName, body: reportText(report) };
    case 'csv':
      return { contentType: 'text/csv; charset=utf-8', fileName, body: reportCsv(report) };
    case 'json':
      return { contentType: 'application/json; charset=utf-8', fileName, body: `${JSON.stringify(report, null, 2)}\n` };
  }
}
