// De-identify: a message with every HIPAA Safe Harbor identifier replaced (POST /api/deidentify), and the report of
// what was replaced where (kinds and counts, never the values).
import { html, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';
import { drafts, loadStandards, MessageInput, StandardSelect, useLoaded } from './choices.js';

/** The De-identify view; `query` holds the standard (`istandard`). */
export function DeidentifyView({ query }) {
  const standards = useLoaded(loadStandards);
  const [text, setText] = useState(drafts.deidentify);
  const [state, setState] = useState({ result: undefined, error: undefined, busy: false });
  const standard = query.get('istandard') ?? '';
  const run = async () => {
    setState((before) => ({ ...before, busy: true }));
    try {
      const result = await api('/api/deidentify', { method: 'POST', body: { messageContent: text, ...(standard ? { standard } : {}) } });
      setState({ result, error: undefined, busy: false });
    } catch (error) {
      setState({ result: undefined, error, busy: false });
    }
  };
  const result = state.result;
  return html`<section aria-labelledby="deidentify-heading">
    <h2 id="deidentify-heading">De-identify a message</h2>
    <form class="form bridge-form" onSubmit=${(event) => {
      event.preventDefault();
      run();
    }}>
      <${MessageInput} id="deidentify-message" label="Message" value=${text} onInput=${(v) => { drafts.deidentify = v; setText(v); }} />
      <div class="filters"><${StandardSelect} id="deidentify-standard" value=${standard} list=${standards} onChange=${(value) => updateQuery({ istandard: value })} /></div>
      <div class="actions"><button type="submit" id="deidentify-run" disabled=${state.busy}>${state.busy ? 'Working…' : 'De-identify'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not de-identify" />
    ${result
      ? html`<div class="panel" id="deidentified">
          <p>${result.report.total} identifier(s) replaced (${result.standard}).</p>
          <label for="deidentified-text">De-identified message</label>
          <textarea id="deidentified-text" rows="10" readonly spellcheck="false" value=${result.messageContent.replace(/\r/g, '\n')}></textarea>
          <${Table}
            id="replacements"
            label="Replacements"
            headers=${['Path', 'Kind', 'Count']}
            empty="Nothing to replace."
            rows=${result.report.replacements.map((r) => html`<tr><td><code>${r.path}</code></td><td>${r.kind}</td><td class="num">${r.count}</td></tr>`)}
          />
          ${result.report.notes.length ? html`<ul>${result.report.notes.map((note) => html`<li>${note}</li>`)}</ul>` : null}
        </div>`
      : null}
  </section>`;
}
