/**
 * The HTML rendering of a report: one self-contained page (inline CSS, an inline SVG chart per interface, no
 * script, no external asset). Every value that came from a message, a file or a user is escaped, so a message
 * carrying `<script>` shows as text.
 */
import { escapeHtml } from '../../../kernel/lib/text/html-escape.ts';
import { humanDuration } from '../../../kernel/lib/time/duration-text.ts';
import type { InterfaceReport, MonitorReport } from './monitor-report.ts';
import { alertSubject } from '../api.ts';


function percent(value: number | null): string {
  return value === null ? 'n/a' : `${Math.round(value * 1000) / 10} %`;
}

/** An SVG bar chart of the hourly breakdown: successes and errors stacked. */
function hourlyChart(entry: InterfaceReport): string {
  const hours = entry.metrics.hourlyBreakdown;
  const width = 720;
  const height = 140;
  const top = Math.max(1, ...hours.map((h) => h.messagesProcessed));
  const slot = width / Math.max(1, hours.length);
  const bar = Math.max(1, slot * 0.8);
  const bars = hours
    .map((h, i) => {
      const x = (i * slot).toFixed(1);
      const okHeight = (h.successes / top) * (height - 20);
      const errHeight = (h.errors / top) * (height - 20);
      const okY = height - okHeight;
      const errY = okY - errHeight;
      const label = escapeHtml(`${h.hour}: ${h.messagesProcessed} messages, ${h.errors} errors`);
      return (
        `<g><title>${label}</title>` +
        `<rect x="${x}" y="${okY.toFixed(1)}" width="${bar.toFixed(1)}" height="${okHeight.toFixed(1)}" class="ok"/>` +
        `<rect x="${x}" y="${errY.toFixed(1)}" width="${bar.toFixed(1)}" height="${errHeight.toFixed(1)}" class="err"/></g>`
      );
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" height="${height}" role="img" ` +
    `aria-label="Messages per hour">` +
    `<line x1="0" y1="${height}" x2="${width}" y2="${height}" class="axis"/>${bars}` +
    `<text x="2" y="12" class="scale">${top} per hour</text></svg>`
  );
}

function interfaceSection(entry: InterfaceReport): string {
  const { status, metrics } = entry;
  const errors = entry.topErrors.length
    ? `<table><thead><tr><th>count</th><th>code</th><th>field</th><th>example</th></tr></thead><tbody>${entry.topErrors
        .map(
          (e) =>
            `<tr><td class="num">${e.count}</td><td><code>${escapeHtml(e.code)}</code></td><td><code>${escapeHtml(e.field)}</code></td><td>${escapeHtml(e.example)}${e.exampleControlIds.length ? `<br><span class="muted">e.g. ${escapeHtml(e.exampleControlIds.join(', '))}</span>` : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No failed messages in the window.</p>';
  return `<section>
<h2>${escapeHtml(status.name)} <span class="state ${status.state}">${status.state}</span></h2>
<p class="muted">${escapeHtml(status.reason)}${status.enabled ? '' : ' (disabled)'}</p>
<dl>
<dt>Messages</dt><dd>${metrics.messagesTotal}</dd>
<dt>Failed</dt><dd>${metrics.messagesFailed}</dd>
<dt>Error rate</dt><dd>${percent(metrics.errorRate)}</dd>
<dt>Average latency</dt><dd>${humanDuration(metrics.averageLatencyMs)}</dd>
<dt>p99 latency</dt><dd>${humanDuration(metrics.p99LatencyMs)}</dd>
<dt>Latency not counted</dt><dd>${metrics.staleLatency} stale, ${metrics.clockSkew} clock skew</dd>
<dt>Last message</dt><dd>${escapeHtml(metrics.lastMessageAt ?? 'never')}</dd>
</dl>
${hourlyChart(entry)}
<h3>Top errors</h3>
${errors}
</section>`;
}

/** Renders a report as one self-contained HTML page. */
export function renderReportHtml(report: MonitorReport): string {
  const alerts = report.alerts.length
    ? `<table><thead><tr><th>triggered</th><th>severity</th><th>interface</th><th>title</th><th>message</th><th>acknowledged</th></tr></thead><tbody>${report.alerts
        .map(
          (a) =>
            `<tr><td>${escapeHtml(a.triggeredAt)}</td><td class="${escapeHtml(a.severity)}">${escapeHtml(a.severity)}</td><td>${escapeHtml(alertSubject(a))}</td><td>${escapeHtml(a.title)}</td><td>${escapeHtml(a.message)}</td><td>${escapeHtml(a.acknowledgedAt ?? '')}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No alerts in the window.</p>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interface monitoring report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#1d2530;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}section{border-top:1px solid #d7dde4;padding-top:.5rem}
.muted{color:#5f6b7a}table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e6eaef;vertical-align:top}
td.num{text-align:right}dl{display:grid;grid-template-columns:max-content auto;gap:.1rem 1rem}dt{color:#5f6b7a}dd{margin:0}
.state{font-size:.8rem;padding:.1rem .5rem;border-radius:1rem;background:#e6eaef}.healthy{background:#d6f5df}.degraded{background:#fdeccc}.down{background:#fbd5d5}.idle{background:#e6eaef}
td.critical{color:#a11}td.warning{color:#a60}svg .ok{fill:#4f8fd8}svg .err{fill:#d8574f}svg .axis{stroke:#9aa5b1}svg .scale{font-size:10px;fill:#5f6b7a}
</style></head><body>
<h1>Interface monitoring report</h1>
<p>Window ${escapeHtml(report.windowStart)} to ${escapeHtml(report.windowEnd)} (${report.sinceHours} h). Overall state: <span class="state ${report.overallState}">${report.overallState}</span>.
${report.totals.messages} messages, ${report.totals.failed} failed, ${report.totals.interfaces} interfaces.</p>
${report.interfaces.map(interfaceSection).join('\n')}
<h2>Alerts</h2>
${alerts}
<p class="muted">Generated ${escapeHtml(report.generatedAt)}.</p>
</body></html>
`;
}
