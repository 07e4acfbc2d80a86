// The envelope and status table of the kernel, driven through real HTTP with the sample-notes fixture plugin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';

let wb: TestWorkbench;

beforeAll(async () => {
  wb = await startTestWorkbench({
    skipBundledPlugins: true,
    pluginDirs: [join(fixturesDir, 'plugins')],
    config: { http: { bodyLimitBytes: 4096 }, plugins: { 'sample-notes': { greeting: 'hi' } } },
  });
});
afterAll(() => wb.stop());

describe('envelope and statuses', () => {
  it('wraps success in {success, data, error: null} with the declared status', async () => {
    const res = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'first' } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, data: expect.objectContaining({ id: 1, text: 'first' }), error: null });
  });

  it('stores through storage and reads back by id; events reach listeners; config section reaches the plugin', async () => {
    const created = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'kept' } });
    const read = await wb.call('monitor', { path: `/api/sample/notes/${created.json.data.id}` });
    expect(read.status).toBe(200);
    expect(read.json.data.text).toBe('kept');
    const events = await wb.call('monitor', { path: '/api/sample/events' });
    expect(events.json.data.seen).toContain('kept');
    expect(events.json.data.greeting).toBe('hi');
  });

  it('answers 400 VALIDATION_FAILED naming every bad path', async () => {
    const res = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 5, tags: 'x', extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.data).toBeNull();
    expect(res.json.error.code).toBe('VALIDATION_FAILED');
    const paths = res.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['text', 'tags']));
    expect(res.json.error.details.every((d: { location: string }) => d.location === 'body')).toBe(true);
  });

  it('answers 400 for bad params and a plugin catalogue error with its own code', async () => {
    const bad = await wb.call('monitor', { path: '/api/sample/notes/abc' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details[0]).toMatchObject({ location: 'params', path: 'id' });
    const empty = await wb.call('monitor', { path: '/api/sample/notes', body: { text: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.error.code).toBe('SAMPLE_NOTE_EMPTY');
  });

  it('answers 400 INVALID_JSON for a malformed body', async () => {
    const res = await wb.call('monitor', {
      path: '/api/sample/notes',
      rawBody: '{"text": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_JSON');
  });

  it('answers 404 for an unknown route and for an unknown id', async () => {
    const route = await wb.call('monitor', { path: '/api/nothing-here' });
    expect(route.status).toBe(404);
    expect(route.json).toMatchObject({ success: false, data: null, error: { code: 'ROUTE_NOT_FOUND' } });
    const id = await wb.call('monitor', { path: '/api/sample/notes/999' });
    expect(id.status).toBe(404);
    expect(id.json.error).toMatchObject({ code: 'NOT_FOUND', message: 'Note 999 was not found.' });
  });

  it('answers 413 over the configured body limit', async () => {
    const res = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.json.error.message).toContain('4096');
  });

  it('answers 415 for a non-JSON body on a JSON route', async () => {
    const res = await wb.call('monitor', {
      path: '/api/sample/notes',
      rawBody: 'text=hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(res.json.error.message).toContain('text/plain');
  });

  it('answers 500 without stack traces or internals', async () => {
    const res = await wb.call('monitor', { path: '/api/sample/crash' });
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe('INTERNAL_ERROR');
    expect(res.text).not.toMatch(/hunter2|\/home\/user|at .*\.ts/);
  });

  it('serves the OpenAPI document and the docs page on each base', async () => {
    for (const base of ['bridge', 'monitor', 'population'] as const) {
      const doc = await wb.call(base, { path: '/openapi.json' });
      expect(doc.status).toBe(200);
      expect(doc.json.openapi).toMatch(/^3\./);
      const docs = await wb.call(base, { path: '/docs' });
      expect(docs.status).toBe(200);
      expect(docs.headers['content-type']).toContain('text/html');
      expect(docs.text).toContain('swagger-ui');
    }
    const monitor = await wb.call('monitor', { path: '/openapi.json' });
    expect(Object.keys(monitor.json.paths)).toEqual(
      expect.arrayContaining(['/api/sample/notes', '/api/sample/notes/{id}', '/api/sample/admin']),
    );
    expect(monitor.json.paths['/api/sample/notes'].post.responses['402']).toBeDefined();
    const bridge = await wb.call('bridge', { path: '/openapi.json' });
    expect(bridge.json.paths['/api/sample/notes']).toBeUndefined();
    const asset = await wb.call('monitor', { path: '/docs/swagger-ui-bundle.js' });
    expect(asset.status).toBe(200);
  });
});
