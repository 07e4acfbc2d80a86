// The message browser: stored messages filtered by interface, status, type, error code, patient, account, control
// id, file name, words of the raw text and time, every filter in the address (so a list can be linked and reloaded).
// Pages follow the API's cursor; each row opens its message.
import { html, useState } from '../vendor/preact-htm.js';
import { queryString, useApi } from '../shared/api.js';
import { formatAgo, formatTime } from '../shared/duration.js';
import { ListCut, Problem, Table } from '../shared/layout.js';
import { useAllPages } from '../shared/paged-lists.js';
import { navigate } from '../shared/router.js';

/** The filters of the list, as the API and the address name them. */
export const MESSAGE_FILTERS = ['interfaceId', 'status', 'messageType', 'errorCode', 'patientId', 'accountNumber', 'controlId', 'fileName', 'q', 'since', 'until'];

const TEXT_FILTERS = [
  ['messageType', 'Message type', 'ADT^A01'],
  ['errorCode', 'Error code', 'REQUIRED_FIELD_MISSING'],
  ['patientId', 'Patient id (MRN)', ''],
  ['accountNumber', 'Account', ''],
  ['controlId', 'Control id', ''],
  ['fileName', 'File name', '*.hl7'],
  ['q', 'Words of the raw text', ''],
];

/** The filters of an address's query, as an object (empty ones left out). */
function filtersOf(query) {
  return Object.fromEntries(MESSAGE_FILTERS.filter((name) => query.get(name)).map((name) => [name, query.get(name)]));
}

/** A datetime-local input's value for an ISO time, and back (the reader's own time zone). */
const toLocalInput = (iso) => {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value) => (value ? new Date(value).toISOString() : '');

function Filters({ filters, interfaces }) {
  const [draft, setDraft] = useState(filters);
  const set = (name) => (event) => setDraft({ ...draft, [name]: event.currentTarget.value });
  const submit = (event) => {
    event.preventDefault();
    navigate(`/messages${queryString(draft)}`);
  };
  return html`<form class="filters" role="search" aria-label="Filter messages" onSubmit=${submit}>
    <label>Interface
      <select name="interfaceId" value=${draft.interfaceId ?? ''} onChange=${set('interfaceId')}>
        <option value="">every interface</option>
        ${(interfaces ?? []).map((i) => html`<option value=${i.id}>${i.name}</option>`)}
        ${draft.interfaceId && interfaces && !interfaces.some((i) => i.id === draft.interfaceId) ? html`<option value=${draft.interfaceId}>${draft.interfaceId}</option>` : null}
      </select>
    </label>
    <label>Status
      <select name="status" value=${draft.status ?? ''} onChange=${set('status')}>
        <option value="">any</option><option value="failed">failed</option><option value="valid">valid</option>
      </select>
    </label>
    ${TEXT_FILTERS.map(
      ([name, label, placeholder]) => html`<label>${label}<input name=${name} value=${draft[name] ?? ''} placeholder=${placeholder} onInput=${set(name)} size="14" /></label>`,
    )}
    <label>Received from<input type="datetime-local" name="since" value=${toLocalInput(draft.since)} onInput=${(event) => setDraft({ ...draft, since: fromLocalInput(event.currentTarget.value) })} /></label>
    <label>until<input type="datetime-local" name="until" value=${toLocalInput(draft.until)} onInput=${(event) => setDraft({ ...draft, until: fromLocalInput(event.currentTarget.value) })} /></label>
    <div class="actions"><button type="submit">Show</button> <a href="/messages">Clear</a></div>
  </form>`;
}

function finding(first) {
  if (!first) return html`<span class="muted">–</span>`;
  return html`<span class=${`severity-${first.severity}`}>${first.code}</span> at <code>${first.path || '–'}</code><br /><span class="muted">${first.message}</span>`;
}

/** The message browser view. */
export function Messages({ route }) {
  const filters = filtersOf(route.query);
  const cursor = route.query.get('cursor') ?? '';
  const list = useApi(`/api/monitor/messages${queryString({ ...filters, cursor, limit: 50 })}`);
  const interfaces = useAllPages('/api/monitor/interfaces');
  const items = list.data?.items ?? [];
  const rows = items.map(
    (m) => html`<tr key=${m.id}>
      <td title=${formatTime(m.receivedAt)}><a href=${`/messages/${encodeURIComponent(m.id)}`} aria-label=${`Message ${m.controlId ?? m.id}, received ${formatAgo(m.receivedAt)}`}>${formatAgo(m.receivedAt)}</a></td>
      <td>${m.interfaceName ?? html`<span class="muted">deleted</span>`}</td>
      <td>${m.messageType ?? '–'}</td>
      <td>${m.controlId ? html`<a href=${`/messages/${encodeURIComponent(m.id)}`}>${m.controlId}</a>` : '–'}</td>
      <td>${m.patientId ? html`<a href=${`/tracing${queryString({ patientId: m.patientId })}`} title="The patient's trace">${m.patientId}</a>` : '–'}</td>
      <td class=${`status-${m.status}`}>${m.status}${m.errorCount + m.warningCount > 0 ? html` <span class="muted">(${m.errorCount} errors, ${m.warningCount} warnings)</span>` : ''}</td>
      <td>${finding(m.firstFinding)}</td>
      <td>${m.fileName ?? '–'}</td>
    </tr>`,
  );
  // the form is rebuilt for each address, so it shows the filters of the list below it
  const formKey = MESSAGE_FILTERS.map((name) => filters[name] ?? '').join('|');
  return html`
    <${Filters} key=${formKey} filters=${filters} interfaces=${interfaces.data} />
    <${ListCut} cut=${interfaces.cut} count=${(interfaces.data ?? []).length} what="interfaces" />
    <${Problem} error=${list.error} />
    <p class="muted" aria-live="polite">${list.loading ? 'Loading…' : `${items.length} message${items.length === 1 ? '' : 's'} on this page${cursor ? ' (a later page)' : ''}.`}</p>
    <${Table} id="messages" label="Messages" headers=${['Received', 'Interface', 'Type', 'Control id', 'Patient', 'Status', 'First finding', 'File']} rows=${rows} empty=${list.loading ? 'Loading…' : 'No message matches these filters.'} />
    <p class="actions">
      ${cursor ? html`<a href=${`/messages${queryString(filters)}`}>First page</a>` : null}
      ${list.data?.next ? html`<a href=${`/messages${queryString({ ...filters, cursor: list.data.next })}`} rel="next">Next page</a>` : null}
    </p>
  `;
}
