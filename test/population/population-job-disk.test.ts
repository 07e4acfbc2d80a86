// Population jobs and the disk: a finished job is removed with its files, jobs are listed with the disk they take,
// files can be written gzip-compressed (served with Content-Encoding: gzip, same content and SHA-256), and a job the
// disk cannot hold is refused with 507 before it writes anything.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { startTestWorkbench, useTestWorkbench } from '../helpers/test-workbench.ts';
import { generateAndWait } from './population-test-kit.ts';

const wb = useTestWorkbench({ onlyPlugins: new Set(['population']) });

/** The bytes of a download exactly as sent (no decoding), with the headers. */
function download(path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, wb.urls.population), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const jobFolder = (id: string) => join(wb.dataDir, 'population', 'jobs', id);

describe('population jobs on disk', () => {
  it('writes compressed files that download with Content-Encoding: gzip and decode to the same content', async () => {
    const plain = await generateAndWait(wb, { count: 40, format: 'csv', seed: 11 });
    const packed = await generateAndWait(wb, { count: 40, format: 'csv', seed: 11, compress: true });
    expect(packed.state).toBe('completed');
    const plainFile = plain.files.find((f: { name: string }) => f.name === 'patients.csv');
    const packedFile = packed.files.find((f: { name: string }) => f.name === 'patients.csv');
    expect(packedFile).toMatchObject({ encoding: 'gzip', sha256: plainFile.sha256 });
    expect(packedFile.bytes).toBeLessThan(plainFile.bytes / 2);
    expect(readdirSync(jobFolder(packed.jobId))).toContain('patients.csv.gz');
    const sent = await download(packedFile.downloadPath);
    expect(sent.status).toBe(200);
    expect(sent.headers['content-encoding']).toBe('gzip');
    expect(Number(sent.headers['content-length'])).toBe(packedFile.bytes);
    const content = gunzipSync(sent.body);
    expect(createHash('sha256').update(content).digest('hex')).toBe(plainFile.sha256);
    const unpacked = await download(plainFile.downloadPath);
    expect(unpacked.headers['content-encoding']).toBeUndefined();
    expect(unpacked.body.equals(content)).toBe(true);
  });

  it('lists jobs newest first with the disk their files take, and removes a finished job with its files', async () => {
    const job = await generateAndWait(wb, { count: 20, format: 'hl7', seed: 12 });
    const listed = await wb.call('population', { path: '/api/population/generate?limit=50' });
    expect(listed.status).toBe(200);
    const entry = listed.json.data.jobs[0];
    expect(entry.jobId).toBe(job.jobId);
    expect(entry.diskBytes).toBe(job.files.reduce((n: number, f: { bytes: number }) => n + f.bytes, 0));
    const total = listed.json.data.jobs.reduce((n: number, j: { diskBytes: number }) => n + j.diskBytes, 0);
    expect(listed.json.data.diskBytes).toBe(total);
    expect(listed.json.data.freeBytes).toBeGreaterThan(0);
    expect(existsSync(jobFolder(job.jobId))).toBe(true);
    const removed = await wb.call('population', { method: 'DELETE', path: `/api/population/generate/${job.jobId}` });
    expect(removed.status).toBe(200);
    expect(removed.json.data).toMatchObject({ jobId: job.jobId, state: 'completed', deleted: true });
    expect(existsSync(jobFolder(job.jobId))).toBe(false);
    expect((await wb.call('population', { path: `/api/population/generate/${job.jobId}` })).status).toBe(404);
    const after = await wb.call('population', { path: '/api/population/generate?limit=50' });
    expect(after.json.data.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect(after.json.data.diskBytes).toBe(total - entry.diskBytes);
  });

  it('answers 404 CLEANUP_NOT_FOUND for a cleanup id it does not know', async () => {
    const res = await wb.call('population', { path: '/api/population/seed/cleanup/clean_nope' });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('CLEANUP_NOT_FOUND');
  });

  it('refuses with 507 a job whose estimated size exceeds the free disk, before writing anything', async () => {
    const small = await startTestWorkbench({ onlyPlugins: new Set(['population']), config: { plugins: { population: { diskReserveMb: 90_000_000 } } } });
    try {
      const refused = await small.call('population', { path: '/api/population/generate', body: { count: 1000, format: 'fhir' } });
      expect(refused.status).toBe(507);
      expect(refused.json.error.code).toBe('POPULATION_DISK_FULL');
      expect(refused.json.error.message).toMatch(/would write about 54\.4 MB but 0 bytes is free/);
      expect(refused.json.error.message).toContain('compress: true');
      const listed = await small.call('population', { path: '/api/population/generate' });
      expect(listed.json.data.jobs).toEqual([]);
    } finally {
      await small.stop();
    }
  });
});
