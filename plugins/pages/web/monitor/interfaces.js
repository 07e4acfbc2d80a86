// The monitored interfaces: each with its folder, pattern, standard, profile and state, enabled or disabled with one
// button, edited in place, deleted after saying what goes with it; and a form to create one. The API's own problems
// are shown at the field they name.
import { html, useState } from '../vendor/preact-htm.js';
import { api, queryString, useApi } from '../shared/api.js';
import { useAllPages } from '../shared/paged-lists.js';
import { formatAgo } from '../shared/duration.js';
import { ListCut, Problem, Table } from '../shared/layout.js';
import { updateQuery } from '../shared/router.js';

const STANDARDS = ['auto', 'hl7', 'fhir', 'ncpdp'];
const EMPTY = { name: '', directoryPath: '', filePattern: '', standard: 'auto', profileName: '', validationMode: 'compatibility', recursive: false, usePolling: false };

/** The body the API takes from the form: empty optional fields left out (a new interface) or cleared (an edit). */
function bodyOf(form, editing) {
  const body = { name: form.name, directoryPath: form.directoryPath, standard: form.standard, validationMode: form.validationMode, recursive: form.recursive, usePolling: form.usePolling };
  if (form.filePattern) body.filePattern = form.filePattern;
  if (form.profileName) body.profileName = form.profileName;
  else if (editing) body.profileName = null;
  return body;
}

function Field({ name, label, problems, children, hint }) {
  const problem = problems[name];
  return html`<label>${label}${children(problem ? { 'aria-invalid': 'true', 'aria-describedby': `${name}-problem` } : {})}
    ${problem ? html`<span class="field-problem" id=${`${name}-problem`} role="alert">${problem}</span>` : hint ? html`<span class="muted">${hint}</span>` : null}
  </label>`;
}

/** The form of a new interface, or of an edit of `existing`. */
function InterfaceForm({ existing, onDone }) {
  const [form, setForm] = useState(existing ? { ...EMPTY, ...existing, profileName: existing.profileName ?? '' } : EMPTY);
  const [problems, setProblems] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const text = (name) => (event) => setForm({ ...form, [name]: event.currentTarget.value });
  const check = (name) => (event) => setForm({ ...form, [name]: event.currentTarget.checked });
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const body = bodyOf(form, Boolean(existing));
      const saved = existing
        ? await api(`/api/monitor/interfaces/${encodeURIComponent(existing.id)}`, { method: 'PUT', body })
        : await api('/api/monitor/interfaces', { method: 'POST', body });
      setProblems({});
      setError(null);
      onDone(saved);
    } catch (failure) {
      const byField = failure.fieldProblems ? failure.fieldProblems() : {};
      setProblems(byField);
      // a problem that names no field of the form is shown above it
      setError(Object.keys(byField).some((name) => name in EMPTY) ? null : failure);
    } finally {
      setBusy(false);
    }
  };
  const id = existing ? `edit-${existing.id}` : 'new';
  return html`<form class="panel" id=${`interface-form-${id}`} aria-label=${existing ? `Edit ${existing.name}` : 'New interface'} onSubmit=${submit} novalidate>
    <${Problem} error=${error} prefix=${existing ? 'Not saved' : 'Not created'} />
    <div class="form">
      <${Field} name="name" label="Name" problems=${problems}>${(a) => html`<input name="name" value=${form.name} onInput=${text('name')} ...${a} />`}<//>
      <${Field} name="directoryPath" label="Folder" problems=${problems} hint="a folder on this machine">${(a) => html`<input name="directoryPath" value=${form.directoryPath} onInput=${text('directoryPath')} ...${a} />`}<//>
      <${Field} name="filePattern" label="File pattern" problems=${problems} hint="empty: the standard's usual names">${(a) => html`<input name="filePattern" value=${form.filePattern} placeholder="*.hl7" onInput=${text('filePattern')} ...${a} />`}<//>
      <${Field} name="standard" label="Standard" problems=${problems}>${(a) => html`<select name="standard" value=${form.standard} onChange=${text('standard')} ...${a}>${STANDARDS.map((s) => html`<option value=${s}>${s}</option>`)}</select>`}<//>
      <${Field} name="profileName" label="Profile" problems=${problems} hint="empty: none">${(a) => html`<input name="profileName" value=${form.profileName} onInput=${text('profileName')} ...${a} />`}<//>
      <${Field} name="validationMode" label="Validation" problems=${problems}>${(a) => html`<select name="validationMode" value=${form.validationMode} onChange=${text('validationMode')} ...${a}><option value="compatibility">compatibility</option><option value="strict">strict</option></select>`}<//>
      <label class="check"><span><input type="checkbox" name="recursive" checked=${form.recursive} onChange=${check('recursive')} /> sub-folders too</span></label>
      <label class="check"><span><input type="checkbox" name="usePolling" checked=${form.usePolling} onChange=${check('usePolling')} /> poll (network folders)</span></label>
    </div>
    <div class="actions">
      <button type="submit" disabled=${busy}>${existing ? 'Save' : 'Create'}</button>
      ${existing ? html`<button type="button" onClick=${() => onDone(null)}>Cancel</button>` : null}
    </div>
  </form>`;
}

function DeleteConfirm({ item, onDone }) {
  const [error, setError] = useState(null);
  const remove = async () => {
    try {
      await api(`/api/monitor/interfaces/${encodeURIComponent(item.id)}`, { method: 'DELETE' });
      onDone(true);
    } catch (failure) {
      setError(failure);
    }
  };
  return html`<div class="panel" role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-what">
    <p id="delete-title"><strong>Delete ${item.name}?</strong></p>
    <p id="delete-what">Watching stops, and its file ledger, stored messages and figures are removed for good; its alerts
      stay in the history. The files in <code>${item.directoryPath}</code> are not touched.</p>
    <${Problem} error=${error} prefix="Not deleted" />
    <div class="actions"><button type="button" class="danger" id="confirm-delete" onClick=${remove}>Delete it</button> <button type="button" onClick=${() => onDone(false)}>Keep it</button></div>
  </div>`;
}

/** The interfaces view: `?edit=ID` opens an edit, `?delete=ID` asks to confirm a delete. */
export function Interfaces({ route }) {
  const list = useAllPages('/api/monitor/interfaces');
  const status = useApi('/api/monitor/status');
  const [problem, setProblem] = useState(null);
  const [created, setCreated] = useState(null);
  const editing = route.query.get('edit');
  const deleting = route.query.get('delete');
  const states = new Map((status.data?.interfaces ?? []).map((i) => [i.interfaceId, i]));
  const reload = () => {
    list.reload();
    status.reload();
  };
  const toggle = async (item) => {
    try {
      await api(`/api/monitor/interfaces/${encodeURIComponent(item.id)}`, { method: 'PUT', body: { enabled: !item.enabled } });
      setProblem(null);
      reload();
    } catch (failure) {
      setProblem(failure);
    }
  };
  const items = list.data ?? [];
  const rows = items.map((item) => {
    const state = states.get(item.id);
    return html`<tr key=${item.id} data-interface-id=${item.id}>
      <td><a href=${`/messages${queryString({ interfaceId: item.id })}`}>${item.name}</a></td>
      <td>${item.standard}${item.profileName ? html`<br /><span class="muted">${item.profileName}</span>` : ''}</td>
      <td><code>${item.directoryPath}</code><br /><span class="muted">${item.filePattern}</span></td>
      <td>${state ? html`<span class=${`state state-${state.state}`}>${state.state}</span>` : '–'}<br /><span class="muted">${item.enabled ? 'enabled' : 'disabled'}</span></td>
      <td>${formatAgo(state?.lastMessageAt ?? null)}</td>
      <td class="actions">
        <a href=${`/interfaces${queryString({ edit: item.id })}`} aria-label=${`Edit ${item.name}`}>Edit</a>
        <button type="button" data-toggle=${item.id} onClick=${() => toggle(item)} aria-label=${`${item.enabled ? 'Disable' : 'Enable'} ${item.name}`}>${item.enabled ? 'Disable' : 'Enable'}</button>
        <a href=${`/interfaces${queryString({ delete: item.id })}`} aria-label=${`Delete ${item.name}`}>Delete</a>
      </td>
    </tr>`;
  });
  const edited = editing ? items.find((item) => item.id === editing) : undefined;
  const doomed = deleting ? items.find((item) => item.id === deleting) : undefined;
  return html`
    <${Problem} error=${list.error || problem} />
    ${doomed ? html`<${DeleteConfirm} item=${doomed} onDone=${(done) => { updateQuery({ delete: '' }); if (done) reload(); }} />` : null}
    ${edited ? html`<h2>Edit ${edited.name}</h2><${InterfaceForm} key=${edited.id} existing=${edited} onDone=${() => { updateQuery({ edit: '' }); reload(); }} />` : null}
    <${ListCut} cut=${list.cut} count=${items.length} what="interfaces" id="interface-list-cut" />
    <${Table} id="interface-list" label="Interfaces" headers=${['Name', 'Standard', 'Folder', 'State', 'Last message', 'Actions']} rows=${rows} empty=${list.loading ? 'Loading…' : 'No interface yet: create one below.'} />
    <h2 id="new-title">New interface</h2>
    ${created ? html`<p role="status" id="created">Created ${created.name}: its folder is watched now.</p>` : null}
    <${InterfaceForm} key=${`new-${created?.id ?? ''}`} onDone=${(saved) => { setCreated(saved); reload(); }} />
  `;
}
