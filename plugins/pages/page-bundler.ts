/**
 * Bundles the pages of each base as the browser gets them: the base's script module `web/<base>/app.js` with every
 * module it imports and the view library, by esbuild, into one minified script; the chart library, which the
 * dashboard imports only when it first draws a chart, into a chunk of its own; and the base's stylesheets (the chart
 * library's, the shared one, the base's) joined into one. Every file is named after a hash of its content. Run by
 * `npm run build` (see page-bundles.ts) and, when the service runs from the sources, on the first request for a page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { BASES, type BaseName } from '../../kernel/plugin-host/plugin-manifest.ts';
import { pageAsset, vendorFiles, type AssetFolder, type PageAsset } from './page-assets.ts';

/** The files of one base's pages. */
export interface BasePageFiles {
  /** The name of the script module the shell starts. */
  script: string;
  /** The name of the one stylesheet the shell links. */
  stylesheet: string;
  /** Every file by name: the script, the chunks it imports later, the stylesheet. */
  files: AssetFolder;
}

/** The files of every base's pages. */
export type PageBundles = Readonly<Record<BaseName, BasePageFiles>>;

/** Where esbuild would write, had it to: only the names of its output files are kept. */
const OUT_DIR = '/pages-bundle';

/** The sources import the libraries as `../vendor/<name>`: those resolve to the packages' files. */
function vendorPlugin(): Plugin {
  const files: Readonly<Record<string, string>> = vendorFiles();
  return {
    name: 'pages-vendor',
    setup(build) {
      build.onResolve({ filter: /(?:^|\/)vendor\/[^/]+$/ }, (args) => {
        const path = files[basename(args.path)];
        return path ? { path } : { errors: [{ text: `${args.path} is not one of the pages' libraries (${Object.keys(files).join(', ')})` }] };
      });
    },
  };
}

/** The first 10 hex digits of the content's SHA-256. */
const contentHash = (body: Buffer | string) => createHash('sha256').update(body).digest('hex').slice(0, 10);

/** Bundles the pages of every base from `webDir` (the plugin's `web/` folder). */
export async function bundlePages(webDir: string): Promise<PageBundles> {
  const esbuild = await import('esbuild');
  const plugin = vendorPlugin();
  const uplotCss = vendorFiles()['uplot.css'];
  const bundles = {} as Record<BaseName, BasePageFiles>;
  for (const base of BASES) {
    const result = await esbuild.build({
      entryPoints: { [base]: join(webDir, base, 'app.js') },
      bundle: true,
      splitting: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      charset: 'utf8',
      write: false,
      outdir: OUT_DIR,
      entryNames: '[name]-[hash]',
      chunkNames: 'chunk-[hash]',
      logLevel: 'silent',
      plugins: [plugin],
    });
    const files = new Map<string, PageAsset>();
    let script: string | undefined;
    for (const output of result.outputFiles) {
      const name = basename(output.path);
      files.set(name, pageAsset(name, Buffer.from(output.contents)) as PageAsset);
      if (name.startsWith(`${base}-`)) script = name;
    }
    if (!script) throw new Error(`bundling the ${base} pages gave no script named ${base}-*.js`);
    const sheets = [...(base === 'monitor' ? [uplotCss] : []), join(webDir, 'shared', 'pages.css'), join(webDir, base, `${base}.css`)];
    const joined = sheets.filter((path) => existsSync(path)).map((path) => readFileSync(path, 'utf8')).join('\n');
    const css = (await esbuild.transform(joined, { loader: 'css', minify: true, charset: 'utf8' })).code;
    const stylesheet = `${base}-${contentHash(css)}.css`;
    files.set(stylesheet, pageAsset(stylesheet, Buffer.from(css)) as PageAsset);
    bundles[base] = { script, stylesheet, files };
  }
  return bundles;
}
