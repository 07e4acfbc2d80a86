// The bridge's page: what the base does, and where its API documentation and the other bases' pages are.
import { html } from '../vendor/preact-htm.js';
import { Layout, mount } from '../shared/layout.js';

function Bridge() {
  return html`<${Layout} title="Message bridge" nav=${[{ href: '/', label: 'Bridge' }]} current="/">
    <p>Validates, compares and generates HL7 v2, FHIR and NCPDP messages.</p>
    <p>Its API: <a href="/docs">documentation</a> (<a href="/openapi.json">OpenAPI document</a>).</p>
  <//>`;
}

mount(html`<${Bridge} />`);
