// The pages over HTTP: each base's shell with a strict CSP and no inline script, the real addresses of the three
// bases in it (never a fixed port), its one bundled script and one stylesheet served from this service under names
// that change with their content and cached for good (the view and chart libraries inside; nothing from a CDN),
// unknown files refused, and the loopback Host guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalyticsHarness, type MonitorHarness } from '../analytics/analytics-harness.ts';

const BASES = ['monitor', 'bridge', 'population'] as const;

describe('page routes', () => {
  let h: MonitorHarness;

  beforeAll(async () => {
    h = await startAnalyticsHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('serves each base a shell with a strict policy, one same-origin script module and no inline script', async () => {
    for (const base of BASES) {
      const page = await h.wb.call(base, { method: 'GET', path: '/' });
      expect(page.status, base).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBe(1);
      expect(scripts[0]?.[1]).toMatch(new RegExp(`src="/pages/assets/${base}-[A-Za-z0-9]+\\.js"`));
      expect(scripts[0]?.[2]?.trim()).toBe('');
      expect(page.text).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it('gives the pages the addresses the bases really listen on', async () => {
    const page = await h.wb.call('bridge', { method: 'GET', path: '/' });
    for (const base of BASES) {
      expect(page.text).toContain(`<meta name="workbench-address-${base}" content="${h.wb.urls[base]}">`);
    }
    expect(h.wb.urls.monitor).not.toContain(':5100');
    const links = [...page.text.matchAll(/https?:\/\/[^"]+/g)].map((m) => m[0]);
    for (const link of links) expect(Object.values(h.wb.urls)).toContain(link);
  });

  it('serves each base one script and one stylesheet, cached for good, the chart library later, the first load under 150 KB', async () => {
    const chunks: string[] = [];
    for (const base of BASES) {
      const shell = (await h.wb.call(base, { method: 'GET', path: '/' })).text;
      const script = /<script type="module" src="([^"]+)">/.exec(shell)?.[1] as string;
      const sheets = [...shell.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1] as string);
      expect(sheets, base).toHaveLength(1);
      expect(shell).not.toContain('modulepreload');
      let bytes = Buffer.byteLength(shell);
      for (const path of [script, ...sheets]) {
        const asset = await h.wb.call(base, { method: 'GET', path });
        expect(asset.status, path).toBe(200);
        expect(asset.headers['content-type'], path).toMatch(path.endsWith('.js') ? /javascript/ : /css/);
        expect(asset.headers['x-content-type-options']).toBe('nosniff');
        expect(asset.headers['cache-control']).toContain('immutable');
        bytes += Buffer.byteLength(asset.text);
        // nothing the browser would have to resolve: no bare package name, no other module fetched before the page runs
        expect(asset.text, path).not.toMatch(/\bimport\s*[^('"\s][^;]*?from\s*['"]/);
        expect(asset.text, path).not.toMatch(/^import\s*['"]/m);
      }
      expect(bytes, base).toBeLessThan(150 * 1024);
      const later = [...(await h.wb.call(base, { method: 'GET', path: script })).text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => new URL(m[1] as string, `http://x${script}`).pathname);
      // only the dashboard imports something later: the chart library, when it first draws a chart
      expect(later, base).toHaveLength(base === 'monitor' ? 1 : 0);
      chunks.push(...later);
    }
    const chart = await h.get(chunks[0] as string);
    expect(chart.status).toBe(200);
    expect(chart.text).toContain('uplot');
    expect(chart.headers['cache-control']).toContain('immutable');
  });

  it('refuses a file that is not one of the pages, and another base\'s script', async () => {
    expect((await h.get('/pages/assets/../../package.json')).status).not.toBe(200);
    const unknown = await h.get('/pages/assets/secret.js');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    const malformed = await h.get('/pages/assets/..%2Fapp.js');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('VALIDATION_FAILED');
    const bridgeScript = /<script type="module" src="([^"]+)">/.exec((await h.wb.call('bridge', { method: 'GET', path: '/' })).text)?.[1] as string;
    expect((await h.wb.call('bridge', { method: 'GET', path: bridgeScript })).status).toBe(200);
    expect((await h.get(bridgeScript)).status).toBe(404);
  });

  it('keeps the loopback Host guard on the pages', async () => {
    const refused = await h.wb.call('monitor', { method: 'GET', path: '/', headers: { host: 'evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('HOST_NOT_ALLOWED');
  });
});
