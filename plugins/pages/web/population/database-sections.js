// Connect, schema and learn: the database the population is for. The connection string is sent once and never shown
// back (the field is emptied after a connect; the API names the database as provider://host:port/database only).
import { html, useState } from '../vendor/preact-htm.js';
import { api, useApi } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';

const PROVIDERS = [
  ['postgres', 'PostgreSQL'],
  ['mysql', 'MySQL or MariaDB'],
  ['sqlserver', 'SQL Server'],
];

/** The connect form; `onConnected` is told the answer (database label, tables). */
export function ConnectSection({ connected, onConnected }) {
  const [provider, setProvider] = useState('postgres');
  const [secret, setSecret] = useState('');
  const [state, setState] = useState({ error: undefined, busy: false });
  const connect = async () => {
    setState({ error: undefined, busy: true });
    try {
      const answer = await api('/api/population/connect', { method: 'POST', body: { provider, connectionString: secret } });
      setSecret('');
      setState({ error: undefined, busy: false });
      onConnected(answer);
    } catch (error) {
      setState({ error, busy: false });
    }
  };
  return html`<section class="panel" aria-labelledby="connect-heading">
    <h2 id="connect-heading">Database</h2>
    <p id="connected-database">${connected ? html`Connected to <strong>${connected}</strong>.` : 'Not connected: connect a test database to learn from and seed.'}</p>
    <form class="form population-form" onSubmit=${(event) => {
      event.preventDefault();
      connect();
    }}>
      <div class="filters">
        <label for="connect-provider">Database
          <select id="connect-provider" value=${provider} onChange=${(e) => setProvider(e.currentTarget.value)}>
            ${PROVIDERS.map(([value, text]) => html`<option value=${value} selected=${value === provider}>${text}</option>`)}
          </select>
        </label>
        <label for="connect-string">Connection string (kept in the service's memory only, never shown back)
          <input id="connect-string" type="password" autocomplete="off" required value=${secret} placeholder="postgres://user:password@127.0.0.1:5432/db" onInput=${(e) => setSecret(e.currentTarget.value)} />
        </label>
      </div>
      <div class="actions"><button type="submit" id="connect-run" disabled=${state.busy}>${state.busy ? 'Connecting…' : connected ? 'Connect another' : 'Connect'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not connect" />
  </section>`;
}

/** The schema as analysed at the connect, with the tables to learn from. */
export function SchemaSection({ schema }) {
  const [chosen, setChosen] = useState(() => new Set());
  const [sampleSize, setSampleSize] = useState('1000');
  const [name, setName] = useState('');
  const [state, setState] = useState({ learned: undefined, error: undefined, busy: false });
  const profiles = useApi('/api/population/profiles');
  const toggle = (table) => {
    const next = new Set(chosen);
    if (next.has(table)) next.delete(table);
    else next.add(table);
    setChosen(next);
  };
  const learn = async () => {
    setState({ learned: undefined, error: undefined, busy: true });
    try {
      const learned = await api('/api/population/learn', {
        method: 'POST',
        body: { tables: [...chosen], sampleSize: Number(sampleSize) || 1000, ...(name ? { name } : {}) },
      });
      setState({ learned, error: undefined, busy: false });
      profiles.reload();
    } catch (error) {
      setState({ learned: undefined, error, busy: false });
    }
  };
  return html`<section class="panel" aria-labelledby="schema-heading">
    <h2 id="schema-heading">Schema and learning</h2>
    <p>Insert order: ${schema.insertOrder.join(' → ') || '–'}${schema.cycles.length ? ` · ${schema.cycles.length} cycle(s)` : ''}</p>
    <form class="form population-form" onSubmit=${(event) => {
      event.preventDefault();
      learn();
    }}>
      <${Table}
        id="schema-tables"
        label="Tables"
        headers=${['Learn', 'Table', 'Rows', 'Columns', 'Primary key', 'References']}
        empty="The database has no tables."
        rows=${schema.tables.map(
          (table) => html`<tr>
            <td><input type="checkbox" id=${`learn-${table.name}`} aria-label=${`Learn from ${table.name}`} checked=${chosen.has(table.name)} onChange=${() => toggle(table.name)} /></td>
            <td>${table.name}</td>
            <td class="num">${table.rowCount.toLocaleString()}</td>
            <td class="num">${table.columns.length}</td>
            <td>${table.primaryKey.join(', ')}</td>
            <td>${table.foreignKeys.map((fk) => fk.refTable).join(', ')}</td>
          </tr>`,
        )}
      />
      <div class="filters">
        <label for="learn-sample">Sample rows per table<input id="learn-sample" type="number" min="1" max="100000" value=${sampleSize} onInput=${(e) => setSampleSize(e.currentTarget.value)} /></label>
        <label for="learn-name">Profile name (default: the database's)<input id="learn-name" value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>
      </div>
      <div class="actions"><button type="submit" id="learn-run" disabled=${state.busy || chosen.size === 0}>${state.busy ? 'Learning…' : 'Learn from the chosen tables'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not learn" />
    ${state.learned
      ? html`<p id="learned" role="status">Learned profile <strong>${state.learned.name}</strong>: ${state.learned.tables.map((t) => `${t.table} (${t.sampledRows} rows, ${t.columns.length} columns)`).join(', ')}; k = ${state.learned.k}; only aggregates are kept.</p>`
      : null}
    ${profiles.data?.length
      ? html`<p>Learned profiles: ${profiles.data.map((p) => `${p.name} (${p.tables.join(', ')})`).join('; ')}</p>`
      : null}
  </section>`;
}
