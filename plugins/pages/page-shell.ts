/**
 * The HTML every page starts from: one shell per base, with no inline script, the base's one script module and one
 * stylesheet (bundled, see page-bundler.ts), and the addresses of the three bases in `<meta>` elements (read by the
 * pages for their links, so a moved port is followed without a word in the pages' code). Sent with a strict
 * Content-Security-Policy.
 */
import type { BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import type { RawResponse } from '../../kernel/plugin-api.ts';
import { escapeHtml } from '../../kernel/lib/text/html-escape.ts';

/** The policy of every page: nothing but this origin, and no inline script or style attribute code. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What one shell says. */
export interface ShellContent {
  /** The base whose pages the shell starts. */
  base: BaseName;
  /** The document title (the page changes it as the view changes). */
  title: string;
  /** Where each base listens, as the browser should reach it. */
  addresses: Readonly<Partial<Record<BaseName, string>>>;
  /** Name/value pairs the base's pages read as settings (`<meta name="workbench-NAME">`). */
  settings?: Readonly<Record<string, string>>;
  /** The base's script module (a same-origin path): it draws everything into `#app`. */
  script: string;
  /** The base's stylesheet (a same-origin path). */
  stylesheet: string;
}

/** The shell of a base's pages. */
export function shellHtml(content: ShellContent): string {
  const metas = [
    `<meta name="workbench-base" content="${escapeHtml(content.base)}">`,
    ...Object.entries(content.addresses).map(([base, url]) => `<meta name="workbench-address-${escapeHtml(base)}" content="${escapeHtml(url ?? '')}">`),
    ...Object.entries(content.settings ?? {}).map(([name, value]) => `<meta name="workbench-${escapeHtml(name)}" content="${escapeHtml(value)}">`),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.title)}</title>
${metas.join('\n')}
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(content.stylesheet)}">
<script type="module" src="${escapeHtml(content.script)}"></script>
</head>
<body>
<div id="app"><p class="loading">Loading ${escapeHtml(content.title)}…</p></div>
<noscript><p>These pages need JavaScript. The same information is in the JSON API: see <a href="/docs">the API documentation</a>.</p></noscript>
</body>
</html>
`;
}

/** A page as an answer: HTML with the strict policy, never cached without a check. */
export function pageResponse(html: string): RawResponse {
  return {
    raw: true,
    contentType: 'text/html; charset=utf-8',
    headers: {
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
    body: html,
  };
}
