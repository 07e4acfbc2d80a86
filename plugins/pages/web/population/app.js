// The population generator's page: what the base does, and where its API documentation and the other bases' pages are.
import { html } from '../vendor/preact-htm.js';
import { Layout, mount } from '../shared/layout.js';

function Population() {
  return html`<${Layout} title="Population generator" nav=${[{ href: '/', label: 'Populations' }]} current="/">
    <p>Generates synthetic patient populations and seeds them into a database.</p>
    <p>Its API: <a href="/docs">documentation</a> (<a href="/openapi.json">OpenAPI document</a>).</p>
  <//>`;
}

mount(html`<${Population} />`);
