// A field, component or element of a message that names itself when pointed at or focused: its name, data type,
// optionality, length and table (with its codes), from the base's field lookup (`GET /api/lookup`), asked once per
// path and kept. Escape hides the description; it never covers the field it describes.
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api, queryString } from './api.js';

const descriptions = new Map();
let nextId = 0;

/** The description of a path (`PID.5`, `Patient.birthDate`, a SCRIPT path), looked up once and kept. */
export function describeField(standard, path, version) {
  const key = `${standard}|${version ?? ''}|${path}`;
  if (!descriptions.has(key)) {
    descriptions.set(key, api(`/api/lookup${queryString({ standard, path, version })}`).catch((error) => ({ failed: error.message })));
  }
  return descriptions.get(key);
}

function codesOf(table) {
  const values = Array.isArray(table?.values) ? table.values : Array.isArray(table?.codes) ? table.codes : [];
  return values.slice(0, 8).map((value) => (typeof value === 'string' ? value : `${value.code ?? value.value ?? ''}${value.display || value.description ? ` ${value.display ?? value.description}` : ''}`));
}

/** The lines a description shows, from whatever of name, type, optionality, length and table the lookup gave. */
function describedLines(path, info) {
  if (!info) return [path, 'Looking up…'];
  if (info.failed) return [path, `No description: ${info.failed}`];
  const lines = [`${path} ${info.name ?? info.description ?? ''}`.trim()];
  const type = info.dataType ?? info.type;
  const facts = [
    type ? `type ${typeof type === 'string' ? type : JSON.stringify(type)}` : '',
    info.optionality ?? info.usage ?? (info.required === true ? 'required' : info.required === false ? 'optional' : ''),
    info.repeatable === true || info.repeats === true ? 'repeats' : '',
    info.length ?? info.maxLength ? `length ${info.length ?? info.maxLength}` : '',
    info.cardinality ? `cardinality ${info.cardinality}` : '',
  ].filter(Boolean);
  if (facts.length > 0) lines.push(facts.join(' · '));
  const table = info.table ?? info.valueSet;
  if (table) {
    const name = typeof table === 'string' ? table : [table.id ?? table.url, table.name ?? table.title].filter(Boolean).join(' ');
    const codes = codesOf(table);
    lines.push(`table ${name}${codes.length > 0 ? `: ${codes.join(', ')}${(table.values ?? table.codes ?? []).length > codes.length ? ', …' : ''}` : ''}`);
  }
  return lines;
}

/**
 * A part of a message that describes itself on hover and focus. `standard`, `path` and `version` name it; `marked`
 * adds the class of a part with a finding; `label` is read by screen readers before the content.
 */
export function FieldRef({ standard, path, version, marked, label, children }) {
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
  const show = () => setOpen(true);
  const hide = () => setOpen(false);
  const onKeyDown = (event) => {
    if (event.key === 'Escape') hide();
  };
  const lines = describedLines(path, info);
  return html`<span
    class=${`field${marked ? ' marked' : ''}`}
    tabindex="0"
    data-path=${path}
    aria-label=${label ? `${label} ${path}` : undefined}
    aria-describedby=${open ? id : undefined}
    onMouseEnter=${show}
    onMouseLeave=${hide}
    onFocus=${show}
    onBlur=${hide}
    onKeyDown=${onKeyDown}
    >${children}${open
      ? html`<span class="field-tip" role="tooltip" id=${id}>${lines.map((line, index) => html`<span class=${index === 0 ? 'tip-name' : 'tip-line'}>${line}</span>`)}</span>`
      : null}</span
  >`;
}
