// One message: its facts, its raw text laid out by its standard (HL7 by segment, FHIR and SCRIPT as a tree, D.0 by
// segment and field) with every part describing itself and the findings marked in place, the findings listed, the
// file it came from, its patient's trace, triage's explanation on request, a de-identified copy (copy, download, and
// a masked view for screen sharing) and "open in the bridge" to edit and validate it again.
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { api, queryString, useApi } from '../shared/api.js';
import { formatDuration, formatTime } from '../shared/duration.js';
import { FindingDetail } from '../shared/finding-detail.js';
import { bridgeHandoverLink } from '../shared/handover.js';
import { Problem } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';
import { Hl7Raw } from './raw-hl7.js';
import { NcpdpRaw } from '../shared/raw-ncpdp.js';
import { TreeRaw } from '../shared/raw-tree.js';

const FILE_EXTENSIONS = { hl7: 'hl7', fhir: 'json', ncpdp: 'txt' };

/** The raw text as its standard lays it out. */
function RawText({ raw, standard, findings, version }) {
  const text = raw.trim();
  if (standard === 'hl7') return html`<${Hl7Raw} raw=${raw} findings=${findings} version=${version} />`;
  if (text.startsWith('{') || text.startsWith('<')) return html`<${TreeRaw} raw=${raw} findings=${findings} standard=${standard} version=${standard === 'fhir' ? undefined : version} />`;
  if (standard === 'ncpdp') return html`<${NcpdpRaw} raw=${raw} findings=${findings} version=${version} />`;
  return html`<pre class="raw" id="raw">${raw}</pre>`;
}

function Facts({ message }) {
  const rows = [
    ['Interface', message.interfaceName ? html`<a href=${`/messages${queryString({ interfaceId: message.interfaceId })}`}>${message.interfaceName}</a>` : 'deleted'],
    ['Status', html`<span class=${`status-${message.status}`}>${message.status}</span> (${message.errorCount} errors, ${message.warningCount} warnings)`],
    ['Standard', `${message.standard}${message.version ? ` ${message.version}` : ''}`],
    ['Type', message.messageType ?? '–'],
    ['Control id', message.controlId ?? '–'],
    ['Patient', message.patientId ? html`<a href=${`/tracing${queryString({ patientId: message.patientId })}`}>${message.patientId}</a> (its trace)` : '–'],
    ['Account', message.accountNumber ? html`<a href=${`/tracing${queryString({ accountNumber: message.accountNumber })}`}>${message.accountNumber}</a>` : '–'],
    ['Sender', [message.sendingApplication, message.sendingFacility].filter(Boolean).join(' / ') || '–'],
    ['Receiver', [message.receivingApplication, message.receivingFacility].filter(Boolean).join(' / ') || '–'],
    ['Message time', formatTime(message.messageTime)],
    ['Received', formatTime(message.receivedAt)],
    ['Latency', message.latencyMs === null ? '–' : formatDuration(message.latencyMs)],
  ];
  return html`<dl class="facts">${rows.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>`;
}

function FileFacts({ file }) {
  if (!file) return html`<p class="muted">The file it came from is not known.</p>`;
  return html`<p id="file-facts"><code>${file.path}</code> · ${file.size.toLocaleString('en')} bytes · modified ${formatTime(file.modifiedAt)}
    ${file.messagesInFile > 1 ? html` · message ${file.indexInFile + 1} of ${file.messagesInFile} in the file (<a href=${`/messages${queryString({ fileName: file.name })}`}>all of them</a>)` : ''}</p>`;
}

function Findings({ findings }) {
  if (findings.length === 0) return html`<p class="muted">No findings: the message is valid.</p>`;
  const focus = (path) => {
    const part = document.querySelector(`#raw .field.marked[data-path="${CSS.escape(path)}"]`) ?? document.querySelector('#raw .field.marked');
    part?.focus();
  };
  return html`<ul class="findings" id="findings">
    ${findings.map(
      (f) => html`<li>
        <span class=${`severity-${f.severity}`}>${f.severity}</span> <code>${f.code}</code> at${' '}<button type="button" class="link" onClick=${() => focus(f.path)} title="Show it in the text">${f.path || 'the message'}</button>: ${f.message}<${FindingDetail} finding=${f} />
      </li>`,
    )}
  </ul>`;
}

function Triage({ raw, findings }) {
  const [state, setState] = useState({});
  const explain = async () => {
    setState({ loading: true });
    try {
      const validationErrors = findings.filter((f) => f.severity === 'error').map((f) => `${f.path} ${f.code} ${f.message}`.slice(0, 2000));
      setState({ result: await api('/api/monitor/triage', { method: 'POST', body: { messageContent: raw, ...(validationErrors.length ? { validationErrors } : {}) } }) });
    } catch (error) {
      setState({ error });
    }
  };
  const { result } = state;
  return html`<div>
    <button type="button" id="explain" onClick=${explain} disabled=${state.loading}>${state.loading ? 'Explaining…' : 'Explain why it failed'}</button>
    <${Problem} error=${state.error} prefix="No explanation" />
    ${result
      ? html`<div class="panel" id="triage" aria-live="polite">
          <p><strong>${result.rootCause}</strong> <span class="muted">(${result.category}, confidence ${Math.round(result.confidence * 100)} %)</span></p>
          <p>${result.explanation}</p>
          ${result.suggestedFixes.length > 0 ? html`<ol>${result.suggestedFixes.map((fix) => html`<li>${fix.side}: <code>${fix.field}</code> ${fix.action}</li>`)}</ol>` : null}
        </div>`
      : null}
  </div>`;
}

/** The de-identified copy of the text: asked of the API once, when first wanted (masked view, copy, download). */
function useDeidentified(raw, standard, masked) {
  const asked = useRef(null);
  const [state, setState] = useState({});
  const get = () => {
    if (!asked.current) {
      setState({ loading: true });
      asked.current = api('/api/deidentify', { method: 'POST', body: { messageContent: raw, standard } }).then(
        (result) => {
          setState({ text: result.messageContent });
          return result.messageContent;
        },
        (error) => {
          asked.current = null;
          setState({ error });
          throw error;
        },
      );
    }
    return asked.current;
  };
  useEffect(() => {
    if (masked && raw) get().catch(() => undefined);
  }, [masked, raw]);
  return { ...state, get };
}

function download(text, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The message view. */
export function MessageView({ route, id }) {
  const view = useApi(`/api/monitor/messages/${encodeURIComponent(id)}`);
  const masked = route.query.get('view') === 'masked';
  const [copied, setCopied] = useState('');
  const data = view.data;
  const deidentified = useDeidentified(data?.raw, data?.message.standard, masked);
  if (view.error) return html`<${Problem} error=${view.error} />`;
  if (!data) return html`<p class="muted">Loading…</p>`;
  const { message, raw, findings, file } = data;
  const name = `${(message.controlId ?? message.id).replace(/[^\w.-]+/g, '_')}-deidentified.${FILE_EXTENSIONS[message.standard] ?? 'txt'}`;
  const copy = async () => {
    try {
      const text = await deidentified.get();
      await navigator.clipboard.writeText(text);
      setCopied('Copied the de-identified text.');
    } catch (error) {
      setCopied(error.code ? '' : 'The browser refused the clipboard; use Download.');
    }
  };
  const save = () => deidentified.get().then((text) => download(text, name), () => undefined);
  return html`
    <p class="muted">Message <code>${message.id}</code> · <a href=${`/messages${queryString({ interfaceId: message.interfaceId })}`}>back to its interface's messages</a></p>
    <${Facts} message=${message} />
    <h2>Findings</h2>
    <${Findings} findings=${findings} />
    <h2 id="raw-title">Raw text ${masked ? '(masked: de-identified)' : ''}</h2>
    <div class="actions" role="group" aria-label="Actions on the message">
      <button type="button" id="masked-switch" aria-pressed=${String(masked)} onClick=${() => updateQuery({ view: masked ? '' : 'masked' })}>Masked view</button>
      ${raw !== null
        ? html`<a id="open-in-bridge" href=${bridgeHandoverLink(raw, { standard: message.standard })} target="_blank" rel="noopener">Open in the bridge</a>
            <button type="button" id="copy-deidentified" onClick=${copy}>Copy de-identified</button>
            <button type="button" id="download-deidentified" onClick=${save}>Download de-identified</button>
            ${deidentified.loading ? html`<span class="muted">De-identifying…</span>` : null}
            <span class="muted" aria-live="polite">${copied}</span>`
        : null}
    </div>
    <${Problem} error=${deidentified.error} prefix="Could not de-identify" />
    ${raw === null
      ? html`<p class="muted" id="raw-note">${data.rawNote ?? 'The raw text is not available.'} (${data.rawState})</p>`
      : masked
        ? deidentified.text
          ? html`<${RawText} raw=${deidentified.text} standard=${message.standard} findings=${[]} version=${message.version} />`
          : html`<p class="muted">De-identifying…</p>`
        : html`<${RawText} raw=${raw} standard=${message.standard} findings=${findings} version=${message.version} />`}
    <h2>File</h2>
    <${FileFacts} file=${file} />
    ${raw !== null && message.status === 'failed' ? html`<h2>Why it failed</h2><${Triage} raw=${raw} findings=${findings} />` : null}
  `;
}
