// The dashboard: totals of the last 24 hours, every interface with its state and figures, the messages and failures
// over time, open alerts and the top errors. Every tile, interface row, alert, error row and chart point opens the
// message list filtered to it. It changes nothing but alert acknowledgements. The chart's series and its library are
// loaded once the figures and tables are shown (the library is the largest script of the pages, and they do not wait
// for either).
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api, queryString, useApi } from '../shared/api.js';
import { setting } from '../shared/bases.js';
import { formatAgo, formatDuration, formatTime } from '../shared/duration.js';
import { Problem, Table } from '../shared/layout.js';
import { navigate } from '../shared/router.js';

const RANGES = {
  '1h': { hours: 1, granularity: 'oneMinute', stepMs: 60_000 },
  '24h': { hours: 24, granularity: 'oneHour', stepMs: 3_600_000 },
  '7d': { hours: 24 * 7, granularity: 'oneHour', stepMs: 3_600_000 },
  '30d': { hours: 24 * 30, granularity: 'oneDay', stepMs: 86_400_000 },
};

const refreshMs = Math.max(2, Number(setting('refresh-seconds')) || 15) * 1000;
const percent = (rate) => (rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(1)} %`);
const count = (n) => (n === null || n === undefined ? '–' : Number(n).toLocaleString('en'));
const panel = (dashboard, id) => dashboard?.panels.find((p) => p.id === id)?.data;
const dayAgo = () => new Date(Date.now() - 24 * 3_600_000).toISOString();
let chartLibrary;
/** uPlot, imported once, when the first chart is drawn. */
const loadChartLibrary = () => (chartLibrary ??= import('../vendor/uplot.js').then((module) => module.default));

/** A link to the message list with these filters. */
export const messagesLink = (filters) => `/messages${queryString(filters)}`;

function Tiles({ overview }) {
  const totals = panel(overview, 'totals');
  const open = panel(overview, 'openAlerts');
  const since = dayAgo();
  return html`
    <div class="tiles" role="list">
      <a role="listitem" href=${messagesLink({ since })}><span class="tile-label">Messages</span><span class="tile-value" id="total-messages">${count(totals?.messages)}</span></a>
      <a role="listitem" href=${messagesLink({ status: 'failed', since })}><span class="tile-label">Failed</span><span class="tile-value" id="total-failed">${count(totals?.failed)}</span></a>
      <a role="listitem" href=${messagesLink({ status: 'failed', since })}><span class="tile-label">Error rate</span><span class="tile-value" id="total-error-rate">${percent(totals?.errorRate)}</span></a>
      <div role="listitem"><span class="tile-label">p99 latency</span><span class="tile-value" id="total-p99">${formatDuration(totals?.p99LatencyMs)}</span></div>
      <a role="listitem" href="/alerts"><span class="tile-label">Open alerts</span><span class="tile-value" id="total-open-alerts">${count(open?.total)}</span></a>
    </div>
  `;
}

function Interfaces({ status, figures }) {
  const byId = new Map((figures?.rows ?? []).map((row) => [row.key, row]));
  const since = dayAgo();
  const rows = (status?.interfaces ?? []).map((i) => {
    const row = byId.get(i.interfaceId);
    return html`<tr key=${i.interfaceId}>
      <td><a href=${messagesLink({ interfaceId: i.interfaceId })}>${i.name}</a></td>
      <td><span class=${`state state-${i.state}`}>${i.enabled ? i.state : `${i.state} (disabled)`}</span></td>
      <td class="num"><a href=${messagesLink({ interfaceId: i.interfaceId, since })} aria-label=${`${count(row?.messages ?? 0)} messages received by ${i.name}`}>${count(row?.messages ?? 0)}</a></td>
      <td class="num"><a href=${messagesLink({ interfaceId: i.interfaceId, status: 'failed', since })} aria-label=${`${count(row?.failed ?? 0)} failed messages of ${i.name}`}>${count(row?.failed ?? 0)}</a></td>
      <td title=${formatTime(i.lastMessageAt)}>${formatAgo(i.lastMessageAt)}</td>
      <td class="muted">${i.reason}</td>
    </tr>`;
  });
  return html`<${Table} id="interfaces" label="Interfaces" headers=${['Interface', 'State', 'Received (24 h)', 'Failed (24 h)', 'Last message', 'Why']} rows=${rows} empty="No interfaces are monitored yet." />`;
}

function Chart({ range, ready }) {
  const box = useRef(null);
  const chart = useRef(null);
  const { hours, granularity, stepMs } = RANGES[range];
  const [window, setWindow] = useState(() => ({ until: Date.now() }));
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && setWindow({ until: Date.now() }), refreshMs);
    return () => clearInterval(timer);
  }, []);
  const since = new Date(window.until - hours * 3_600_000).toISOString();
  const until = new Date(window.until).toISOString();
  const query = queryString({ since, until, granularity });
  // asked for once the figures and tables are shown, so their requests have the service to themselves
  const messages = useApi(ready ? `/api/monitor/analytics/timeseries${query}&metric=messagesTotal` : null);
  const failures = useApi(ready ? `/api/monitor/analytics/timeseries${query}&metric=messagesFailed` : null);
  const [chartProblem, setChartProblem] = useState(null);
  useEffect(() => {
    if (!ready || !messages.data || !failures.data || !box.current) return undefined;
    let live = true;
    loadChartLibrary().then(
      (uPlot) => live && box.current && draw(uPlot),
      (error) => live && setChartProblem(error),
    );
    function draw(uPlot) {
      const xs = messages.data.points.map((p) => Date.parse(p.start) / 1000);
      const data = [xs, messages.data.points.map((p) => p.value ?? 0), failures.data.points.map((p) => p.value ?? 0)];
      const width = Math.max(320, box.current.clientWidth || 800);
      if (chart.current && chart.current.width === width && chart.current.data[0].length === xs.length) {
        chart.current.setData(data);
        return;
      }
      chart.current?.destroy();
      chart.current = new uPlot(
        {
          width,
          height: 280,
          series: [{}, { label: 'Messages', stroke: '#1f5f9e', width: 2 }, { label: 'Failed', stroke: '#9b1c12', width: 2 }],
          axes: [{}, { label: 'per bucket' }],
        },
        data,
        box.current,
      );
      box.current.dataset.drawn = 'true';
      // a click on the chart opens the messages of the bucket under the pointer
      chart.current.over.addEventListener('click', () => {
        const index = chart.current.cursor.idx;
        if (index === null || index === undefined) return;
        const start = xs[index] * 1000;
        const failedOnly = chart.current.series[1].show === false;
        navigate(messagesLink({ since: new Date(start).toISOString(), until: new Date(start + stepMs).toISOString(), status: failedOnly ? 'failed' : '' }));
      });
    }
    return () => {
      live = false;
    };
  }, [ready, messages.data, failures.data]);
  useEffect(() => {
    // the chart follows the width of its box (a narrower window, a wider one)
    const observer = new ResizeObserver(() => {
      const width = Math.max(320, box.current?.clientWidth || 0);
      if (chart.current && chart.current.width !== width) chart.current.setSize({ width, height: 280 });
    });
    if (box.current) observer.observe(box.current);
    return () => {
      observer.disconnect();
      chart.current?.destroy();
    };
  }, []);
  const points = messages.data?.points ?? [];
  const busiest = points.filter((p) => (p.value ?? 0) > 0).slice(-5).reverse();
  return html`
    <div class="chart" ref=${box} id="chart"></div>
    <${Problem} error=${messages.error || failures.error || chartProblem} prefix="Could not load the chart" />
    ${busiest.length > 0
      ? html`<p class="muted">Latest buckets with messages (also a click on the chart):
          ${busiest.map(
            (p, index) => html`${index > 0 ? ', ' : ' '}<a href=${messagesLink({ since: p.start, until: new Date(Date.parse(p.start) + stepMs).toISOString() })}>${formatTime(p.start)} (${count(p.value)})</a>`,
          )}</p>`
      : null}
  `;
}

function Alerts({ overview, onChange }) {
  const open = panel(overview, 'openAlerts');
  const [problem, setProblem] = useState(null);
  const acknowledge = async (id, button) => {
    button.disabled = true;
    try {
      await api(`/api/monitor/alerts/${encodeURIComponent(id)}/acknowledge`, { method: 'POST' });
      setProblem(null);
      onChange();
    } catch (error) {
      button.disabled = false;
      setProblem(error);
    }
  };
  const rows = (open?.alerts ?? []).map(
    (alert) => html`<tr key=${alert.id}>
      <td title=${formatTime(alert.triggeredAt)}>${formatAgo(alert.triggeredAt)}</td>
      <td class=${`severity-${alert.severity}`}>${alert.severity}</td>
      <td>${alert.interfaceId ? html`<a href=${messagesLink({ interfaceId: alert.interfaceId, since: alert.triggeredAt ? new Date(Date.parse(alert.triggeredAt) - 3_600_000).toISOString() : '' })}>${alert.interfaceName ?? alert.interfaceId}</a>` : '–'}</td>
      <td>${alert.title}</td>
      <td><button type="button" data-alert-id=${alert.id} onClick=${(event) => acknowledge(alert.id, event.currentTarget)}>Acknowledge</button></td>
    </tr>`,
  );
  return html`
    <${Problem} error=${problem} prefix="Could not acknowledge" />
    <${Table} id="alerts" label="Open alerts" headers=${['Triggered', 'Severity', 'Interface', 'Alert', 'Action']} rows=${rows} empty="No open alerts." />
    <p><a href="/alerts">All alerts, open and past</a></p>
  `;
}

function TopErrors({ errors }) {
  const top = panel(errors, 'topErrors')?.errors ?? [];
  const rows = top.map(
    (e) => html`<tr key=${e.code}>
      <td><a href=${messagesLink({ errorCode: e.code, status: 'failed' })}><code>${e.code}</code></a></td>
      <td class="num">${count(e.failedMessages)}</td>
      <td>${e.fields.join(', ') || '–'}</td>
      <td>${e.controlIds.length === 0 ? '–' : e.controlIds.map((id, index) => html`${index > 0 ? ', ' : ''}<a href=${messagesLink({ controlId: id })}>${id}</a>`)}</td>
    </tr>`,
  );
  return html`<${Table} id="errors" label="Top errors" headers=${['Code', 'Failed messages', 'Fields', 'Example control ids']} rows=${rows} empty="No failed messages in the last 24 hours." />`;
}

async function downloadReport(format, setProblem) {
  try {
    const response = await fetch('/api/monitor/analytics/reports/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') || '');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = name ? name[1] : `report.${format}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    setProblem(null);
  } catch (error) {
    setProblem(error);
  }
}

/** The dashboard view. */
export function Dashboard() {
  const [range, setRange] = useState('24h');
  const [reportProblem, setReportProblem] = useState(null);
  const status = useApi('/api/monitor/status', { refreshMs });
  const overview = useApi('/api/monitor/analytics/dashboards/overview', { refreshMs });
  const errors = useApi('/api/monitor/analytics/dashboards/errors', { refreshMs });
  const figures = useApi(`/api/monitor/analytics/topn${queryString({ by: 'interface', metric: 'messagesTotal', n: 100 })}`, { refreshMs });
  const loaded = status.data && overview.data && errors.data && figures.data;
  useEffect(() => {
    if (loaded) document.body.dataset.loaded = 'true';
  }, [loaded]);
  const refreshAll = () => [status, overview, errors, figures].forEach((part) => part.reload());
  return html`
    <p class="muted">State <strong id="overall-state" class=${`state state-${status.data?.state ?? 'idle'}`}>${status.data?.state ?? '…'}</strong>
      · refreshed every ${formatDuration(refreshMs)}</p>
    <${Problem} error=${status.error || overview.error || errors.error || figures.error} prefix="Could not refresh" />
    <section aria-labelledby="totals-title">
      <h2 id="totals-title">Last 24 hours</h2>
      <${Tiles} overview=${overview.data} />
    </section>
    <section aria-labelledby="interfaces-title">
      <h2 id="interfaces-title">Interfaces</h2>
      <${Interfaces} status=${status.data} figures=${figures.data} />
      <p><a href="/interfaces">Manage interfaces</a></p>
    </section>
    <section aria-labelledby="chart-title">
      <h2 id="chart-title">Messages and failures over time</h2>
      <div class="ranges" role="group" aria-label="Range">
        ${Object.keys(RANGES).map(
          (name) => html`<button type="button" data-range=${name} aria-pressed=${String(range === name)} onClick=${() => setRange(name)}>${name.replace(/(\d+)/, '$1 ')}</button>`,
        )}
      </div>
      <${Chart} range=${range} ready=${Boolean(loaded)} />
    </section>
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">Open alerts</h2>
      <${Alerts} overview=${overview.data} onChange=${refreshAll} />
    </section>
    <section aria-labelledby="errors-title">
      <h2 id="errors-title">Top errors (24 h)</h2>
      <${TopErrors} errors=${errors.data} />
    </section>
    <section aria-labelledby="report-title">
      <h2 id="report-title">Report</h2>
      <p>Download the report of the last 24 hours:
        ${['html', 'csv', 'json', 'text'].map((format) => html` <button type="button" data-report=${format} onClick=${() => downloadReport(format, setReportProblem)}>${format.toUpperCase()}</button>`)}
      </p>
      <${Problem} error=${reportProblem} prefix="Could not download the report" />
    </section>
  `;
}
