/**
 * The web pages: the monitor's dashboard at `GET /` on the monitor base (HTML, our script and styles, and uPlot's
 * files served from its npm package, so the page works offline with no CDN), and on the bridge and population bases a
 * small page linking their API docs and the dashboard. Every page is sent with a strict Content-Security-Policy: only
 * this origin's scripts and styles (no inline script), API calls to this origin only, no frames, no forms.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { z } from 'zod';
import type { RawResponse, RouteRegistrar } from '../../kernel/plugin-api.ts';
import { escapeHtml } from '../../kernel/html-escape.ts';

/** The policy of every page: nothing but this origin, and no inline script. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const require = createRequire(import.meta.url);

/** A file served as it is, read once at registration. */
interface Asset {
  contentType: string;
  body: Buffer;
}

function page(html: string): RawResponse {
  return {
    raw: true,
    contentType: 'text/html; charset=utf-8',
    headers: { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' },
    body: html,
  };
}

function asset(file: Asset): RawResponse {
  return {
    raw: true,
    contentType: file.contentType,
    headers: { 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=3600' },
    body: file.body,
  };
}

/** What the dashboard page is built from. */
export interface DashboardPageRouteDeps {
  /** The folder holding the page's HTML, script and styles. */
  webDir: string;
  /** How often the page refreshes its charts, in seconds. */
  refreshSeconds: number;
}

/** Registers the dashboard page and its assets on the monitor base. */
export function registerDashboardPageRoutes(routes: RouteRegistrar, deps: DashboardPageRouteDeps): void {
  const uplotDir = join(require.resolve('uplot/package.json'), '..', 'dist');
  const assets: Record<string, Asset> = {
    'dashboard.js': { contentType: 'application/javascript; charset=utf-8', body: readFileSync(join(deps.webDir, 'dashboard.js')) },
    'dashboard.css': { contentType: 'text/css; charset=utf-8', body: readFileSync(join(deps.webDir, 'dashboard.css')) },
    'uPlot.iife.min.js': { contentType: 'application/javascript; charset=utf-8', body: readFileSync(join(uplotDir, 'uPlot.iife.min.js')) },
    'uPlot.min.css': { contentType: 'text/css; charset=utf-8', body: readFileSync(join(uplotDir, 'uPlot.min.css')) },
  };
  const html = readFileSync(join(deps.webDir, 'index.html'), 'utf8').replace('{{refreshSeconds}}', String(deps.refreshSeconds));

  routes.route({
    method: 'GET',
    url: '/',
    summary: 'The monitor dashboard (a web page; works offline, reads only this base\'s JSON API)',
    tags: ['pages'],
    envelope: false,
    response: z.string(),
    // the page itself is the example: it is what a browser receives
    examples: { response: html },
    handler: () => page(html),
  });
  routes.route({
    method: 'GET',
    url: '/dashboard/:asset',
    summary: 'A file of the dashboard page (its script and styles, and uPlot\'s)',
    tags: ['pages'],
    params: z.object({ asset: z.enum(Object.keys(assets) as [string, ...string[]]) }).strict(),
    // the stylesheet, the smallest of the files, shown as it is served
    examples: { params: { asset: 'dashboard.css' }, response: (assets['dashboard.css'] as Asset).body.toString('utf8') },
    envelope: false,
    response: z.string(),
    handler: ({ params }) => asset(assets[params.asset] as Asset),
  });
}

/** The landing page of a base: its title, what it serves, and links to its API docs and the monitor dashboard. */
function landingHtml(title: string, serves: string, dashboardUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(serves)}</p>
<ul>
<li><a href="/docs">API documentation</a> (<a href="/openapi.json">OpenAPI document</a>)</li>
<li><a href="${escapeHtml(dashboardUrl)}">Monitor dashboard</a></li>
</ul>
</body></html>
`;
}

/** What a landing page says. */
export interface LandingPageRouteDeps {
  /** The base's name, the page's heading. */
  title: string;
  /** One sentence on what the base does. */
  serves: string;
  /** The dashboard's address, read on every request. */
  dashboardUrl: () => string;
}

/** Registers a small page on the bridge or population base linking its API docs and the monitor's dashboard. */
export function registerLandingPageRoutes(routes: RouteRegistrar, deps: LandingPageRouteDeps): void {
  routes.route({
    method: 'GET',
    url: '/',
    summary: 'A page linking this base\'s API docs and the monitor dashboard',
    tags: ['pages'],
    tier: 'free',
    envelope: false,
    response: z.string(),
    // the dashboard's address as configured when the document is built (it is read again on every request)
    examples: { response: landingHtml(deps.title, deps.serves, deps.dashboardUrl()) },
    handler: () => page(landingHtml(deps.title, deps.serves, deps.dashboardUrl())),
  });
}
