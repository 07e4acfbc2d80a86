/**
 * The files the pages are made of, read once at start: the shared folder, one folder per base, and the view library
 * and chart library taken from their npm packages (so the pages work offline, with no CDN and no build step). Each
 * folder is served under `/pages/<folder>/`, so a module's relative imports in the source tree (`../shared/api.js`)
 * are the same in the browser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import type { RawResponse } from '../../kernel/plugin-api.ts';

const require = createRequire(import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A file served as it is. */
export interface PageAsset {
  contentType: string;
  body: Buffer;
}

/** File name -> file, of one folder. */
export type AssetFolder = ReadonlyMap<string, PageAsset>;

/** Reads the scripts and stylesheets of a folder of `web/` (other files, and sub-folders, are not served). */
export function readAssetFolder(dir: string): AssetFolder {
  const files = new Map<string, PageAsset>();
  for (const name of readdirSync(dir).sort()) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType) files.set(name, { contentType, body: readFileSync(join(dir, name)) });
  }
  return files;
}

/**
 * The libraries the pages import, from their packages: Preact with its hooks and htm as one ES module without bare
 * imports (`preact-htm.js`), and uPlot's ES module and stylesheet for the charts.
 */
export function readVendorFolder(): AssetFolder {
  // htm exports neither its package.json nor the browser build: its folder is found from its main file (dist/htm.js)
  const htmDir = join(require.resolve('htm'), '..', '..');
  const uplotDir = join(require.resolve('uplot/package.json'), '..', 'dist');
  return new Map<string, PageAsset>([
    ['preact-htm.js', { contentType: CONTENT_TYPES['.js'] as string, body: readFileSync(join(htmDir, 'preact', 'standalone.module.js')) }],
    ['uplot.js', { contentType: CONTENT_TYPES['.js'] as string, body: readFileSync(join(uplotDir, 'uPlot.esm.js')) }],
    ['uplot.css', { contentType: CONTENT_TYPES['.css'] as string, body: readFileSync(join(uplotDir, 'uPlot.min.css')) }],
  ]);
}

/** A file as an answer: cached for a while, never sniffed as another type. */
export function assetResponse(file: PageAsset): RawResponse {
  return {
    raw: true,
    contentType: file.contentType,
    headers: { 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' },
    body: file.body,
  };
}
