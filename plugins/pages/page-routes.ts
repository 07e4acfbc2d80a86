/**
 * The routes of one base's pages: its shell at each address a view has (the page reads the address to pick the view,
 * so every view can be linked and reloaded), and its bundled files at `/pages/assets/<name>`. A file name that is not
 * one of them is a 404 before anything is read; a name of another shape is refused by the schema (400).
 */
import { z } from 'zod';
import { kernelErrors } from '../../kernel/errors.ts';
import type { BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { assetResponse } from './page-assets.ts';
import type { BasePageFiles } from './page-bundler.ts';
import { pageResponse, shellHtml } from './page-shell.ts';

/** One address of a base's pages. */
export interface PageAddress {
  /** The route's URL, e.g. `/messages/:id`. */
  url: string;
  /** What a person finds there (the route's summary in the OpenAPI document). */
  summary: string;
}

/** What a base's pages are built from. */
export interface BasePageRouteDeps {
  /** The shell's title. */
  title: string;
  /** The addresses of its views, `/` first. */
  addresses: readonly PageAddress[];
  /** The base's bundled files, made on the first call when the service runs from the sources. */
  files: () => Promise<BasePageFiles>;
  /** The names of its script and stylesheet as the OpenAPI examples show them (the real ones when already known). */
  exampleNames: { script: string; stylesheet: string };
  /** Where each base listens, read on every request (a port chosen by the system is known after the start). */
  baseUrls: () => Partial<Record<BaseName, string>>;
  /** Settings the pages read from the shell's `<meta>` elements. */
  settings?: Readonly<Record<string, string>>;
}

/** Where a base's bundled files are served. */
const ASSETS = '/pages/assets/';

/** Registers a base's shell at each of its addresses, and its bundled files. */
export function registerBasePageRoutes(routes: RouteRegistrar, deps: BasePageRouteDeps): void {
  const html = (names: { script: string; stylesheet: string }) =>
    shellHtml({ base: routes.base, title: deps.title, addresses: deps.baseUrls(), settings: deps.settings ?? {}, script: ASSETS + names.script, stylesheet: ASSETS + names.stylesheet });
  const example = html(deps.exampleNames);
  for (const address of deps.addresses) {
    const params = [...address.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    routes.route({
      method: 'GET',
      url: address.url,
      summary: address.summary,
      description: 'A web page (HTML with a strict Content-Security-Policy). It reads only the public JSON API of this base.',
      tags: ['pages'],
      ...(params.length > 0
        ? {
            params: z.object(Object.fromEntries(params.map((name) => [name, z.string().min(1).max(200)]))).strict(),
            examples: { params: Object.fromEntries(params.map((name) => [name, 'example'])), response: example },
          }
        : { examples: { response: example } }),
      envelope: false,
      response: z.string(),
      handler: async () => pageResponse(html(await deps.files())),
    });
  }
  routes.route({
    method: 'GET',
    url: `${ASSETS}:file`,
    summary: "A file of the pages (this base's script and stylesheet, bundled; named after a hash of the content)",
    description: 'Cached by the browser for good: another content has another name, which the pages name.',
    tags: ['pages'],
    params: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,100}\.(?:js|css)$/) }).strict(),
    examples: { params: { file: deps.exampleNames.stylesheet }, response: 'body{margin:0}' },
    errors: ['NOT_FOUND'],
    envelope: false,
    response: z.string(),
    handler: async ({ params }) => {
      const file = (await deps.files()).files.get(params.file);
      if (!file) throw kernelErrors.create('NOT_FOUND', { what: `The file ${params.file} of the pages` });
      return assetResponse(file);
    },
  });
}
