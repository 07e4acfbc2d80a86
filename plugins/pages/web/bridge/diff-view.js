// Diff: two messages side by side, compared field by field after parsing; the changed fields highlighted on both
// sides, the differences listed, and the ignored fields edited here (kept in the address as `ignore=`).
import { html, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';
import { drafts, loadStandards, MessageInput, StandardSelect, useLoaded } from './choices.js';
import { MessageLayout } from './message-layout.js';

/** The ignored-field patterns of the address (`ignore=MSH.7,MSH.10`). */
export function ignoredOf(query) {
  return (query.get('ignore') ?? '').split(',').map((p) => p.trim()).filter(Boolean);
}

/** The Diff view; `query` holds the standard (`dstandard`) and the ignored fields (`ignore`). */
export function DiffView({ query }) {
  const standards = useLoaded(loadStandards);
  const [left, setLeft] = useState(drafts.left);
  const [right, setRight] = useState(drafts.right);
  const [state, setState] = useState({ result: undefined, error: undefined, busy: false, compared: undefined });
  const ignored = ignoredOf(query);
  const [ignoreText, setIgnoreText] = useState(ignored.join(', '));
  const standard = query.get('dstandard') ?? '';
  const run = async (patterns = ignored) => {
    setState((before) => ({ ...before, busy: true }));
    try {
      const result = await api('/api/diff', {
        method: 'POST',
        body: { leftMessage: left, rightMessage: right, ignoredFields: patterns, ...(standard ? { standard } : {}) },
      });
      setState({ result, error: undefined, busy: false, compared: { left, right } });
    } catch (error) {
      setState({ result: undefined, error, busy: false, compared: undefined });
    }
  };
  const setIgnored = (patterns) => {
    setIgnoreText(patterns.join(', '));
    updateQuery({ ignore: patterns.join(',') });
    if (state.result) run(patterns);
  };
  const result = state.result;
  const differences = result?.differences ?? [];
  const leftMarks = differences.filter((d) => d.changeType !== 'added').map((d) => d.field);
  const rightMarks = differences.filter((d) => d.changeType !== 'removed').map((d) => d.field);
  return html`<section aria-labelledby="diff-heading">
    <h2 id="diff-heading">Compare two messages</h2>
    <form class="form bridge-form" onSubmit=${(event) => {
      event.preventDefault();
      const patterns = ignoreText.split(/[,\n]/).map((p) => p.trim()).filter(Boolean);
      updateQuery({ ignore: patterns.join(',') });
      run(patterns);
    }}>
      <div class="side-by-side">
        <${MessageInput} id="diff-left" label="Left message" value=${left} rows=${8} onInput=${(v) => { drafts.left = v; setLeft(v); }} />
        <${MessageInput} id="diff-right" label="Right message" value=${right} rows=${8} onInput=${(v) => { drafts.right = v; setRight(v); }} />
      </div>
      <div class="filters">
        <${StandardSelect} id="diff-standard" value=${standard} list=${standards} onChange=${(value) => updateQuery({ dstandard: value })} />
        <label for="diff-ignore">Ignored fields (comma separated: MSH.7, MSH.10, OBX[*].14, **.id)
          <input id="diff-ignore" value=${ignoreText} onInput=${(event) => setIgnoreText(event.currentTarget.value)} />
        </label>
      </div>
      <div class="actions"><button type="submit" id="diff-run" disabled=${state.busy}>${state.busy ? 'Comparing…' : 'Compare'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not compare" />
    ${result
      ? html`<div class="panel" id="diff-result">
          <p id="diff-summary"><strong>${result.totalDifferences}</strong> difference(s): ${result.totals?.modified ?? 0} modified, ${result.totals?.added ?? 0} added, ${result.totals?.removed ?? 0} removed${result.truncated ? ' (not all listed)' : ''} · ${result.standard}</p>
          ${result.unmatchedIgnoredFields?.length
            ? html`<p class="problem" role="status">These ignored fields match no path of either message: ${result.unmatchedIgnoredFields.join(', ')}</p>`
            : null}
          <${Table}
            id="differences"
            label="Differences"
            headers=${['Field', 'Change', 'Left', 'Right', '']}
            empty="The messages are the same (after the ignored fields)."
            rows=${differences.map(
              (d) => html`<tr>
                <td><code>${d.field}</code></td>
                <td>${d.changeType}</td>
                <td class="value">${d.leftValue}</td>
                <td class="value">${d.rightValue}</td>
                <td><button type="button" onClick=${() => setIgnored([...ignored, d.field])} aria-label=${`Ignore ${d.field}`}>Ignore</button></td>
              </tr>`,
            )}
          />
          ${ignored.length
            ? html`<p>Ignoring: ${ignored.map((p) => html`<button type="button" class="chip" aria-label=${`Stop ignoring ${p}`} onClick=${() => setIgnored(ignored.filter((x) => x !== p))}>${p} ×</button> `)}</p>`
            : null}
          <div class="side-by-side">
            <div><h3>Left</h3><${MessageLayout} text=${state.compared.left} standard=${result.standard} marks=${leftMarks} /></div>
            <div><h3>Right</h3><${MessageLayout} text=${state.compared.right} standard=${result.standard} marks=${rightMarks} /></div>
          </div>
        </div>`
      : null}
  </section>`;
}
