// The population generator's page (the population base's `/`): the database (connect, schema, learn), generation
// with a progress bar fed by the job's own progress, and seeding (dry-run plan, seed, cleanup) with the no-PHI
// attestation. The job, seed run and cleanup followed are in the address, so the page can be linked and reloaded.
import { html, useState } from '../vendor/preact-htm.js';
import { useApi } from '../shared/api.js';
import { Layout, mount } from '../shared/layout.js';
import { startRouter, useRoute } from '../shared/router.js';
import { ConnectSection, SchemaSection } from './database-sections.js';
import { GenerateSection, JobSection } from './job-sections.js';

function Population() {
  const route = useRoute();
  // the schema route answers 409 DATABASE_NOT_CONNECTED before a connect: that is "not connected", not a problem
  const schema = useApi('/api/population/schema');
  const [justConnected, setJustConnected] = useState(undefined);
  const connected = schema.data?.database ?? justConnected;
  const onConnected = (answer) => {
    setJustConnected(answer.database);
    schema.reload();
  };
  return html`<${Layout} title="Population generator" nav=${[{ href: '/', label: 'Populations' }]} current="/">
    <p>Synthetic patients that are certainly not real people, as SQL, CSV, HL7 v2 or FHIR; seeded into a test database and removed again exactly.</p>
    <${ConnectSection} connected=${connected} onConnected=${onConnected} />
    ${schema.data ? html`<${SchemaSection} schema=${schema.data} />` : null}
    <${GenerateSection} query=${route.query} />
    <${JobSection} query=${route.query} connected=${connected} />
  <//>`;
}

startRouter((pathname) => pathname === '/');
mount(html`<${Population} />`);
document.body.dataset.loaded = 'true';
