// The pages over HTTP: each base's shell with a strict CSP and no inline script, the real addresses of the three
// bases in it (never a fixed port), its files served from this service (the view and chart libraries from their npm
// packages; nothing from a CDN), unknown files refused, and the loopback Host guard.
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
      expect(scripts[0]?.[1]).toContain(`src="/pages/${base}/app.js"`);
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

  it('serves every module the pages import, names each in the shell for preloading, the first load under 300 KB', async () => {
    const shell = (await h.get('/')).text;
    const preloaded = new Set([...shell.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1] as string));
    const seen = new Set<string>();
    const later = new Set<string>();
    const queue = ['/pages/monitor/app.js', ...[...shell.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1] as string)];
    let bytes = Buffer.byteLength(shell);
    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (seen.has(path)) continue;
      seen.add(path);
      const asset = await h.get(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers['content-type'], path).toMatch(/javascript|css/);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      bytes += Buffer.byteLength(asset.text);
      // the libraries are single modules with no import of their own; the pages' modules are read for theirs
      if (path.startsWith('/pages/vendor/')) continue;
      for (const [, target] of asset.text.matchAll(/^(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)) {
        // every import is a relative path (no bare package name the browser could not resolve)
        expect(target, `${path} imports ${target}`).toMatch(/^\.\.?\//);
        const resolved = new URL(target as string, `http://x${path}`).pathname;
        // asked for with the shell, not one level of imports after another
        expect(preloaded, `${resolved} (imported by ${path}) is preloaded`).toContain(resolved);
        queue.push(resolved);
      }
      // a module imported when first wanted (the chart library) is served, but not part of the first load
      for (const [, target] of asset.text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) later.add(new URL(target as string, `http://x${path}`).pathname);
    }
    expect(seen.has('/pages/vendor/preact-htm.js')).toBe(true);
    expect(later.has('/pages/vendor/uplot.js')).toBe(true);
    expect(preloaded.has('/pages/vendor/uplot.js')).toBe(false);
    expect((await h.get('/pages/vendor/uplot.js')).status).toBe(200);
    for (const path of preloaded) expect(seen, `${path} is preloaded and imported`).toContain(path);
    expect(bytes).toBeLessThan(300 * 1024);
  });

  it('refuses a file that is not one of the pages, and another base\'s folder', async () => {
    expect((await h.get('/pages/shared/../../package.json')).status).not.toBe(200);
    const unknown = await h.get('/pages/shared/secret.js');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('VALIDATION_FAILED');
    expect((await h.get('/pages/bridge/app.js')).status).toBe(404);
    expect((await h.wb.call('bridge', { method: 'GET', path: '/pages/bridge/app.js' })).status).toBe(200);
  });

  it('keeps the loopback Host guard on the pages', async () => {
    const refused = await h.wb.call('monitor', { method: 'GET', path: '/', headers: { host: 'evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('HOST_NOT_ALLOWED');
  });
});
