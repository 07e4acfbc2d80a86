/**
 * Generation through the real HTTP interface: jobs and their states, files streamed to disk and downloaded, every
 * format (HL7 and FHIR output validated strictly through the standards registry on the bridge), same seed same bytes,
 * analytics against targets, the no-PHI attestation, cancel, restart survival and bad input.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { generateAndWait, waitFor } from './population-test-kit.ts';

let wb: TestWorkbench;

beforeAll(async () => {
  wb = await startTestWorkbench();
});

afterAll(async () => {
  await wb.stop();
});

async function download(jobId: string, name: string): Promise<string> {
  const r = await wb.call('population', { path: `/api/population/generate/${jobId}/files/${name}` });
  expect(r.status).toBe(200);
  return r.text;
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r') continue;
    else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

describe('POST /api/population/generate', () => {
  it('runs a csv job to completion with one file per table whose rows reference each other', async () => {
    const job = await generateAndWait(wb, { count: 60, format: 'csv', geographicFocus: 'us-ca', seed: 11 });
    expect(job.state).toBe('completed');
    expect(job.progress).toEqual({ generated: 60, total: 60, percent: 100 });
    expect(job.files.map((f: { name: string }) => f.name)).toEqual(['patients.csv', 'encounters.csv', 'conditions.csv', 'observations.csv', 'medications.csv', 'allergies.csv']);
    const patients = parseCsv(await download(job.jobId, 'patients.csv'));
    expect(patients[0]).toContain('birth_date');
    expect(patients.length - 1).toBe(60);
    const stateColumn = patients[0].indexOf('state');
    expect(new Set(patients.slice(1).map((p) => p[stateColumn]))).toEqual(new Set(['CA']));
    const encounters = parseCsv(await download(job.jobId, 'encounters.csv'));
    expect(encounters.length - 1).toBe(job.counts.encounters);
    const patientIds = new Set(patients.slice(1).map((p) => p[0]));
    for (const e of encounters.slice(1)) expect(patientIds.has(e[1])).toBe(true);
    const observations = parseCsv(await download(job.jobId, 'observations.csv'));
    const header = observations[0];
    for (const o of observations.slice(1)) {
      expect(o[header.indexOf('loinc_code')]).toMatch(/^\d{1,5}-\d$/);
      expect(o[header.indexOf('unit')]).not.toBe('');
    }
  });

  it('gives the same bytes for the same seed and different bytes for another seed', async () => {
    const a = await generateAndWait(wb, { count: 40, format: 'sql', seed: 5 });
    const b = await generateAndWait(wb, { count: 40, format: 'sql', seed: 5 });
    const c = await generateAndWait(wb, { count: 40, format: 'sql', seed: 6 });
    expect(a.files[0].sha256).toBe(b.files[0].sha256);
    expect(a.files[0].sha256).not.toBe(c.files[0].sha256);
    const text = await download(a.jobId, 'population.sql');
    expect(createHash('sha256').update(text).digest('hex')).toBe(a.files[0].sha256);
    expect(text).toContain('CREATE TABLE "patients"');
    expect(text).toContain('INSERT INTO "encounters"');
    expect(text.trimEnd().endsWith('COMMIT;')).toBe(true);
  });

  it('writes HL7 v2.5.1 ADT and ORU messages that validate clean in strict mode', async () => {
    const job = await generateAndWait(wb, { count: 25, format: 'hl7', seed: 3 });
    const text = await download(job.jobId, 'population.hl7');
    expect(text).toContain('ADT^A01^ADT_A01');
    expect(text).toContain('ORU^R01^ORU_R01');
    const r = await wb.call('bridge', { path: '/api/validate', body: { messageContent: text, standard: 'hl7', mode: 'strict' } });
    expect(r.status).toBe(200);
    expect(r.json.data.errors).toEqual([]);
    expect(r.json.data.isValid).toBe(true);
    expect(r.json.data.summary.messageCount).toBeGreaterThan(25);
  });

  it('writes FHIR transaction Bundles that validate clean', async () => {
    const job = await generateAndWait(wb, { count: 12, format: 'fhir', seed: 8 });
    const bundles = (await download(job.jobId, 'population.ndjson')).trim().split('\n');
    expect(bundles).toHaveLength(12);
    for (const bundle of bundles) {
      expect(JSON.parse(bundle).type).toBe('transaction');
      const r = await wb.call('bridge', { path: '/api/validate', body: { messageContent: bundle, standard: 'fhir', mode: 'strict' } });
      expect(r.json.data.errors).toEqual([]);
      expect(r.json.data.isValid).toBe(true);
    }
  });

  it('reports analytics against the census targets and a passing no-PHI attestation', async () => {
    const job = await generateAndWait(wb, { count: 3000, format: 'csv', geographicFocus: 'us', seed: 21 });
    const analytics = (await wb.call('population', { path: `/api/population/generate/${job.jobId}/analytics` })).json.data;
    expect(analytics.patients).toBe(3000);
    expect(analytics.agePyramid).toHaveLength(18);
    for (const dimension of ['agePyramid', 'sex', 'race', 'ethnicity']) {
      // 3,000 draws land within a few points of every target share.
      expect(analytics.largestDifference[dimension], dimension).toBeLessThan(4);
    }
    const female = analytics.sex.find((s: { key: string }) => s.key === 'F');
    expect(female.targetPercent).toBeGreaterThan(49);
    const hypertension = analytics.conditionPrevalence.find((c: { key: string }) => c.key === '38341003');
    expect(Math.abs(hypertension.difference)).toBeLessThan(4);
    const prostate = analytics.conditionPrevalence.find((c: { key: string }) => c.key === '266569009');
    expect(prostate.count).toBeGreaterThan(0);

    const attestation = (await wb.call('population', { path: `/api/population/compliance/${job.jobId}` })).json.data;
    expect(attestation.syntheticOnly).toBe(true);
    expect(attestation.phiDetected).toBe(false);
    expect(attestation.seed).toBe(21);
    expect(attestation.outputSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(attestation.checks.map((c: { name: string }) => c.name)).toEqual([
      'phone-fictional-range',
      'email-reserved-domain',
      'ssn-never-issued',
      'mrn-synthetic-prefix',
      'names-from-generator-lists',
      'addresses-from-generator-lists',
      'no-match-with-learned-sample',
    ]);
    for (const check of attestation.checks) expect(check.checked).toBe(3000);
  });

  it('keeps men without female-only conditions and children without adult medications', async () => {
    const job = await generateAndWait(wb, { count: 800, format: 'csv', seed: 2 });
    const patients = parseCsv(await download(job.jobId, 'patients.csv'));
    const conditions = parseCsv(await download(job.jobId, 'conditions.csv'));
    const medications = parseCsv(await download(job.jobId, 'medications.csv'));
    const sexOf = new Map(patients.slice(1).map((p) => [p[0], p[patients[0].indexOf('sex')]]));
    const birthOf = new Map(patients.slice(1).map((p) => [p[0], p[patients[0].indexOf('birth_date')]]));
    for (const c of conditions.slice(1)) expect(c[conditions[0].indexOf('onset_date')] >= (birthOf.get(c[1]) ?? '')).toBe(true);
    // benign prostatic hyperplasia: men only
    const prostate = conditions.slice(1).filter((c) => c[conditions[0].indexOf('snomed_code')] === '266569009');
    expect(prostate.length).toBeGreaterThan(0);
    expect(new Set(prostate.map((c) => sexOf.get(c[1])))).toEqual(new Set(['M']));
    // an adult medication: patients born in 2007 or before
    const adult = medications.slice(1).filter((m) => m[medications[0].indexOf('rxnorm_code')] === '197361');
    expect(adult.length).toBeGreaterThan(0);
    expect(adult.filter((m) => Number(birthOf.get(m[1])?.slice(0, 4)) > 2007)).toEqual([]);
  });

  it('answers 409 for analytics of a running job, cancels it, removes it once finished, and 404 for an unknown job', async () => {
    // A job long enough to be caught running, small enough on disk (compressed CSV) for any machine's free space.
    const submitted = await wb.call('population', { path: '/api/population/generate', body: { count: 1_000_000, format: 'csv', compress: true, seed: 1 } });
    expect(submitted.status).toBe(202);
    const id = submitted.json.data.jobId;
    const early = await wb.call('population', { path: `/api/population/generate/${id}/analytics` });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe('POPULATION_JOB_NOT_COMPLETED');
    const cancel = await wb.call('population', { method: 'DELETE', path: `/api/population/generate/${id}` });
    expect(cancel.status).toBe(200);
    const final = await waitFor('cancel', async () => {
      const r = await wb.call('population', { path: `/api/population/generate/${id}` });
      return r.json.data.state === 'cancelled' ? r.json.data : undefined;
    });
    expect(final.files).toEqual([]);
    const removed = await wb.call('population', { method: 'DELETE', path: `/api/population/generate/${id}` });
    expect(removed.status).toBe(200);
    expect(removed.json.data).toMatchObject({ jobId: id, state: 'cancelled', deleted: true });
    expect((await wb.call('population', { path: `/api/population/generate/${id}` })).status).toBe(404);
    for (const path of [`/api/population/generate/nope`, `/api/population/generate/nope/analytics`, `/api/population/compliance/nope`]) {
      const r = await wb.call('population', { path });
      expect(r.status, path).toBe(404);
      expect(r.json.error.code).toBe('POPULATION_JOB_NOT_FOUND');
    }
  });

  it('refuses bad input with 400 naming the problem', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ count: 0 }, /count/],
      [{ count: 1_000_001 }, /count/],
      [{ format: 'xml' }, /format/],
      [{ geographicFocus: 'us-zz' }, /us-zz/],
      [{ geographicFocus: 'mars' }, /mars/],
      [{ seed: -1 }, /seed/],
      [{ extra: true }, /extra/],
    ];
    for (const [body, pattern] of cases) {
      const r = await wb.call('population', { path: '/api/population/generate', body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json.error), JSON.stringify(body)).toMatch(pattern);
    }
    const missingFile = await generateAndWait(wb, { count: 1, format: 'hl7', seed: 1 });
    const r = await wb.call('population', { path: `/api/population/generate/${missingFile.jobId}/files/patients.csv` });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('POPULATION_FILE_NOT_FOUND');
  });

  it('answers 409 to seed, dry-run and learn before a database is connected', async () => {
    const job = await generateAndWait(wb, { count: 1, format: 'csv', seed: 1 });
    for (const [path, body] of [
      ['/api/population/seed', { jobId: job.jobId }],
      ['/api/population/seed/dry-run', { jobId: job.jobId }],
      ['/api/population/learn', { tables: ['patients'] }],
    ] as const) {
      const r = await wb.call('population', { path, body });
      expect(r.status, path).toBe(409);
      expect(r.json.error.code).toBe('DATABASE_NOT_CONNECTED');
      expect(r.json.error.message).toMatch(/connect first/);
    }
    const schema = await wb.call('population', { path: '/api/population/schema' });
    expect(schema.status).toBe(409);
  });
});

describe('the population base', () => {
  it('documents every population route in its OpenAPI document', async () => {
    const r = await wb.call('population', { path: '/openapi.json' });
    expect(r.status).toBe(200);
    for (const path of [
      '/api/population/connect',
      '/api/population/schema',
      '/api/population/learn',
      '/api/population/profiles/{name}',
      '/api/population/generate/{id}/analytics',
      '/api/population/seed/dry-run',
      '/api/population/seed/cleanup',
      '/api/population/compliance/{id}',
    ]) {
      expect(Object.keys(r.json.paths), path).toContain(path);
    }
  });

  it('answers 402 below the professional tier', async () => {
    const free = await startTestWorkbench({ config: { tier: 'free' } });
    try {
      const r = await free.call('population', { path: '/api/population/generate', body: { count: 1 } });
      expect(r.status).toBe(402);
      expect(r.json.error.code).toBe('TIER_REQUIRED');
    } finally {
      await free.stop();
    }
  });
});

describe('a job interrupted by a stop', () => {
  it('is failed with the reason after the restart, never lost', async () => {
    const first = await startTestWorkbench();
    const submitted = await first.call('population', { path: '/api/population/generate', body: { count: 1_000_000, format: 'csv', seed: 4 } });
    const id = submitted.json.data.jobId;
    await waitFor('job running', async () => {
      const r = await first.call('population', { path: `/api/population/generate/${id}` });
      return r.json.data.state === 'running' ? true : undefined;
    });
    await first.workbench.stop();
    const second = await startTestWorkbench({ config: { dataDir: first.dataDir } });
    try {
      const r = await second.call('population', { path: `/api/population/generate/${id}` });
      expect(r.json.data.state).toBe('failed');
      expect(r.json.data.error).toMatch(/stopped|restarted/);
    } finally {
      await second.stop();
      await first.stop().catch(() => undefined);
    }
  });
});

describe('job retention', () => {
  it('removes finished jobs and their files past jobRetentionDays at start, and keeps recent ones', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00Z');
    const first = await startTestWorkbench({ clock, config: { plugins: { population: { jobRetentionDays: 14 } } } });
    let second: Awaited<ReturnType<typeof startTestWorkbench>> | undefined;
    try {
      const old = await generateAndWait(first, { count: 3, format: 'csv', seed: 11 });
      clock.advance(10 * 86_400_000);
      const recent = await generateAndWait(first, { count: 3, format: 'csv', seed: 12 });
      const oldFolder = join(first.dataDir, 'population', 'jobs', old.jobId);
      expect(existsSync(oldFolder)).toBe(true);
      await first.workbench.stop();
      // 15 days after the first job finished, 5 after the second
      clock.advance(5 * 86_400_000 + 60_000);
      second = await startTestWorkbench({ clock, config: { dataDir: first.dataDir, plugins: { population: { jobRetentionDays: 14 } } } });
      const gone = await second.call('population', { path: `/api/population/generate/${old.jobId}` });
      expect(gone.status).toBe(404);
      expect(existsSync(oldFolder)).toBe(false);
      const kept = await second.call('population', { path: `/api/population/generate/${recent.jobId}` });
      expect(kept.status).toBe(200);
      expect(kept.json.data.state).toBe('completed');
      expect(existsSync(join(first.dataDir, 'population', 'jobs', recent.jobId))).toBe(true);
    } finally {
      await second?.stop();
      await first.stop().catch(() => undefined);
    }
  });
});
