// Validate: a message pasted, dropped or opened from a file (or handed over from the monitor in the address's
// fragment), validated with the mode, profile and version chosen here; the findings listed and highlighted in the
// message, each field naming itself on hover and focus.
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';
import { drafts, loadProfiles, loadStandards, MessageInput, Select, StandardSelect, useLoaded, VersionSelect } from './choices.js';
import { FindingList, MessageLayout } from './message-layout.js';

/** Validates `text` with the options; the answer of POST /api/validate. */
export function validateMessage(text, { standard, mode, profile, version }) {
  return api('/api/validate', {
    method: 'POST',
    // positions: each finding's place in the text, highlighted there whatever the format
    body: { messageContent: text, mode: mode || 'strict', positions: true, ...(standard ? { standard } : {}), ...(profile ? { profile } : {}), ...(version ? { version } : {}) },
  });
}

function Verdict({ result, standards }) {
  const name = standards?.find((s) => s.id === result.standard)?.displayName ?? result.standard;
  const summary = result.summary ?? {};
  const version = summary.validatedAgainst ?? summary.version;
  return html`<p class="verdict" id="verdict">
    <span class=${`badge ${result.isValid ? '' : 'bad'}`}>${result.isValid ? 'Valid' : 'Invalid'}</span>
    ${' '}Detected standard: <strong id="detected-standard">${name}</strong>${version ? ` ${version}` : ''}${summary.messageType ? ` · ${summary.messageType}` : ''}
    · ${result.totals?.errors ?? result.errors.length} error(s), ${result.totals?.warnings ?? result.warnings.length} warning(s)${result.truncated ? ' (not all listed)' : ''}
  </p>`;
}

/** The Validate view; `query` holds the options (standard, mode, profile, version), `handover` a message to validate at once. */
export function ValidateView({ query, handover }) {
  const standards = useLoaded(loadStandards);
  const profiles = useLoaded(loadProfiles);
  const [text, setText] = useState(drafts.validate);
  const [state, setState] = useState({ result: undefined, error: undefined, busy: false, validated: '' });
  const options = { standard: query.get('standard') ?? '', mode: query.get('mode') ?? 'strict', profile: query.get('profile') ?? '', version: query.get('version') ?? '' };
  const edit = (value) => {
    drafts.validate = value;
    setText(value);
  };
  const run = async (content = text, chosen = options) => {
    if (!content.trim()) {
      setState({ result: undefined, error: { message: 'Paste, drop or open a message first.' }, busy: false, validated: '' });
      return;
    }
    setState((before) => ({ ...before, busy: true }));
    try {
      setState({ result: await validateMessage(content, chosen), error: undefined, busy: false, validated: content });
    } catch (error) {
      setState({ result: undefined, error, busy: false, validated: '' });
    }
  };
  useEffect(() => {
    if (handover?.message) {
      edit(handover.message);
      run(handover.message, { ...options, standard: options.standard || handover.standard || '' });
    }
  }, [handover]);
  const result = state.result;
  const findings = result ? [...result.errors, ...result.warnings] : [];
  const shownStandard = result?.standard ?? options.standard;
  const profileChoices = (profiles ?? []).filter((p) => !shownStandard || p.standard === shownStandard).map((p) => [p.name, `${p.name} (${p.standard}${p.version ? ` ${p.version}` : ''})`]);
  const lookupVersion = result?.standard === 'hl7' ? (result.summary?.validatedAgainst ?? result.summary?.version) : undefined;
  return html`<section aria-labelledby="validate-heading">
    <h2 id="validate-heading">Validate a message</h2>
    <form class="form bridge-form" onSubmit=${(event) => {
      event.preventDefault();
      run();
    }}>
      <${MessageInput} id="validate-message" label="Message (HL7 v2, FHIR JSON or XML, NCPDP)" value=${text} onInput=${edit} />
      <div class="filters">
        <${StandardSelect} id="validate-standard" value=${options.standard} list=${standards} onChange=${(standard) => updateQuery({ standard, version: '', profile: '' })} />
        <${Select} id="validate-mode" label="Mode" value=${options.mode} options=${[['strict', 'Strict'], ['compatibility', 'Compatibility']]} onChange=${(mode) => updateQuery({ mode: mode === 'strict' ? '' : mode })} />
        <${VersionSelect} id="validate-version" standard=${options.standard} value=${options.version} list=${standards} onChange=${(version) => updateQuery({ version })} />
        <${Select} id="validate-profile" label="Profile" value=${options.profile} options=${[['', 'None'], ...profileChoices]} onChange=${(profile) => updateQuery({ profile })} />
      </div>
      <div class="actions"><button type="submit" id="validate-run" disabled=${state.busy}>${state.busy ? 'Validating…' : 'Validate'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not validate" />
    ${result
      ? html`<div class="panel" id="validation-result">
          <${Verdict} result=${result} standards=${standards} />
          ${result.messages?.length > 1
            ? html`<${Table}
                id="message-results"
                label="Messages of the content"
                headers=${['#', 'Type', 'Control id', 'Verdict', 'Errors', 'Warnings']}
                empty=""
                rows=${result.messages.map(
                  (m) => html`<tr><td class="num">${m.index + 1}</td><td>${m.messageType ?? ''}</td><td>${m.controlId ?? ''}</td><td>${m.isValid ? 'valid' : 'invalid'}</td><td class="num">${m.errors.length}</td><td class="num">${m.warnings.length}</td></tr>`,
                )}
              />`
            : null}
          <h3>Findings</h3>
          <${FindingList} findings=${findings} standard=${result.standard} version=${lookupVersion} />
          <h3>The message</h3>
          <p class="muted">Point at or tab to a field for its name, type and table; findings are highlighted.</p>
          <${MessageLayout} text=${state.validated} standard=${result.standard} marks=${findings.map((f) => f.field)} findings=${findings} version=${lookupVersion} />
        </div>`
      : null}
  </section>`;
}
