// DNS-rebinding and cross-site protection on all three base addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { BASES } from '../../kernel/plugin-host/plugin-manifest.ts';

let wb: TestWorkbench;
let withCors: TestWorkbench;

beforeAll(async () => {
  wb = await startTestWorkbench({ skipBundledPlugins: true, pluginDirs: [join(fixturesDir, 'plugins')] });
  withCors = await startTestWorkbench({
    skipBundledPlugins: true,
    pluginDirs: [join(fixturesDir, 'plugins')],
    config: { http: { allowedOrigins: ['http://localhost:3000/'] } },
  });
});
afterAll(async () => {
  await wb.stop();
  await withCors.stop();
});

describe('Host header', () => {
  it.each(BASES)('refuses a forged Host on the %s base with 403', async (base) => {
    const res = await wb.call(base, { path: '/openapi.json', headers: { host: 'attacker.example:80' } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('HOST_NOT_ALLOWED');
  });

  it.each(BASES)('refuses a missing Host on the %s base with 403', async (base) => {
    const res = await wb.call(base, { path: '/openapi.json', omitHost: true });
    expect(res.status).toBe(403);
  });

  it('refuses a loopback name with another port', async () => {
    const port = new URL(wb.urls.monitor).port;
    const res = await wb.call('monitor', { path: '/openapi.json', headers: { host: `127.0.0.1:${Number(port) + 1}` } });
    expect(res.status).toBe(403);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('accepts %s:PORT', async (name) => {
    const port = new URL(wb.urls.monitor).port;
    const res = await wb.call('monitor', { path: '/openapi.json', headers: { host: `${name}:${port}` } });
    expect(res.status).toBe(200);
  });
});

describe('Origin header', () => {
  it.each(BASES)('refuses a state-changing request from a foreign origin on the %s base', async (base) => {
    const res = await wb.call(base, {
      method: 'POST',
      path: '/api/sample/notes',
      body: { text: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('ORIGIN_NOT_ALLOWED');
  });

  it('accepts a state-changing request from its own loopback origin', async () => {
    const res = await wb.call('monitor', {
      path: '/api/sample/notes',
      body: { text: 'x' },
      headers: { origin: wb.urls.monitor },
    });
    expect(res.status).toBe(201);
  });

  it('sends no CORS headers unless the config names the origin', async () => {
    const plain = await wb.call('monitor', { path: '/openapi.json', headers: { origin: 'http://localhost:3000' } });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    const allowed = await withCors.call('monitor', { path: '/openapi.json', headers: { origin: 'http://localhost:3000' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const post = await withCors.call('monitor', {
      path: '/api/sample/notes',
      body: { text: 'from the allowed app' },
      headers: { origin: 'http://localhost:3000' },
    });
    expect(post.status).toBe(201);
    const preflight = await withCors.call('monitor', {
      method: 'OPTIONS',
      path: '/api/sample/notes',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
  });
});

describe('Sec-Fetch-Site (a request a browser marks as from another site)', () => {
  it.each(BASES)('refuses a cross-site GET of data on the %s base (an <img> or link to an API route)', async (base) => {
    const res = await wb.call(base, { path: '/api/sample/notes/1', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('CROSS_SITE_REFUSED');
    expect(res.json.error.message).toContain('cross-site');
  });

  it('refuses same-site from another loopback port, with or without its Origin, on every method', async () => {
    const port = Number(new URL(wb.urls.monitor).port);
    const otherPort = `http://127.0.0.1:${port + 1}`;
    const img = await wb.call('monitor', { path: '/api/sample/notes/1', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' } });
    expect(img.status).toBe(403);
    const fetched = await wb.call('monitor', { path: '/api/sample/notes/1', headers: { 'sec-fetch-site': 'same-site', origin: otherPort } });
    expect(fetched.status).toBe(403);
    const navigated = await wb.call('monitor', { path: '/api/sample/notes/1', headers: { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' } });
    expect(navigated.status).toBe(403);
    const posted = await wb.call('monitor', { method: 'POST', path: '/api/sample/notes', body: { text: 'x' }, headers: { 'sec-fetch-site': 'same-site' } });
    expect(posted.status).toBe(403);
    expect(posted.json.error.code).toBe('CROSS_SITE_REFUSED');
  });

  it("keeps the pages' own requests, typed-in addresses, other tools, allowed origins and links to a page working", async () => {
    const created = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'kept' }, headers: { 'sec-fetch-site': 'same-origin', origin: wb.urls.monitor } });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    const kept: Array<Record<string, string>> = [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, {}];
    for (const headers of kept) {
      expect((await wb.call('monitor', { path: `/api/sample/notes/${id}`, headers })).status).toBe(200);
    }
    const allowed = await withCors.call('monitor', { path: '/openapi.json', headers: { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' } });
    expect(allowed.status).toBe(200);
    // a link from another site to a page (not /api/) still opens it
    const link = await wb.call('monitor', { path: '/openapi.json', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    expect(link.status).toBe(200);
  });
});
