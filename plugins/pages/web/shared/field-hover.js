// A field, component or element of a message that names itself when pointed at or focused: its name, data type,
// optionality, length and table with its first codes, from the base's field lookup (`GET /api/lookup`), asked once
// per path and kept. A part no definition names (a site's own segment or element) is answered `found: false`, not
// refused, so pointing at it is no error in the console. One description shows at a time (the innermost part under the pointer, or the focused one);
// Escape hides it, and it never covers the part it describes.
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api, queryString } from './api.js';

const descriptions = new Map();
let nextId = 0;
let hideShown = null;

/** The description of a path (`PID.5`, `Patient.birthDate`, a SCRIPT path), looked up once and kept. */
export function describeField(standard, path, version) {
  const key = `${standard}|${version ?? ''}|${path}`;
  // a site-defined (Z) segment is in no standard's definitions: said here rather than asked for and refused
  if (!descriptions.has(key) && standard === 'hl7' && /^Z[A-Z0-9]{2}(\.|$)/.test(path)) {
    descriptions.set(key, Promise.resolve({ failed: 'a site-defined (Z) segment, which the standard does not define' }));
  }
  if (!descriptions.has(key)) {
    const query = queryString({ standard, path, version, maxCodes: 8, missing: 'answer' });
    const described = api(`/api/lookup${query}`).then(
      (info) => (info.found === false ? { failed: 'not in the definitions' } : info),
      (error) => ({ failed: error.message }),
    );
    descriptions.set(key, described);
  }
  return descriptions.get(key);
}

/** The lines a description shows: name; type, optionality, cardinality, length; table with its first codes. */
export function describedLines(path, info) {
  if (!info) return [path, 'Looking up…'];
  if (info.failed) return [path, `No description: ${info.failed}`];
  const lines = [info.name && info.name !== path ? `${path} ${info.name}` : path];
  if (info.description && info.description !== info.name) lines.push(info.description.length > 160 ? `${info.description.slice(0, 159)}…` : info.description);
  const facts = [
    info.dataType ? `type ${info.dataType}` : '',
    info.optionality ?? '',
    info.cardinality ? `cardinality ${info.cardinality}` : '',
    info.repeatable ? 'repeats' : '',
    info.maxLength ? `length ${info.maxLength}` : '',
  ].filter(Boolean);
  if (facts.length > 0) lines.push(facts.join(' · '));
  if (info.table) {
    const codes = (info.codes ?? []).map((code) => (code.display ? `${code.code} ${code.display}` : code.code));
    const more = (info.codeTotal ?? codes.length) > codes.length ? `, … (${info.codeTotal} in all)` : '';
    lines.push(`table ${info.table}${info.tableName ? ` ${info.tableName}` : ''}${codes.length > 0 ? `: ${codes.join(', ')}${more}` : ''}`);
  }
  return lines;
}

/**
 * A part of a message that describes itself on hover and focus. `standard`, `path` and `version` name it; `marked`
 * marks a part a finding points at; `empty` gives an empty part room to be seen; `label` is read before the path.
 */
export function FieldRef({ standard, path, version, marked, empty, label, children }) {
  const [open, setOpen] = useState(false);
  const [info, setInfo] = useState(undefined);
  const [id] = useState(() => `field-tip-${++nextId}`);
  useEffect(() => {
    if (!open || info) return undefined;
    let live = true;
    describeField(standard, path, version).then((answer) => live && setInfo(answer));
    return () => {
      live = false;
    };
  }, [open, standard, path, version]);
  const close = () => setOpen(false);
  const show = (event) => {
    // the innermost part wins: the event stops here, and the part shown before is hidden
    event.stopPropagation();
    if (hideShown && hideShown !== close) hideShown();
    hideShown = close;
    setOpen(true);
  };
  const hide = () => {
    if (hideShown === close) hideShown = null;
    close();
  };
  const classes = ['field', marked ? 'marked' : '', empty ? 'empty' : ''].filter(Boolean).join(' ');
  return html`<span
    class=${classes}
    tabindex="0"
    data-path=${path}
    aria-label=${label ? `${label} ${path}` : undefined}
    aria-describedby=${open ? id : undefined}
    onMouseOver=${show}
    onMouseLeave=${hide}
    onFocus=${show}
    onBlur=${hide}
    onKeyDown=${(event) => event.key === 'Escape' && hide()}
    >${children}${open
      ? html`<span class="field-tip" role="tooltip" id=${id}>${describedLines(path, info).map((line, index) => html`<span class=${index === 0 ? 'tip-name' : 'tip-line'}>${line}</span>`)}</span>`
      : null}</span
  >`;
}
