// The monitor's dashboard: reads only the public JSON API of this base, redraws every few seconds, and changes
// nothing but alert acknowledgements. Every value from the API is put into the page as text (never as markup).
'use strict';

(function () {
  const RANGES = {
    '1h': { hours: 1, granularity: 'oneMinute' },
    '24h': { hours: 24, granularity: 'oneHour' },
    '7d': { hours: 24 * 7, granularity: 'oneHour' },
    '30d': { hours: 24 * 30, granularity: 'oneDay' },
  };
  const refreshMs = Math.max(2, Number(document.body.dataset.refreshSeconds) || 15) * 1000;
  let range = '24h';
  let chart = null;
  let timer = null;

  const byId = (id) => document.getElementById(id);

  async function api(path, options) {
    const response = await fetch(path, { headers: { accept: 'application/json' }, ...options });
    const body = await response.json().catch(() => null);
    if (!response.ok || !body || body.success !== true) {
      const reason = body && body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`;
      throw new Error(`${path} answered ${reason}`);
    }
    return body.data;
  }

  function cell(text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function fill(tableId, rows, empty) {
    const body = byId(tableId).tBodies[0];
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = document.createElement('tr');
      const td = cell(empty, 'muted');
      td.colSpan = byId(tableId).tHead.rows[0].cells.length;
      tr.append(td);
      body.append(tr);
      return;
    }
    for (const cells of rows) {
      const tr = document.createElement('tr');
      tr.append(...cells);
      body.append(tr);
    }
  }

  const percent = (rate) => (rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(1)} %`);
  const millis = (ms) => (ms === null || ms === undefined ? '–' : `${Math.round(ms).toLocaleString('en')} ms`);
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : 'never');
  const panel = (dashboard, id) => dashboard.panels.find((p) => p.id === id).data;

  function showStatus(status) {
    const overall = byId('overall-state');
    overall.textContent = status.state;
    overall.className = `state state-${status.state}`;
    fill(
      'interfaces',
      status.interfaces.map((i) => [
        cell(i.name),
        cell(i.enabled ? i.state : `${i.state} (disabled)`, `state state-${i.state}`),
        cell(i.reason, 'muted'),
        cell(when(i.lastMessageAt)),
      ]),
      'No interfaces are monitored yet.',
    );
  }

  function showOverview(overview) {
    const totals = panel(overview, 'totals');
    byId('total-messages').textContent = totals.messages.toLocaleString('en');
    byId('total-failed').textContent = totals.failed.toLocaleString('en');
    byId('total-error-rate').textContent = percent(totals.errorRate);
    byId('total-p99').textContent = millis(totals.p99LatencyMs);
    const open = panel(overview, 'openAlerts');
    byId('total-open-alerts').textContent = String(open.total);
    fill(
      'alerts',
      open.alerts.map((alert) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Acknowledge';
        button.dataset.alertId = alert.id;
        button.addEventListener('click', () => acknowledge(alert.id, button));
        const action = document.createElement('td');
        action.append(button);
        return [cell(when(alert.triggeredAt)), cell(alert.severity, `severity-${alert.severity}`), cell(alert.interfaceName), cell(alert.title), action];
      }),
      'No open alerts.',
    );
  }

  function showErrors(errors) {
    const top = panel(errors, 'topErrors').errors;
    fill(
      'errors',
      top.map((e) => [cell(e.code), cell(String(e.failedMessages), 'num'), cell(e.fields.join(', ') || '–'), cell(e.controlIds.join(', ') || '–')]),
      'No failed messages in the last 24 hours.',
    );
  }

  function showSeries(messages, failures) {
    const xs = messages.points.map((p) => Date.parse(p.start) / 1000);
    const data = [xs, messages.points.map((p) => p.value ?? 0), failures.points.map((p) => p.value ?? 0)];
    const width = Math.max(320, byId('chart').clientWidth || 800);
    if (chart && chart.width === width && chart.data[0].length === xs.length) {
      chart.setData(data);
      return;
    }
    if (chart) chart.destroy();
    chart = new uPlot(
      {
        width,
        height: 280,
        series: [{}, { label: 'Messages', stroke: '#2f6fb3', width: 2 }, { label: 'Failed', stroke: '#c0392b', width: 2 }],
        axes: [{}, { label: 'per bucket' }],
      },
      data,
      byId('chart'),
    );
  }

  async function refreshSeries() {
    const { hours, granularity } = RANGES[range];
    const until = new Date();
    const since = new Date(until.getTime() - hours * 3_600_000);
    const query = `since=${since.toISOString()}&until=${until.toISOString()}&granularity=${granularity}`;
    const [messages, failures] = await Promise.all([
      api(`/api/monitor/analytics/timeseries?${query}&metric=messagesTotal`),
      api(`/api/monitor/analytics/timeseries?${query}&metric=messagesFailed`),
    ]);
    showSeries(messages, failures);
  }

  async function refresh() {
    try {
      const [status, overview, errors] = await Promise.all([
        api('/api/monitor/status'),
        api('/api/monitor/analytics/dashboards/overview'),
        api('/api/monitor/analytics/dashboards/errors'),
        refreshSeries(),
      ]);
      showStatus(status);
      showOverview(overview);
      showErrors(errors);
      byId('updated-at').textContent = new Date().toLocaleTimeString();
      byId('problem').hidden = true;
      document.body.dataset.loaded = 'true';
    } catch (error) {
      byId('problem').textContent = `Could not refresh: ${error.message}`;
      byId('problem').hidden = false;
    }
  }

  async function acknowledge(id, button) {
    button.disabled = true;
    try {
      await api(`/api/monitor/alerts/${encodeURIComponent(id)}/acknowledge`, { method: 'POST' });
      await refresh();
    } catch (error) {
      button.disabled = false;
      byId('problem').textContent = `Could not acknowledge: ${error.message}`;
      byId('problem').hidden = false;
    }
  }

  async function download(format) {
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
    } catch (error) {
      byId('problem').textContent = `Could not download the report: ${error.message}`;
      byId('problem').hidden = false;
    }
  }

  for (const button of document.querySelectorAll('[data-range]')) {
    button.addEventListener('click', () => {
      range = button.dataset.range;
      for (const other of document.querySelectorAll('[data-range]')) other.setAttribute('aria-pressed', String(other === button));
      refreshSeries().catch((error) => {
        byId('problem').textContent = `Could not load the chart: ${error.message}`;
        byId('problem').hidden = false;
      });
    });
  }
  for (const button of document.querySelectorAll('[data-report]')) button.addEventListener('click', () => download(button.dataset.report));

  refresh().finally(() => {
    timer = setInterval(refresh, refreshMs);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && timer !== null) refresh();
  });
})();
