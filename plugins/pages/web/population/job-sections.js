// Generate, then seed and clean up: a generation job with its progress bar (fed by the job's own progress, polled),
// its files, its no-PHI attestation; the dry-run plan of a seed, the seed with its progress, and the cleanup of
// exactly what was seeded. The job, seed run and cleanup being followed are in the address (`job`, `seed`, `cleanup`).
import { html, useState } from '../vendor/preact-htm.js';
import { api, queryString, useApi } from '../shared/api.js';
import { Problem, Table } from '../shared/layout.js';
import { formatTime } from '../shared/duration.js';
import { updateQuery } from '../shared/router.js';
import { Progress, usePolled } from './progress.js';

const FORMATS = [
  ['sql', 'SQL script'],
  ['csv', 'CSV, one file per table'],
  ['hl7', 'HL7 v2 (ADT^A01, ORU^R01)'],
  ['fhir', 'FHIR R4 Bundles (NDJSON)'],
];

function bytes(n) {
  return n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}

/** The generate form; a submitted job becomes the one the address follows. */
export function GenerateSection({ query }) {
  const [form, setForm] = useState({ count: query.get('count') ?? '100', format: query.get('format') ?? 'sql', area: query.get('area') ?? 'us', seed: query.get('seed') ?? '', compress: false });
  const [state, setState] = useState({ error: undefined, busy: false });
  const jobs = useApi('/api/population/generate?limit=10');
  const set = (name) => (event) => setForm({ ...form, [name]: event.currentTarget.type === 'checkbox' ? event.currentTarget.checked : event.currentTarget.value });
  const submit = async () => {
    setState({ error: undefined, busy: true });
    try {
      const job = await api('/api/population/generate', {
        method: 'POST',
        body: { count: Number(form.count), format: form.format, geographicFocus: form.area, compress: form.compress, ...(form.seed === '' ? {} : { seed: Number(form.seed) }) },
      });
      setState({ error: undefined, busy: false });
      updateQuery({ job: job.jobId, count: form.count, format: form.format, area: form.area, seed: form.seed, seedRun: '', cleanup: '' }, { replace: false });
      jobs.reload();
    } catch (error) {
      setState({ error, busy: false });
    }
  };
  return html`<section class="panel" aria-labelledby="generate-heading">
    <h2 id="generate-heading">Generate a population</h2>
    <form class="form population-form" onSubmit=${(event) => {
      event.preventDefault();
      submit();
    }}>
      <div class="filters">
        <label for="generate-count">Patients (1 to 1,000,000)<input id="generate-count" type="number" min="1" max="1000000" required value=${form.count} onInput=${set('count')} /></label>
        <label for="generate-format">Format
          <select id="generate-format" value=${form.format} onChange=${set('format')}>${FORMATS.map(([value, text]) => html`<option value=${value} selected=${value === form.format}>${text}</option>`)}</select>
        </label>
        <label for="generate-area">Area ("us" or a state as "us-ca")<input id="generate-area" value=${form.area} onInput=${set('area')} /></label>
        <label for="generate-seed">Seed (empty: random)<input id="generate-seed" type="number" min="0" value=${form.seed} onInput=${set('seed')} /></label>
        <label for="generate-compress"><input id="generate-compress" type="checkbox" checked=${form.compress} onChange=${set('compress')} /> gzip the files</label>
      </div>
      <div class="actions"><button type="submit" id="generate-run" disabled=${state.busy}>${state.busy ? 'Submitting…' : 'Generate'}</button></div>
    </form>
    <${Problem} error=${state.error} prefix="Could not generate" />
    ${jobs.data?.jobs?.length
      ? html`<details><summary>Recent jobs (${jobs.data.jobs.length}; ${bytes(jobs.data.diskBytes)} on disk, ${bytes(jobs.data.freeBytes)} free)</summary>
          <ul>${jobs.data.jobs.map((job) => html`<li><a href=${`/${queryString({ job: job.jobId })}`}>${job.jobId}</a> · ${job.params.count.toLocaleString()} ${job.params.format} · ${job.state} · ${formatTime(job.createdAt)}</li>`)}</ul>
        </details>`
      : null}
  </section>`;
}

function Compliance({ jobId }) {
  const { data, error } = useApi(`/api/population/compliance/${encodeURIComponent(jobId)}`);
  if (error) return html`<${Problem} error=${error} prefix="No attestation" />`;
  if (!data) return html`<p class="loading">Checking…</p>`;
  return html`<div id="compliance">
    <p><span class=${`badge ${data.syntheticOnly && !data.phiDetected ? '' : 'bad'}`}>${data.syntheticOnly && !data.phiDetected ? 'Synthetic only, no PHI detected' : 'PHI suspected'}</span> seed ${data.seed} · output SHA-256 <code>${data.outputSha256.slice(0, 16)}…</code></p>
    <${Table} id="compliance-checks" label="Checks" headers=${['Check', 'Passed', 'Checked', 'Failed']} empty="" rows=${data.checks.map((c) => html`<tr><td title=${c.description}>${c.name}</td><td>${c.passed ? 'yes' : 'no'}</td><td class="num">${c.checked}</td><td class="num">${c.failed}</td></tr>`)} />
  </div>`;
}

function DryRun({ jobId }) {
  const [state, setState] = useState({ plan: undefined, error: undefined, busy: false });
  const run = async () => {
    setState({ plan: undefined, error: undefined, busy: true });
    try {
      setState({ plan: await api('/api/population/seed/dry-run', { method: 'POST', body: { jobId } }), error: undefined, busy: false });
    } catch (error) {
      setState({ plan: undefined, error, busy: false });
    }
  };
  const plan = state.plan;
  return html`<div>
    <button type="button" id="dry-run" onClick=${run} disabled=${state.busy}>${state.busy ? 'Planning…' : 'Dry run: show the plan'}</button>
    <${Problem} error=${state.error} prefix="No plan" />
    ${plan
      ? html`<div id="seed-plan"><p>Into ${plan.database} by ${plan.method}; ${plan.transactions}</p>
          <${Table} id="plan-steps" label="Seed plan" headers=${['Order', 'Table', 'Rows', 'Keys', 'From']} empty="Nothing to insert." rows=${plan.steps.map((s) => html`<tr><td class="num">${s.order}</td><td>${s.table}</td><td class="num">${s.rowCount.toLocaleString()}</td><td>${s.keys}</td><td>${s.from}</td></tr>`)} />
          ${plan.untouched.length ? html`<p class="muted">Left untouched: ${plan.untouched.map((u) => `${u.table} (${u.reason})`).join('; ')}</p>` : null}</div>`
      : null}
  </div>`;
}

/** The job the address follows: progress, files, attestation, and seeding into the connected database. */
export function JobSection({ query, connected }) {
  const jobId = query.get('job');
  const job = usePolled(jobId ? `/api/population/generate/${encodeURIComponent(jobId)}` : null);
  const seedRunId = query.get('seedRun');
  const seedRun = usePolled(seedRunId ? `/api/population/seed/${encodeURIComponent(seedRunId)}` : null);
  const cleanupId = query.get('cleanup');
  const cleanup = usePolled(cleanupId ? `/api/population/seed/cleanup/${encodeURIComponent(cleanupId)}` : null);
  const [action, setAction] = useState({ error: undefined, showCompliance: false });
  if (!jobId) return null;
  const data = job.data;
  const start = async (what) => {
    setAction({ ...action, error: undefined });
    try {
      if (what === 'seed') {
        const run = await api('/api/population/seed', { method: 'POST', body: { jobId } });
        updateQuery({ seedRun: run.seedRunId, cleanup: '' }, { replace: false });
      } else if (what === 'cleanup') {
        const run = await api('/api/population/seed/cleanup', { method: 'DELETE' });
        updateQuery({ cleanup: run.cleanupId }, { replace: false });
      } else if (what === 'cancel') {
        await api(`/api/population/generate/${encodeURIComponent(jobId)}`, { method: 'DELETE' });
        job.reload();
      }
    } catch (error) {
      setAction({ ...action, error });
    }
  };
  return html`<section class="panel" aria-labelledby="job-heading">
    <h2 id="job-heading">Job ${jobId}</h2>
    <${Problem} error=${job.error} />
    ${data
      ? html`
          <${Progress} id="job-progress" label="Generation" done=${data.progress.generated} total=${data.progress.total} percent=${data.progress.percent} state=${data.state} />
          <p>${data.params.count.toLocaleString()} patients · ${data.params.format} · ${data.params.geographicFocus} · seed ${data.params.seed}${data.params.targetDatabase ? ` · for ${data.params.targetDatabase}` : ''}</p>
          ${data.error ? html`<p class="problem" role="alert">${data.error}</p>` : null}
          ${Object.keys(data.counts).length ? html`<p>Rows: ${Object.entries(data.counts).map(([table, n]) => `${table} ${n.toLocaleString()}`).join(', ')}</p>` : null}
          ${data.files.length
            ? html`<${Table} id="job-files" label="Files" headers=${['File', 'Size', 'Records', 'SHA-256']} empty="" rows=${data.files.map(
                (f) => html`<tr><td>${f.downloadPath ? html`<a href=${f.downloadPath} download>${f.name}</a>` : f.name}</td><td class="num">${bytes(f.bytes)}</td><td class="num">${f.records.toLocaleString()}</td><td><code>${f.sha256.slice(0, 12)}…</code></td></tr>`,
              )} />`
            : null}
          <div class="actions">
            ${data.state === 'queued' || data.state === 'running' ? html`<button type="button" class="danger" onClick=${() => start('cancel')}>Cancel</button>` : null}
            ${data.state === 'completed' ? html`<button type="button" id="show-compliance" onClick=${() => setAction({ ...action, showCompliance: true })}>No-PHI attestation</button>` : null}
          </div>
          ${action.showCompliance && data.state === 'completed' ? html`<${Compliance} jobId=${jobId} />` : null}
          ${data.state === 'completed'
            ? html`<h3>Seed into the connected database</h3>
                ${connected
                  ? html`<${DryRun} jobId=${jobId} />
                      <div class="actions">
                        <button type="button" id="seed-run" onClick=${() => start('seed')}>Seed ${connected}</button>
                        <button type="button" id="cleanup-run" class="danger" onClick=${() => start('cleanup')}>Clean up what was seeded there</button>
                      </div>`
                  : html`<p class="muted">Connect a database above to plan and seed.</p>`}`
            : null}
          <${Problem} error=${action.error} prefix="Refused" />
          ${seedRun.data
            ? html`<${Progress} id="seed-progress" label="Seed" done=${seedRun.data.progress.inserted} total=${seedRun.data.progress.expected} percent=${seedRun.data.progress.percent} state=${seedRun.data.state} />
                ${seedRun.data.error ? html`<p class="problem" role="alert">${seedRun.data.error}</p>` : null}
                ${seedRun.data.tables.length ? html`<p>Inserted: ${seedRun.data.tables.map((t) => `${t.table} ${t.rows.toLocaleString()}`).join(', ')}</p>` : null}`
            : null}
          ${cleanup.data
            ? html`<${Progress} id="cleanup-progress" label="Cleanup" done=${cleanup.data.total} total=${cleanup.data.expected} state=${cleanup.data.state} />
                ${cleanup.data.error ? html`<p class="problem" role="alert">${cleanup.data.error}</p>` : null}`
            : null}
        `
      : html`<p class="loading">Loading the job…</p>`}
  </section>`;
}
