// The web pages over HTTP: the dashboard page with a strict CSP and no inline script, its assets served from this
// service (uPlot from its npm package; nothing from a CDN), the loopback Host guard, and the landing pages of the
// bridge and population bases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalyticsHarness, type MonitorHarness } from './analytics-harness.ts';

describe('web pages', () => {
  let h: MonitorHarness;
  const dashboardUrl = 'http://127.0.0.1:5999/';

  beforeAll(async () => {
    h = await startAnalyticsHarness({ analytics: { dashboardUrl } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('serves the dashboard with a strict Content-Security-Policy and only same-origin script files', async () => {
    const page = await h.get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/dashboard\//);
      expect(body.trim()).toBe('');
    }
    expect(page.text).not.toMatch(/https?:\/\//);
  });

  it('serves every asset the page names, the whole first load under 300 KB', async () => {
    const page = await h.get('/');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBe(4);
    let bytes = Buffer.byteLength(page.text);
    for (const path of assets) {
      const asset = await h.get(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers['content-type'], path).toMatch(/javascript|css/);
      bytes += Buffer.byteLength(asset.text);
    }
    expect(bytes).toBeLessThan(300 * 1024);
    expect((await h.get('/dashboard/../../package.json')).status).not.toBe(200);
    expect((await h.get('/dashboard/secret.js')).status).toBe(400);
  });

  it('keeps the loopback Host guard on the page', async () => {
    const refused = await h.wb.call('monitor', { method: 'GET', path: '/', headers: { host: 'evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('HOST_NOT_ALLOWED');
  });

  it('serves on the bridge and population bases a page linking their docs and the dashboard', async () => {
    for (const base of ['bridge', 'population'] as const) {
      const page = await h.wb.call(base, { method: 'GET', path: '/' });
      expect(page.status, base).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(String(page.headers['content-security-policy'])).toContain("default-src 'none'");
      expect(page.text).toContain('href="/docs"');
      expect(page.text).toContain(`href="${dashboardUrl}"`);
    }
  });
});
