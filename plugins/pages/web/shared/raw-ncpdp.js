// An NCPDP Telecommunication (D.0) transaction laid out by segment and field: the header, then each segment (AM07,
// AM01...) with its fields, each naming itself on hover and focus (AM07.D2) and marked when a finding points at it.
// The separators, control characters in the text, are shown as visible signs.
import { html } from '../vendor/preact-htm.js';
import { FieldRef } from './field-hover.js';
import { findingRanges, isMarked } from './raw-marks.js';

const SEGMENT = '\u001e';
const GROUP = '\u001d';
const FIELD = '\u001c';

/** Splits at any of the separators, keeping each part's offset and the separator before it. */
function split(raw) {
  const segments = [];
  let current = { start: 0, fields: [], before: '' };
  let fieldStart = 0;
  const closeField = (end) => current.fields.push({ text: raw.slice(fieldStart, end), start: fieldStart, end });
  for (let i = 0; i <= raw.length; i += 1) {
    const c = raw[i];
    if (i === raw.length || c === SEGMENT || c === GROUP) {
      closeField(i);
      segments.push(current);
      current = { start: i + 1, fields: [], before: c === GROUP ? 'group' : 'segment' };
      fieldStart = i + 1;
    } else if (c === FIELD) {
      closeField(i);
      fieldStart = i + 1;
    }
  }
  return segments.filter((segment) => segment.fields.some((field) => field.text !== ''));
}

/** The raw text of a D.0 transaction. */
export function NcpdpRaw({ raw, findings, version }) {
  const ranges = findingRanges(findings);
  const segments = split(raw);
  return html`<div class="raw ncpdp" id="raw">
    ${segments.map((segment, index) => {
      if (index === 0) {
        const header = segment.fields[0];
        return html`<span class="segment"><${FieldRef} standard="ncpdp" version=${version} path="Header" marked=${isMarked(ranges, header.start, header.end)}><span class="segment-name">Header</span> ${header.text}<//></span>`;
      }
      const idField = segment.fields.find((field) => field.text.startsWith('AM'));
      const name = idField ? `AM${idField.text.slice(2, 4)}` : 'segment';
      return html`<span class="segment" data-segment=${name}>
        ${segment.before === 'group' ? html`<span class="sep" title="group separator">␝</span>` : html`<span class="sep" title="segment separator">␞</span>`}
        <span class="segment-name">${name}</span>
        ${segment.fields
          .filter((field) => field.text !== '')
          .map(
            (field) => html`<span class="sep" title="field separator">␜</span><${FieldRef}
                standard="ncpdp"
                version=${version}
                path=${`${name}.${field.text.slice(0, 2)}`}
                marked=${isMarked(ranges, field.start, field.end)}
                ><span class="key">${field.text.slice(0, 2)}</span>${field.text.slice(2)}<//
              >`,
          )}
      </span>`;
    })}
  </div>`;
}
