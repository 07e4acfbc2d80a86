// Tracing: a patient's (or an account's, or a control id's) messages across interfaces in time order, with the gaps
// the defined sequences find (a step missing, late, out of order) marked in the timeline; each event opens its
// message. Below, the latency between two interfaces and the sequences, defined and observed.
import { html, useState } from '../vendor/preact-htm.js';
import { queryString, useApi } from '../shared/api.js';
import { formatDuration, formatTime } from '../shared/duration.js';
import { ListCut, Problem, Table } from '../shared/layout.js';
import { useAllPages } from '../shared/paged-lists.js';
import { navigate } from '../shared/router.js';

const KEYS = [
  ['patientId', 'patient_id', 'Patient id (MRN)'],
  ['accountNumber', 'account_number', 'Account'],
  ['controlId', 'control_id', 'Control id'],
];

const GAP_WORDS = { missing: 'missing step', late: 'late', 'out-of-order': 'out of order', 'sequence-number': 'sequence numbers missing', 'duplicate-control-id': 'duplicate control id' };

function gapAmount(gap) {
  if (gap.amount === null) return '';
  if (gap.kind === 'late') return ` by ${formatDuration(gap.amount)}`;
  if (gap.kind === 'out-of-order') return ` (${formatDuration(gap.amount)} early)`;
  if (gap.kind === 'sequence-number') return ` (${gap.amount} numbers)`;
  return '';
}

/** The timeline: events in order, with each gap placed after the last message it saw (or at the start). */
function Timeline({ trace }) {
  const after = new Map();
  const unplaced = [];
  for (const gap of trace.gaps) {
    // a missing step belongs after the step before it, the first message it saw; a late one after the late message
    const anchor = gap.kind === 'missing' ? gap.seen[0] : gap.seen.at(-1);
    if (anchor) after.set(anchor.messageId, [...(after.get(anchor.messageId) ?? []), gap]);
    else unplaced.push(gap);
  }
  const lateIds = new Set(trace.gaps.filter((gap) => gap.kind === 'late' || gap.kind === 'out-of-order').map((gap) => gap.seen.at(-1)?.messageId));
  const gapItem = (gap) => html`<li class=${`gap gap-${gap.kind}`} data-gap=${gap.kind}>
    <span class="badge bad">${GAP_WORDS[gap.kind] ?? gap.kind}${gapAmount(gap)}</span> ${gap.expected}
    ${gap.sequenceName ? html` <span class="muted">(sequence ${gap.sequenceName}${gap.stepIndex !== null ? `, step ${gap.stepIndex + 1}` : ''})</span>` : null}
  </li>`;
  let previous = null;
  return html`<ol class="timeline" id="timeline">
    ${unplaced.map(gapItem)}
    ${trace.events.map((event) => {
      const sincePrevious = previous === null ? null : Date.parse(event.timestamp) - Date.parse(previous.timestamp);
      previous = event;
      return html`<li key=${event.messageId} class=${lateIds.has(event.messageId) ? 'late' : ''} data-message-id=${event.messageId}>
          <a href=${`/messages/${encodeURIComponent(event.messageId)}`}><strong>${event.messageType}</strong> on ${event.interface}</a>
          <span class=${`badge ${event.status === 'valid' ? '' : 'bad'}`}>${event.status}</span>
          <span class="muted"> ${formatTime(event.timestamp)}${sincePrevious !== null ? ` · ${formatDuration(sincePrevious)} after the one before` : ''}${event.controlId ? ` · control id ${event.controlId}` : ''}</span>
        </li>${(after.get(event.messageId) ?? []).map(gapItem)}`;
    })}
  </ol>`;
}

function Trace({ search }) {
  const query = Object.fromEntries(KEYS.filter(([name]) => search[name]).map(([name, apiName]) => [apiName, search[name]]));
  const trace = useApi(Object.keys(query).length > 0 ? `/api/monitor/traces${queryString({ ...query, limit: 500 })}` : null);
  if (Object.keys(query).length === 0) return html`<p class="muted">Give a patient id, an account or a control id.</p>`;
  if (trace.error) return html`<${Problem} error=${trace.error} />`;
  if (!trace.data) return html`<p class="muted">Loading…</p>`;
  const { events, gaps, totalSpanMs, truncated } = trace.data;
  return html`
    <p id="trace-summary">${events.length} message${events.length === 1 ? '' : 's'} across ${new Set(events.map((e) => e.interfaceId)).size} interface(s) over ${formatDuration(totalSpanMs)};${' '}${gaps.length === 0 ? 'no gap.' : html`<strong>${gaps.length} gap${gaps.length === 1 ? '' : 's'}</strong>.`}${truncated ? ' (The first 500 messages only.)' : ''}</p>
    ${events.length === 0 ? html`<p class="muted">No stored message matches.</p>` : html`<${Timeline} trace=${trace.data} />`}
  `;
}

function Latency({ search, interfaces, cut }) {
  const from = search.from ?? '';
  const to = search.to ?? '';
  const latency = useApi(from && to ? `/api/monitor/latency${queryString({ from_interface: from, to_interface: to })}` : null);
  const pick = (name) => (event) => navigate(`/tracing${queryString({ ...search, [name]: event.currentTarget.value })}`, { replace: true });
  const options = (interfaces ?? []).map((i) => html`<option value=${i.id}>${i.name}</option>`);
  const data = latency.data;
  return html`
    <div class="filters">
      <label>From<select value=${from} onChange=${pick('from')}><option value="">choose</option>${options}</select></label>
      <label>To<select value=${to} onChange=${pick('to')}><option value="">choose</option>${options}</select></label>
    </div>
    <${ListCut} cut=${cut} count=${(interfaces ?? []).length} what="interfaces" />
    <${Problem} error=${latency.error} />
    ${data
      ? html`<p id="latency">${data.count} message${data.count === 1 ? '' : 's'} paired in the last day: median ${formatDuration(data.p50Ms)}, p95 ${formatDuration(data.p95Ms)},
          p99 ${formatDuration(data.p99Ms)}, longest ${formatDuration(data.maxMs)}; unpaired ${data.unmatched.source} sent and ${data.unmatched.destination} received.</p>`
      : null}
  `;
}

function Sequences() {
  const sequences = useApi('/api/monitor/sequences');
  const data = sequences.data;
  const defined = (data?.defined ?? []).map((s) => html`<tr><td>${s.name}</td><td><code>${s.sequence}</code></td><td>${s.alert ? 'alerts' : '–'}</td><td>${s.source}</td></tr>`);
  const observed = (data?.observed ?? []).map((s) => html`<tr><td><code>${s.sequence}</code></td><td class="num">${s.patients}</td></tr>`);
  return html`
    <${Problem} error=${sequences.error} />
    <${Table} id="defined-sequences" label="Defined sequences" headers=${['Name', 'Sequence', 'Alert', 'Defined in']} rows=${defined} empty="No sequence is defined." />
    <h3>Observed most often</h3>
    <${Table} id="observed-sequences" label="Observed sequences" headers=${['Sequence', 'Patients']} rows=${observed} empty="None observed in the window." />
  `;
}

/** The tracing view: `?patientId=|accountNumber=|controlId=` and `from=&to=` for the latency. */
export function Tracing({ route }) {
  const search = Object.fromEntries([...route.query.entries()]);
  const [draft, setDraft] = useState(Object.fromEntries(KEYS.map(([name]) => [name, search[name] ?? ''])));
  const interfaces = useAllPages('/api/monitor/interfaces');
  const submit = (event) => {
    event.preventDefault();
    navigate(`/tracing${queryString({ ...draft, from: search.from, to: search.to })}`);
  };
  return html`
    <form class="filters" role="search" aria-label="Find a trace" onSubmit=${submit}>
      ${KEYS.map(([name, , label]) => html`<label>${label}<input name=${name} value=${draft[name]} onInput=${(event) => setDraft({ ...draft, [name]: event.currentTarget.value })} /></label>`)}
      <div class="actions"><button type="submit">Trace</button></div>
    </form>
    <section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2><${Trace} search=${search} /></section>
    <section aria-labelledby="latency-title"><h2 id="latency-title">Latency between two interfaces</h2><${Latency} search=${search} interfaces=${interfaces.data} cut=${interfaces.cut} /></section>
    <section aria-labelledby="sequences-title"><h2 id="sequences-title">Sequences</h2><${Sequences} /></section>
  `;
}
