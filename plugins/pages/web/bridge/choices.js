// The choices the bridge's forms offer, from the API itself: the registered standards with their versions and
// message types (GET /api/standards) and the loaded profiles (GET /api/profiles). Each is asked once per page load.
import { html, useLayoutEffect, useState } from '../vendor/preact-htm.js';
import { api } from '../shared/api.js';

let standards;
let profiles;

/** The registered standards (a promise, asked once). */
export function loadStandards() {
  standards ??= api('/api/standards');
  return standards;
}

/** The loaded profiles of every standard (a promise, asked once). */
export function loadProfiles() {
  profiles ??= api('/api/profiles');
  return profiles;
}

/** A labelled <select>: `options` are [value, text] pairs; the first may be '' for "none". */
export function Select({ id, label, value, options, onChange, disabled }) {
  return html`<label for=${id}>${label}
    <select id=${id} value=${value ?? ''} disabled=${disabled} onChange=${(event) => onChange(event.currentTarget.value)}>
      ${options.map(([optionValue, text]) => html`<option value=${optionValue} selected=${optionValue === (value ?? '')}>${text}</option>`)}
    </select>
  </label>`;
}

/** The standard choice: "detect" and every registered standard. */
export function StandardSelect({ id, value, list, onChange, label = 'Standard' }) {
  const options = [['', 'Detect from the content'], ...(list ?? []).map((s) => [s.id, s.displayName])];
  return html`<${Select} id=${id} label=${label} value=${value} options=${options} onChange=${onChange} />`;
}

/** The version choice of a standard ('' = the one the message declares, or the default). */
export function VersionSelect({ id, standard, value, list, onChange, none = 'As the message declares' }) {
  const versions = (list ?? []).find((s) => s.id === standard)?.versions ?? [];
  return html`<${Select} id=${id} label="Version" value=${value} disabled=${!standard} options=${[['', none], ...versions.map((v) => [v, v])]} onChange=${onChange} />`;
}

/** The value a loader gives (undefined until it answers; a failed load stays undefined, the form still works). */
export function useLoaded(load) {
  const [value, setValue] = useState(undefined);
  // asked as soon as the form is in the page, not after the browser's next frame
  useLayoutEffect(() => {
    let live = true;
    load().then(
      (answer) => live && setValue(answer),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return value;
}

/** Texts typed into the bridge's forms, kept while the reader moves between views (never put in the address). */
export const drafts = { validate: '', left: '', right: '', deidentify: '' };

/** A text area that also takes a file: chosen with its button or dropped onto it. */
export function MessageInput({ id, label, value, onInput, rows = 10 }) {
  const readFile = async (file) => {
    if (file) onInput(await file.text());
  };
  return html`<div class="message-input">
    <label for=${id}>${label}</label>
    <textarea
      id=${id}
      rows=${rows}
      spellcheck="false"
      value=${value}
      onInput=${(event) => onInput(event.currentTarget.value)}
      onDragOver=${(event) => event.preventDefault()}
      onDrop=${(event) => {
        if (event.dataTransfer?.files?.length) {
          event.preventDefault();
          readFile(event.dataTransfer.files[0]);
        }
      }}
    ></textarea>
    <label class="file-choice" for=${`${id}-file`}>Or open a file <input id=${`${id}-file`} type="file" onChange=${(event) => readFile(event.currentTarget.files?.[0])} /></label>
  </div>`;
}
