// Generate: synthetic messages with the generate route's parameters (standard, message type, version, count, seed),
// or patient journeys (scenario, patients, faults); every choice is kept in the address. Each message can be sent
// on to Validate or to either side of Diff.
import { html, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';
import { Problem } from '../shared/layout.js';
import { navigate, updateQuery } from '../shared/router.js';
import { drafts, loadStandards, Select, useLoaded } from './choices.js';

const FAULT_KINDS = ['drop', 'delay', 'duplicate-control-id', 'resend', 'skip-sequence-number'];
const JOURNEY_STEPS = ['ADT^A01', 'ORM^O01', 'ORU^R01', 'ADT^A03'];

/** Faults from the address: `faults=drop:ORM^O01:2;delay:ORU^R01::3600000` (kind:step[:patient][:delayMs]). */
export function faultsOf(text) {
  return (text ?? '')
    .split(';')
    .filter(Boolean)
    .map((item) => {
      const [kind, step, patient, delayMs] = item.split(':');
      return { kind, step, ...(patient ? { patient: Number(patient) } : {}), ...(delayMs ? { delayMs: Number(delayMs) } : {}) };
    });
}

function faultsText(faults) {
  return faults.map((f) => [f.kind, f.step, f.patient ?? '', f.delayMs ?? ''].join(':').replace(/:+$/, '')).join(';');
}

/** The request body the address describes. */
export function generateBody(query) {
  const number = (name) => (query.get(name) ? Number(query.get(name)) : undefined);
  const seed = number('seed');
  if (query.get('scenario')) {
    return {
      scenario: query.get('scenario'),
      patients: number('patients') ?? 1,
      faults: faultsOf(query.get('faults')),
      ...(query.get('start') ? { start: query.get('start') } : {}),
      ...(seed === undefined ? {} : { seed }),
    };
  }
  return {
    ...(query.get('gstandard') ? { standard: query.get('gstandard') } : {}),
    ...(query.get('type') ? { messageType: query.get('type') } : {}),
    ...(query.get('gversion') ? { version: query.get('gversion') } : {}),
    count: number('count') ?? 1,
    ...(seed === undefined ? {} : { seed }),
  };
}

function FaultEditor({ faults, onChange }) {
  const [draft, setDraft] = useState({ kind: 'drop', step: 'ORM^O01', patient: '', delayMs: '' });
  return html`<fieldset class="faults">
    <legend>Faults</legend>
    ${faults.length === 0 ? html`<p class="muted">None: every journey is complete and in order.</p>` : null}
    <ul>
      ${faults.map(
        (f, index) => html`<li>${f.kind} ${f.step}${f.patient ? ` (patient ${f.patient})` : ' (every patient)'}${f.delayMs ? ` by ${f.delayMs} ms` : ''}
          <button type="button" aria-label=${`Remove fault ${index + 1}`} onClick=${() => onChange(faults.filter((_, i) => i !== index))}>Remove</button></li>`,
      )}
    </ul>
    <div class="filters">
      <${Select} id="fault-kind" label="Fault" value=${draft.kind} options=${FAULT_KINDS.map((k) => [k, k])} onChange=${(kind) => setDraft({ ...draft, kind })} />
      <${Select} id="fault-step" label="Step" value=${draft.step} options=${JOURNEY_STEPS.map((s) => [s, s])} onChange=${(step) => setDraft({ ...draft, step })} />
      <label for="fault-patient">Patient (empty: every one)<input id="fault-patient" type="number" min="1" value=${draft.patient} onInput=${(e) => setDraft({ ...draft, patient: e.currentTarget.value })} /></label>
      ${draft.kind === 'delay'
        ? html`<label for="fault-delay">Delay (ms)<input id="fault-delay" type="number" value=${draft.delayMs} onInput=${(e) => setDraft({ ...draft, delayMs: e.currentTarget.value })} /></label>`
        : null}
      <button type="button" id="fault-add" onClick=${() =>
        onChange([...faults, { kind: draft.kind, step: draft.step, ...(draft.patient ? { patient: Number(draft.patient) } : {}), ...(draft.delayMs ? { delayMs: Number(draft.delayMs) } : {}) }])}>Add fault</button>
    </div>
  </fieldset>`;
}

/** The Generate view. */
export function GenerateView({ query }) {
  const standards = useLoaded(loadStandards);
  const [state, setState] = useState({ messages: undefined, error: undefined, busy: false });
  const journey = Boolean(query.get('scenario'));
  const standard = query.get('gstandard') || 'hl7';
  const chosen = standards?.find((s) => s.id === standard);
  const faults = faultsOf(query.get('faults'));
  const run = async () => {
    setState((before) => ({ ...before, busy: true }));
    try {
      setState({ messages: await api('/api/generate', { method: 'POST', body: generateBody(new URLSearchParams(location.search)) }), error: undefined, busy: false });
    } catch (error) {
      setState({ messages: undefined, error, busy: false });
    }
  };
  const sendTo = (target, message) => {
    drafts[target === 'validate' ? 'validate' : target] = message;
    navigate(`/?tab=${target === 'validate' ? 'validate' : 'diff'}`);
  };
  const field = (name, label, attrs = {}) =>
    html`<label for=${`generate-${name}`}>${label}<input id=${`generate-${name}`} type="number" value=${query.get(name) ?? ''} ...${attrs} onChange=${(e) => updateQuery({ [name]: e.currentTarget.value })} /></label>`;
  return html`<section aria-labelledby="generate-heading">
    <h2 id="generate-heading">Generate synthetic messages</h2>
    <form class="form bridge-form" onSubmit=${(event) => {
      event.preventDefault();
      run();
    }}>
      <div class="filters">
        <${Select} id="generate-what" label="What" value=${journey ? 'admission' : ''} options=${[['', 'Single messages'], ['admission', 'Patient journeys (admission: ADT^A01, ORM^O01, ORU^R01, ADT^A03)']]} onChange=${(scenario) => updateQuery({ scenario })} />
        ${journey
          ? html`${field('patients', 'Patients', { min: 1, max: 1000, placeholder: '1' })}
              <label for="generate-start">First admission (ISO time with offset; empty: now)<input id="generate-start" value=${query.get('start') ?? ''} placeholder="2025-06-15T08:00:00Z" onChange=${(e) => updateQuery({ start: e.currentTarget.value.trim() })} /></label>`
          : html`
              <${Select} id="generate-standard" label="Standard" value=${standard} options=${(standards ?? [{ id: 'hl7', displayName: 'HL7 v2' }]).map((s) => [s.id, s.displayName])} onChange=${(value) => updateQuery({ gstandard: value === 'hl7' ? '' : value, type: '', gversion: '' })} />
              <${Select} id="generate-type" label="Message type" value=${query.get('type') ?? ''} options=${[['', 'Default'], ...(chosen?.messageTypes ?? []).map((t) => [t, t])]} onChange=${(type) => updateQuery({ type })} />
              <${Select} id="generate-version" label="Version" value=${query.get('gversion') ?? ''} options=${[['', 'Default'], ...(chosen?.versions ?? []).map((v) => [v, v])]} onChange=${(gversion) => updateQuery({ gversion })} />
              ${field('count', 'Count', { min: 1, max: 100, placeholder: '1' })}
            `}
        ${field('seed', 'Seed (same seed, same messages)', { min: 0, placeholder: 'random' })}
      </div>
      ${journey ? html`<${FaultEditor} faults=${faults} onChange=${(list) => updateQuery({ faults: faultsText(list) })} />` : null}
      <div class="actions"><button type="submit" id="generate-run" disabled=${state.busy}>${state.busy ? 'Generating…' : 'Generate'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not generate" />
    ${state.messages
      ? html`<div class="panel" id="generated">
          <p>${state.messages.length} message(s).</p>
          <ol class="generated-list">
            ${state.messages.map(
              (message, index) => html`<li>
                <pre class="raw" tabindex="0" aria-label=${`Generated message ${index + 1}`}>${message.replace(/\r/g, '\n')}</pre>
                <div class="actions">
                  <button type="button" onClick=${() => sendTo('validate', message)}>Validate this</button>
                  <button type="button" onClick=${() => sendTo('left', message)}>Diff: left</button>
                  <button type="button" onClick=${() => sendTo('right', message)}>Diff: right</button>
                </div>
              </li>`,
            )}
          </ol>
        </div>`
      : null}
  </section>`;
}
