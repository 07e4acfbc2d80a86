/**
 * The files the browser gets, and where the libraries the pages import come from: Preact with its hooks and htm as
 * one ES module without bare imports, and uPlot's ES module and stylesheet, each from its npm package (so the pages
 * work offline, with no CDN). In the sources the pages import them as `../vendor/<name>`; the bundler resolves those
 * names to the package files below.
 */
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

/** File name -> file. */
export type AssetFolder = ReadonlyMap<string, PageAsset>;

/** A file of the pages by its name (`.js` or `.css`), or undefined for any other kind of file. */
export function pageAsset(name: string, body: Buffer): PageAsset | undefined {
  const contentType = CONTENT_TYPES[extname(name)];
  return contentType ? { contentType, body } : undefined;
}

/** The paths of the libraries' files, by the name the pages' sources import them as (`vendor/<name>`). */
export function vendorFiles(): Readonly<Record<'preact-htm.js' | 'uplot.js' | 'uplot.css', string>> {
  // htm exports neither its package.json nor the browser build: its folder is found from its main file (dist/htm.js)
  const htmDir = join(require.resolve('htm'), '..', '..');
  const uplotDir = join(require.resolve('uplot/package.json'), '..', 'dist');
  return {
    'preact-htm.js': join(htmDir, 'preact', 'standalone.module.js'),
    'uplot.js': join(uplotDir, 'uPlot.esm.js'),
    'uplot.css': join(uplotDir, 'uPlot.min.css'),
  };
}

/**
 * A file as an answer. Its name carries a hash of its content, so another content is another name: the browser keeps
 * it for a year without asking again, and never sniffs it as another type.
 */
export function assetResponse(file: PageAsset): RawResponse {
  return {
    raw: true,
    contentType: file.contentType,
    headers: { 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=31536000, immutable' },
    body: file.body,
  };
}
