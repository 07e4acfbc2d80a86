/**
 * Where the served pages come from. `npm run build` bundles them and writes them beside the compiled plugin
 * (`bundles/<base>/<file>` and `bundles/manifest.json`), and the compiled service reads those: it needs no bundler.
 * Run from the sources (no such folder), the pages are bundled from `web/` on the first request for one, once per
 * process, so a service or test that never serves a page never waits for the bundler.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASES, type BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import { pageAsset, type PageAsset } from './page-assets.ts';
import { bundlePages, type BasePageFiles, type PageBundles } from './page-bundler.ts';

/** The folder of the written pages, beside the compiled plugin. */
const BUNDLE_FOLDER = 'bundles';
const MANIFEST = 'manifest.json';

/** What `bundles/manifest.json` says of each base: its script, its stylesheet and all its files' names. */
type Manifest = Record<BaseName, { script: string; stylesheet: string; files: string[] }>;

/**
 * Bundles the pages of `pluginDir/web` and writes them into `pluginDir/bundles`. Called by `scripts/build.mjs` from
 * the compiled plugin, which no static import names.
 * @public
 */
export async function writePageBundles(pluginDir: string): Promise<void> {
  const bundles = await bundlePages(join(pluginDir, 'web'));
  const manifest = {} as Manifest;
  for (const base of BASES) {
    const { script, stylesheet, files } = bundles[base];
    const dir = join(pluginDir, BUNDLE_FOLDER, base);
    mkdirSync(dir, { recursive: true });
    for (const [name, file] of files) writeFileSync(join(dir, name), file.body);
    manifest[base] = { script, stylesheet, files: [...files.keys()] };
  }
  writeFileSync(join(pluginDir, BUNDLE_FOLDER, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The pages written by the build beside the plugin, or undefined when there are none (the sources). */
function readWrittenPageBundles(pluginDir: string): PageBundles | undefined {
  const manifestPath = join(pluginDir, BUNDLE_FOLDER, MANIFEST);
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const bundles = {} as Record<BaseName, BasePageFiles>;
  for (const base of BASES) {
    const { script, stylesheet, files } = manifest[base];
    const read = new Map<string, PageAsset>();
    for (const name of files) {
      const asset = pageAsset(name, readFileSync(join(pluginDir, BUNDLE_FOLDER, base, name)));
      if (asset) read.set(name, asset);
    }
    bundles[base] = { script, stylesheet, files: read };
  }
  return bundles;
}

/** Bundles made from the sources in this process, by `web/` folder (one bundling however many services start). */
const bundledFromSources = new Map<string, Promise<PageBundles>>();

/** The pages of a plugin: those the build wrote, if any, and a getter of the pages whichever way they come. */
export interface PluginPageBundles {
  /** The pages the build wrote beside the plugin (read at start), or undefined when the service runs from the sources. */
  written: PageBundles | undefined;
  /** The pages: the written ones, or those bundled from `web/` on the first call. */
  get(): Promise<PageBundles>;
}

/**
 * The pages: the written ones when the build wrote them beside this compiled module (read now), otherwise bundled
 * from `webDir` (the plugin's `web/` folder in the source tree) when first asked for. A failed bundling is tried
 * again on the next request.
 */
export function pageBundlesOf(webDir: string): PluginPageBundles {
  const written = readWrittenPageBundles(dirname(fileURLToPath(import.meta.url)));
  if (written) {
    const ready = Promise.resolve(written);
    return { written, get: () => ready };
  }
  return {
    written,
    get() {
      let bundling = bundledFromSources.get(webDir);
      if (!bundling) {
        bundling = bundlePages(webDir);
        bundledFromSources.set(webDir, bundling);
        bundling.catch(() => bundledFromSources.delete(webDir));
      }
      return bundling;
    },
  };
}
