// A message laid out for reading: HL7 v2 by segment and field, FHIR JSON as a tree (the places named in `marks`, finding
// or difference paths in the standard's own syntax, highlighted), FHIR XML and NCPDP SCRIPT as a tree of elements and
// an NCPDP Telecommunication (D.0) transaction by segment and field (the findings highlighted at the positions the
// validation gave), anything else as its text. Every field and element names itself on hover and focus (the shared
// FieldRef, from the field lookup).
import { html } from '../vendor/preact-htm.js';
import { FieldRef } from '../shared/field-hover.js';
import { FindingDetail } from '../shared/finding-detail.js';
import { NcpdpRaw } from '../shared/raw-ncpdp.js';
import { TreeRaw } from '../shared/raw-tree.js';

const HL7_PLACE = /^([A-Z][A-Z0-9]{2})(?:\[(\d+)\])?(?:[.-](\d+))?/;

/** The HL7 places of paths (`PID.5.1`, `OBX[3].5`, `MSH`) as keys `SEG#occurrence#field` and `SEG#occurrence`. */
export function hl7MarkKeys(paths) {
  const keys = new Set();
  for (const path of paths) {
    const match = HL7_PLACE.exec(path ?? '');
    if (!match) continue;
    const occurrence = match[2] ?? '1';
    keys.add(match[3] === undefined ? `${match[1]}#${occurrence}` : `${match[1]}#${occurrence}#${Number(match[3])}`);
  }
  return keys;
}

/** The segments of an HL7 text: name, occurrence and fields with their numbers (MSH-1 is the separator itself). */
export function hl7Segments(text) {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const header = lines.find((line) => /^(MSH|FHS|BHS)/.test(line));
  const separator = header ? header.charAt(3) || '|' : '|';
  const seen = new Map();
  return lines.map((line) => {
    const name = line.slice(0, 3);
    const occurrence = (seen.get(name) ?? 0) + 1;
    seen.set(name, occurrence);
    const parts = line.split(separator);
    const isHeader = /^(MSH|FHS|BHS)$/.test(name);
    const fields = parts.slice(1).map((value, index) => ({ number: isHeader ? index + 2 : index + 1, value }));
    return { name, occurrence, fields, separator };
  });
}

function Hl7Layout({ text, marks, version }) {
  const keys = hl7MarkKeys(marks);
  return html`<div class="raw message-layout" aria-label="The message by segment and field">
    ${hl7Segments(text).map((segment) => {
      const segmentMarked = keys.has(`${segment.name}#${segment.occurrence}`);
      // a Z-segment is site-defined: no definitions name it, so its fields are shown without a lookup
      if (segment.name.startsWith('Z')) {
        return html`<div class=${`segment${segmentMarked ? ' marked-segment' : ''}`}><span class="segment-name">${segment.name}</span>${segment.fields.map(
          (field) => html`<span class="sep" aria-hidden="true">${segment.separator}</span><span class=${keys.has(`${segment.name}#${segment.occurrence}#${field.number}`) ? 'field marked' : ''}>${field.value}</span>`,
        )}</div>`;
      }
      return html`<div class=${`segment${segmentMarked ? ' marked-segment' : ''}`}>
        <${FieldRef} standard="hl7" path=${segment.name} version=${version} marked=${segmentMarked} label="segment"><span class="segment-name">${segment.name}</span><//>
        ${segment.fields.map((field) => {
          const marked = keys.has(`${segment.name}#${segment.occurrence}#${field.number}`);
          const path = `${segment.name}${segment.occurrence > 1 ? `[${segment.occurrence}]` : ''}.${field.number}`;
          const sep = html`<span class="sep" aria-hidden="true">${segment.separator}</span>`;
          if (field.value === '' && !marked) return sep;
          return html`${sep}<${FieldRef} standard="hl7" path=${path} version=${version} marked=${marked} label="field">${field.value || '\u00a0'}<//>`;
        })}
      </div>`;
    })}
  </div>`;
}

/** A FHIR JSON value as a tree; `describedAs` is the definition path (a resource inside a Bundle starts its own). */
function JsonNode({ value, path, describedAs, marks }) {
  if (Array.isArray(value)) {
    return html`<ul>${value.map((item, index) => html`<li><span class="muted">[${index}]</span> <${JsonNode} value=${item} path=${`${path}[${index}]`} describedAs=${describedAs} marks=${marks} /></li>`)}</ul>`;
  }
  if (value && typeof value === 'object') {
    const own = typeof value.resourceType === 'string' && describedAs !== value.resourceType ? value.resourceType : describedAs;
    return html`<ul>
      ${Object.entries(value).map(([key, child]) => {
        if (key === 'resourceType') return html`<li><span class="key">resourceType</span>: ${child}</li>`;
        const childPath = `${path}.${key}`;
        const childDescribed = `${own}.${key}`;
        const marked = marks.has(childPath);
        const leaf = child === null || typeof child !== 'object';
        return html`<li>
          <${FieldRef} standard="fhir" path=${childDescribed} marked=${marked} label="element"><span class="key">${key}</span><//>${leaf
            ? html`: <span class="value">${JSON.stringify(child)}</span>`
            : html`<${JsonNode} value=${child} path=${childPath} describedAs=${childDescribed} marks=${marks} />`}
        </li>`;
      })}
    </ul>`;
  }
  return html`<span class="value">${JSON.stringify(value)}</span>`;
}

function FhirJsonLayout({ resource, marks }) {
  const root = resource.resourceType;
  return html`<div class="tree message-layout" aria-label="The resource as a tree">
    <p><strong>${root}</strong></p>
    <${JsonNode} value=${resource} path=${root} describedAs=${root} marks=${new Set(marks)} />
  </div>`;
}

/**
 * The message laid out for its standard; `marks` are paths to highlight, `findings` (with the validation's `field` and
 * `position`) the places to highlight in XML and D.0 text, `version` the definitions to name fields by.
 */
export function MessageLayout({ text, standard, marks = [], findings, version }) {
  if (!text) return null;
  if (standard === 'hl7') return html`<${Hl7Layout} text=${text} marks=${marks} version=${version} />`;
  if (standard === 'fhir' && text.trim().startsWith('{')) {
    try {
      const resource = JSON.parse(text);
      if (resource && typeof resource.resourceType === 'string') return html`<${FhirJsonLayout} resource=${resource} marks=${marks} />`;
    } catch {
      // not JSON after all: shown as text below
    }
  }
  if (findings && (standard === 'fhir' || standard === 'ncpdp')) {
    // the shared layouts read a finding's place from `path` (the monitor's name for it) and `position`
    const placed = findings.map((finding) => ({ path: finding.field, position: finding.position ?? null }));
    const View = text.trim().startsWith('<') ? TreeRaw : standard === 'ncpdp' ? NcpdpRaw : null;
    if (View) return html`<div class="message-layout"><${View} raw=${text} findings=${placed} standard=${standard} version=${standard === 'ncpdp' ? version : undefined} /></div>`;
  }
  return html`<pre class="raw message-layout" tabindex="0" aria-label="The message text">${text}</pre>`;
}

/** The findings of a validation: each names its field (hover for the field's reference), code, sentence, and what was expected and found. */
export function FindingList({ findings, standard, version }) {
  if (findings.length === 0) return html`<p class="status-valid">No findings.</p>`;
  return html`<ul class="findings" aria-label="Findings">
    ${findings.map(
      (finding) => html`<li class=${`finding severity-${finding.severity}`}>
        <span class=${`badge ${finding.severity === 'error' ? 'bad' : 'warn'}`}>${finding.severity}</span>${' '}
        <${FieldRef} standard=${standard} path=${finding.field} version=${standard === 'hl7' ? version : undefined} marked=${true} label="finding at">${finding.field}<//>${' '}
        <code>${finding.code}</code>${' '}${finding.message}<${FindingDetail} finding=${finding} />
      </li>`,
    )}
  </ul>`;
}
