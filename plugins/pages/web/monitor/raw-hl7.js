// An HL7 v2 message laid out by segment: each field, and each component of a field that has several, names itself
// on hover and focus (its path, such as PID.5 or PID.5.1, looked up in the message's version), and the fields and
// components a finding points at are marked.
import { html } from '../vendor/preact-htm.js';
import { FieldRef } from '../shared/field-hover.js';
import { findingRanges, isMarked } from '../shared/raw-marks.js';

/** Splits text at a separator, keeping each part's offset in the message. */
function parts(text, separator, offset) {
  const out = [];
  let start = 0;
  for (;;) {
    const at = separator ? text.indexOf(separator, start) : -1;
    const end = at === -1 ? text.length : at;
    out.push({ text: text.slice(start, end), start: offset + start, end: offset + end });
    if (at === -1) return out;
    start = at + separator.length;
  }
}

/** The segments of a message with their offsets (segments end at CR, LF or CRLF). */
function segmentsOf(raw) {
  const segments = [];
  const pattern = /\r\n|\r|\n/g;
  let start = 0;
  for (const match of raw.matchAll(pattern)) {
    if (match.index > start) segments.push({ text: raw.slice(start, match.index), start });
    start = match.index + match[0].length;
  }
  if (start < raw.length) segments.push({ text: raw.slice(start), start });
  return segments;
}

function Components({ field, path, encoding, ranges, version }) {
  const repetitions = parts(field.text, encoding.repetition, field.start);
  return repetitions.map((repetition, r) => {
    const components = parts(repetition.text, encoding.component, repetition.start);
    const body =
      components.length < 2
        ? repetition.text
        : components.map(
            (component, c) => html`${c > 0 ? html`<span class="sep">${encoding.component}</span>` : null}<${FieldRef}
                standard="hl7"
                version=${version}
                path=${`${path}.${c + 1}`}
                marked=${isMarked(ranges, component.start, component.end)}
                >${component.text}<//
              >`,
          );
    return html`${r > 0 ? html`<span class="sep">${encoding.repetition}</span>` : null}${body}`;
  });
}

/** The raw text of an HL7 v2 message, segment by segment. */
export function Hl7Raw({ raw, findings, version }) {
  const ranges = findingRanges(findings);
  const fieldSeparator = raw.startsWith('MSH') && raw.length > 3 ? raw[3] : '|';
  const encodingChars = raw.startsWith('MSH') ? raw.slice(4, 8) : '^~\\&';
  const encoding = { component: encodingChars[0] || '^', repetition: encodingChars[1] || '~' };
  return html`<div class="raw hl7" id="raw">
    ${segmentsOf(raw).map((segment, index) => {
      const fields = parts(segment.text, fieldSeparator, segment.start);
      const name = fields[0].text;
      const header = name === 'MSH' || name === 'BHS' || name === 'FHS';
      return html`<span class="segment" key=${index} data-segment=${name}>
        <${FieldRef} standard="hl7" version=${version} path=${name} label="segment"><span class="segment-name">${name}</span><//>
        ${fields.slice(1).map((field, i) => {
          // in MSH the separator itself is field 1, so the text after it is field 2
          const number = header ? i + 2 : i + 1;
          const path = `${name}.${number}`;
          const marked = isMarked(ranges, field.start, field.end);
          return html`<span class="sep">${fieldSeparator}</span><${FieldRef} standard="hl7" version=${version} path=${path} marked=${marked} empty=${field.text === ''}
            >${header && number === 2 ? field.text : html`<${Components} field=${field} path=${path} encoding=${encoding} ranges=${ranges} version=${version} />`}<//
          >`;
        })}
      </span>`;
    })}
  </div>`;
}
