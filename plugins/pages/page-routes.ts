/**
 * The routes of one base's pages: its shell at each address a view has (the page reads the address to pick the view,
 * so every view can be linked and reloaded), and the files of `/pages/shared/`, `/pages/vendor/` and
 * `/pages/<base>/`. A file name outside a folder's list is refused by the schema (400), so no path reaches the disk.
 */
import { z } from 'zod';
import type { BaseName } from '../../kernel/plugin-manifest.ts';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import { assetResponse, type AssetFolder, type PageAsset } from './page-assets.ts';
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
  /** The folders it serves: `shared`, `vendor` and the base's own. */
  folders: Readonly<Record<string, AssetFolder>>;
  /** Where each base listens, read on every request (a port chosen by the system is known after the start). */
  baseUrls: () => Partial<Record<BaseName, string>>;
  /** Settings the pages read from the shell's `<meta>` elements. */
  settings?: Readonly<Record<string, string>>;
  /** The stylesheets of the pages, in order. */
  stylesheets?: readonly string[];
  /** Modules the shell names for preloading. */
  modules?: readonly string[];
}

/** Registers a base's shell at each of its addresses, and its folders of files. */
export function registerBasePageRoutes(routes: RouteRegistrar, deps: BasePageRouteDeps): void {
  const html = () => shellHtml({ base: routes.base, title: deps.title, addresses: deps.baseUrls(), settings: deps.settings ?? {}, stylesheets: deps.stylesheets ?? [], modules: deps.modules ?? [] });
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
            examples: { params: Object.fromEntries(params.map((name) => [name, 'example'])), response: html() },
          }
        : { examples: { response: html() } }),
      envelope: false,
      response: z.string(),
      handler: () => pageResponse(html()),
    });
  }
  for (const [folder, files] of Object.entries(deps.folders)) {
    const names = [...files.keys()];
    if (names.length === 0) continue;
    // the smallest file of the folder, shown as it is served
    const smallest = names.reduce((a, b) => ((files.get(a) as PageAsset).body.length <= (files.get(b) as PageAsset).body.length ? a : b));
    routes.route({
      method: 'GET',
      url: `/pages/${folder}/:file`,
      summary: `A file of the pages (${folder === 'vendor' ? 'the view and chart libraries, from their packages' : `the ${folder} folder`})`,
      tags: ['pages'],
      params: z.object({ file: z.enum(names as [string, ...string[]]) }).strict(),
      examples: { params: { file: smallest }, response: (files.get(smallest) as PageAsset).body.toString('utf8') },
      envelope: false,
      response: z.string(),
      handler: ({ params }) => assetResponse(files.get(params.file) as PageAsset),
    });
  }
}
