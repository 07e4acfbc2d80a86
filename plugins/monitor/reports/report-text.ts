/** The plain-text rendering of a report (for terminals and e-mail). */
import { humanDuration } from '../../../kernel/lib/time/duration-text.ts';
import type { MonitorReport } from './monitor-report.ts';
import { alertSubject } from '../api.ts';

function rate(value: number | null): string {
  return value === null ? 'n/a' : `${Math.round(value * 1000) / 10} %`;
}

/** Renders a report as text. Values are printed as they are (text has no markup to escape). */
export function renderReportText(report: MonitorReport): string {
  const lines: string[] = [
    'Interface monitoring report',
    `Window: ${report.windowStart} to ${report.windowEnd} (${report.sinceHours} h)`,
    `Overall: ${report.overallState}; ${report.totals.messages} messages, ${report.totals.failed} failed, ${report.totals.interfaces} interfaces`,
    '',
  ];
  for (const entry of report.interfaces) {
    const { status, metrics } = entry;
    lines.push(`== ${status.name} (${status.enabled ? 'enabled' : 'disabled'}) — ${status.state}: ${status.reason}`);
    lines.push(
      `   messages ${metrics.messagesTotal}, failed ${metrics.messagesFailed}, error rate ${rate(metrics.errorRate)}, ` +
        `average latency ${humanDuration(metrics.averageLatencyMs)}, p99 ${humanDuration(metrics.p99LatencyMs)}, last message ${metrics.lastMessageAt ?? 'never'}`,
    );
    if (metrics.staleLatency + metrics.clockSkew > 0) {
      lines.push(`   latency not counted: ${metrics.staleLatency} stale (sender time past the horizon), ${metrics.clockSkew} clock skew (sender time ahead)`);
    }
    if (entry.topErrors.length > 0) {
      lines.push('   top errors:');
      for (const e of entry.topErrors) lines.push(`     ${String(e.count).padStart(7)}  ${e.code} ${e.field}${e.exampleControlIds.length ? ` (e.g. ${e.exampleControlIds.join(', ')})` : ''}`);
    }
    lines.push('');
  }
  lines.push(`Alerts in the window: ${report.alerts.length}`);
  for (const alert of report.alerts) {
    lines.push(
      `  ${alert.triggeredAt} ${alert.severity.toUpperCase()} ${alertSubject(alert)}: ${alert.title}` +
        (alert.acknowledgedAt ? ` (acknowledged ${alert.acknowledgedAt})` : ''),
    );
  }
  return `${lines.join('\n')}\n`;
}
