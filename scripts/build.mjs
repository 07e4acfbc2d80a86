#!/usr/bin/env node
// Compiles kernel/ and plugins/ to JavaScript once (run by `npm install` through `prepare`, or `npm run build`), so
// `npm start` and the `workbench` command run plain JavaScript. Files that are not TypeScript (plugin manifests, JSON
// data, definitions) are copied beside the compiled code, so modules that read files next to themselves find them.
// The web pages are bundled (one script and one stylesheet per base, named by content) beside the compiled pages
// plugin, so the compiled service serves them as they are, with no bundler at run time.
// Usage: node scripts/build.mjs [--out-dir DIR]   (default: dist)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outFlag = args.indexOf('--out-dir');
const outDir = resolve(root, outFlag >= 0 && args[outFlag + 1] ? args[outFlag + 1] : 'dist');
const SOURCE_FOLDERS = ['kernel', 'plugins'];

rmSync(outDir, { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], {
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  process.stderr.write(`build: the TypeScript compiler failed (exit ${compiled.status ?? compiled.signal}).\n`);
  process.exit(1);
}

function copyAssets(from, to) {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) copyAssets(source, target);
    else if (!name.endsWith('.ts')) {
      mkdirSync(to, { recursive: true });
      cpSync(source, target);
    }
  }
}
for (const folder of SOURCE_FOLDERS) copyAssets(join(root, folder), join(outDir, folder));

// the compiled pages plugin bundles its own pages, the way it does from the sources on the first request
const pagesDir = join(outDir, 'plugins', 'pages');
const { writePageBundles } = await import(pathToFileURL(join(pagesDir, 'page-bundles.js')).href);
await writePageBundles(pagesDir);

// The output folder is an ES module scope wherever it lies, and knows its way back to the source tree.
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
writeFileSync(join(outDir, 'build-info.json'), `${JSON.stringify({ sourceRoot: relative(outDir, root) || '.' })}\n`);
process.stdout.write(`build: compiled ${SOURCE_FOLDERS.join(' and ')} and bundled the pages to ${relative(root, outDir) || outDir}\n`);
