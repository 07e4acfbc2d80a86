// DNS-rebinding and cross-site protection on all three base addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { BASES } from '../../kernel/plugin-manifest.ts';

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
