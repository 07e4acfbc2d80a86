// Alerts, open and past: each with its severity, interface, when it was raised, and for the past ones when (and by
// whom, where the API knows it) it was acknowledged and when it cleared. Filters by state, interface, severity and
// window live in the address. Every alert opens its interface's messages around the time it was raised. The newest
// page is shown first and "Show more" appends the next; the refresh every 15 s reads again as many pages as are shown.
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api, queryString } from '../shared/api.js';
import { formatAgo, formatDuration, formatTime } from '../shared/duration.js';
import { ListCut, Problem, Table } from '../shared/layout.js';
import { useAllPages, usePagedList } from '../shared/paged-lists.js';
import { navigate } from '../shared/router.js';

const SHOWS = { open: 'Open', history: 'Acknowledged or cleared', all: 'All' };
const WINDOWS = [24, 168, 720, 8760];

/** True while an alert is neither cleared nor acknowledged. */
const isOpen = (alert) => alert.clearedAt === null && alert.acknowledgedAt === null;

/** The message list of an alert's interface (a system alert has none) from an hour before it was raised to its clearing (or now). */
function messagesOf(alert) {
  const since = new Date(Date.parse(alert.triggeredAt) - 3_600_000).toISOString();
  return `/messages${queryString({ interfaceId: alert.interfaceId, since, until: alert.clearedAt ?? '' })}`;
}

function who(alert) {
  return alert.acknowledgedBy ? ` by ${alert.acknowledgedBy}` : '';
}

/** The alerts view: `?show=open|history|all&interfaceId=&severity=&sinceHours=`. */
export function Alerts({ route }) {
  const show = SHOWS[route.query.get('show')] ? route.query.get('show') : 'open';
  const filters = {
    interfaceId: route.query.get('interfaceId') ?? '',
    severity: route.query.get('severity') ?? '',
    sinceHours: route.query.get('sinceHours') ?? '168',
  };
  const list = usePagedList(`/api/monitor/alerts${queryString(filters)}`, { refreshMs: 15_000 });
  // another state shown: read the alerts again, they may have been acknowledged or cleared meanwhile
  useEffect(() => list.reload(), [show]);
  const interfaces = useAllPages('/api/monitor/interfaces');
  const [problem, setProblem] = useState(null);
  const go = (changes) => navigate(`/alerts${queryString({ show, ...filters, ...changes })}`, { replace: true });
  const acknowledge = async (id) => {
    try {
      await api(`/api/monitor/alerts/${encodeURIComponent(id)}/acknowledge`, { method: 'POST' });
      setProblem(null);
      list.reload();
    } catch (failure) {
      setProblem(failure);
    }
  };
  const all = list.data ?? [];
  const shown = all.filter((alert) => (show === 'open' ? isOpen(alert) : show === 'history' ? !isOpen(alert) : true));
  const rows = shown.map(
    (alert) => html`<tr key=${alert.id} data-alert-id=${alert.id}>
      <td title=${formatTime(alert.triggeredAt)}>${formatAgo(alert.triggeredAt)}</td>
      <td class=${`severity-${alert.severity}`}>${alert.severity}</td>
      <td>${alert.interfaceId
        ? html`<a href=${messagesOf(alert)} aria-label=${`Messages of ${alert.interfaceName} around this alert`}>${alert.interfaceName}</a>`
        : html`<span class="muted">the service</span>`}</td>
      <td>${alert.title}<br /><span class="muted">${alert.message}</span></td>
      <td class="acknowledged">${alert.acknowledgedAt
        ? html`${formatTime(alert.acknowledgedAt)}${who(alert)}`
        : alert.clearedAt
          ? '–'
          : html`<button type="button" data-acknowledge=${alert.id} onClick=${() => acknowledge(alert.id)}>Acknowledge</button>`}</td>
      <td class="cleared">${alert.clearedAt
        ? html`${formatTime(alert.clearedAt)}<br /><span class="muted">by its rule, after ${formatDuration(Date.parse(alert.clearedAt) - Date.parse(alert.triggeredAt))}</span>`
        : html`<span class="muted">still open</span>`}</td>
    </tr>`,
  );
  return html`
    <div class="filters" role="group" aria-label="Filter alerts">
      <div class="ranges" role="group" aria-label="Which alerts">
        ${Object.entries(SHOWS).map(([name, label]) => html`<button type="button" data-show=${name} aria-pressed=${String(show === name)} onClick=${() => go({ show: name })}>${label}</button>`)}
      </div>
      <label>Interface
        <select value=${filters.interfaceId} onChange=${(event) => go({ interfaceId: event.currentTarget.value })}>
          <option value="">every interface</option>
          ${(interfaces.data ?? []).map((i) => html`<option value=${i.id}>${i.name}</option>`)}
        </select>
      </label>
      <label>Severity
        <select value=${filters.severity} onChange=${(event) => go({ severity: event.currentTarget.value })}>
          <option value="">any</option><option value="critical">critical</option><option value="warning">warning</option>
        </select>
      </label>
      <label>Raised in the last
        <select value=${filters.sinceHours} onChange=${(event) => go({ sinceHours: event.currentTarget.value })}>
          ${WINDOWS.map((hours) => html`<option value=${String(hours)}>${formatDuration(hours * 3_600_000)}</option>`)}
        </select>
      </label>
    </div>
    <${ListCut} cut=${interfaces.cut} count=${(interfaces.data ?? []).length} what="interfaces in the picker" />
    <${Problem} error=${list.error || problem} />
    <${Table} id="alert-list" label="Alerts" headers=${['Raised', 'Severity', 'Interface', 'Alert', 'Acknowledged', 'Cleared']} rows=${rows} empty=${list.loading ? 'Loading…' : list.hasMore ? 'None of the alerts read so far matches: show more.' : 'No alert matches.'} />
    <p class="actions" aria-live="polite">
      <span class="muted" id="alert-count">${all.length} alert${all.length === 1 ? '' : 's'} read${list.hasMore ? ', older ones follow' : ''}.</span>
      ${list.hasMore ? html` <button type="button" id="alert-more" disabled=${list.loadingMore} onClick=${list.more}>${list.loadingMore ? 'Loading…' : 'Show more'}</button>` : null}
    </p>
  `;
}
