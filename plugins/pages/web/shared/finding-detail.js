// What a finding says was expected and what was found there (`expected` and `actual` of the API's findings), shown
// after its sentence in every list of findings.
import { html } from '../vendor/preact-htm.js';

/** "expected a value, found empty" of a finding, or nothing when it says neither. */
export function FindingDetail({ finding }) {
  const { expected, actual } = finding;
  if (!expected && !actual) return null;
  return html`<span class="finding-detail">${' ('}${expected ? html`expected <code class="expected">${expected}</code>` : null}${expected && actual ? ', ' : null}${actual
    ? html`found <code class="actual">${actual}</code>`
    : null})</span>`;
}
