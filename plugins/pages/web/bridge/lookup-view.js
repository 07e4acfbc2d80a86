// Field lookup: what a path means (`PID.5`, `Patient.birthDate`, `AM07.D2`, a SCRIPT path) from GET /api/lookup,
// with its table or value set codes and what it holds; the path, standard and version live in the address, and each
// child is a link to its own lookup.
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { queryString, useApi } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';
import { loadStandards, StandardSelect, useLoaded } from './choices.js';

function Facts({ found }) {
  const rows = [
    ['Name', found.name],
    ['Standard', `${found.standard}${found.version ? ` ${found.version}` : ''}`],
    ['Data type', found.dataType],
    ['Optionality', found.optionality],
    ['Cardinality', found.cardinality],
    ['Length', found.maxLength],
    ['Repeats', found.repeatable === undefined ? undefined : found.repeatable ? 'yes' : 'no'],
    ['Table or value set', [found.table, found.tableName].filter(Boolean).join(' · ') || undefined],
    ['About', found.description],
  ].filter(([, value]) => value !== undefined && value !== '');
  return html`<dl class="facts" id="lookup-facts">${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** The Lookup view; `query` holds `path`, `lstandard` and `lversion`. */
export function LookupView({ query }) {
  const standards = useLoaded(loadStandards);
  const path = query.get('path') ?? '';
  const standard = query.get('lstandard') ?? '';
  const version = query.get('lversion') ?? '';
  const [draft, setDraft] = useState({ path, version });
  // a child's link or the back button changes the address: the form follows it
  useEffect(() => setDraft({ path, version }), [path, version]);
  // a path the definitions lack is an answer to show (found: false), not a failed request
  const { data: answer, error, loading } = useApi(path ? `/api/lookup${queryString({ path, standard, version, maxCodes: 100, missing: 'answer' })}` : null);
  const found = answer?.found ? answer : undefined;
  const childLink = (childPath) => `/${queryString({ tab: 'lookup', path: childPath, lstandard: found?.standard, lversion: version })}`;
  return html`<section aria-labelledby="lookup-heading">
    <h2 id="lookup-heading">Look up a field</h2>
    <form class="form bridge-form" onSubmit=${(event) => {
      event.preventDefault();
      updateQuery({ path: draft.path.trim(), lversion: draft.version.trim() }, { replace: false });
    }}>
      <div class="filters">
        <label for="lookup-path">Path (PID.5, Patient.birthDate, AM07.D2, NewRx.Patient.HumanPatient.Gender)
          <input id="lookup-path" value=${draft.path} required onInput=${(e) => setDraft({ ...draft, path: e.currentTarget.value })} />
        </label>
        <${StandardSelect} id="lookup-standard" label="Standard" value=${standard} list=${standards} onChange=${(value) => updateQuery({ lstandard: value })} />
        <label for="lookup-version">Version (empty: the default)
          <input id="lookup-version" value=${draft.version} placeholder="2.5.1" onInput=${(e) => setDraft({ ...draft, version: e.currentTarget.value })} />
        </label>
      </div>
      <div class="actions"><button type="submit" id="lookup-run">Look up</button></div>
    </form>
    ${loading ? html`<p class="loading">Looking up…</p>` : null}
    <${Problem} error=${path ? error : undefined} prefix="No answer" />
    ${path && answer?.found === false && !error ? html`<p class="problem" role="status" id="lookup-missing">No answer: ${answer.message}</p>` : null}
    ${found && !error
      ? html`<div class="panel" id="lookup-result">
          <h3><code>${found.path}</code> ${found.name}</h3>
          <${Facts} found=${found} />
          ${found.codesNote ? html`<p class="muted">${found.codesNote}</p>` : null}
          ${found.codes?.length
            ? html`<h4>Codes (${found.codes.length} of ${found.codeTotal})</h4>
                <${Table} id="lookup-codes" label="Codes" headers=${['Code', 'Meaning', 'System']} empty="" rows=${found.codes.map((c) => html`<tr><td><code>${c.code}</code></td><td>${c.display ?? ''}</td><td>${c.system ?? ''}</td></tr>`)} />`
            : null}
          ${found.children?.length
            ? html`<h4>Holds (${found.children.length})</h4>
                <${Table} id="lookup-children" label="What it holds" headers=${['Path', 'Name', 'Type', 'Optionality']} empty="" rows=${found.children.map(
                  (c) => html`<tr><td><a href=${childLink(c.path)}>${c.path}</a></td><td>${c.name}</td><td>${c.dataType ?? ''}</td><td>${c.optionality ?? ''}</td></tr>`,
                )} />`
            : null}
        </div>`
      : null}
  </section>`;
}
