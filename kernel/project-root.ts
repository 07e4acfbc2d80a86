/**
 * Where the project's files are, whether the kernel runs from its TypeScript sources (tests, development) or from the
 * compiled JavaScript of `npm run build` (`npm start`, the `workbench` command). Data files (config, manifests,
 * profile packs, package.json) are always read from the source tree; compiled code lives in the build's output folder,
 * which records the way back to the source tree in `build-info.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Name of the file the build writes at the root of its output folder. */
export const BUILD_INFO_FILE = 'build-info.json';

/** What `build-info.json` holds. */
export interface BuildInfo {
  /** The source tree, relative to the output folder. */
  sourceRoot: string;
}

const codeRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** True when this process runs the compiled JavaScript rather than the TypeScript sources. */
export const runningCompiled: boolean = import.meta.url.endsWith('.js');

function findSourceRoot(): string {
  if (!runningCompiled) return codeRoot;
  const infoPath = join(codeRoot, BUILD_INFO_FILE);
  if (!existsSync(infoPath)) return resolve(codeRoot, '..');
  const info = JSON.parse(readFileSync(infoPath, 'utf8')) as BuildInfo;
  return resolve(codeRoot, info.sourceRoot);
}

/** Root folder of the installed project (where package.json, config/, plugins/ and profiles/ are). */
export const projectRoot: string = findSourceRoot();

/** Root of the code that runs: the compiled output folder, or the project root when running the sources. */
export const runningCodeRoot: string = codeRoot;

/**
 * The module to import for a source file: the file itself when running the sources; when running compiled, its
 * compiled counterpart in the output folder (`plugins/x/index.ts` -> `<out>/plugins/x/index.js`), else a `.js` file
 * beside it (a plugin shipped compiled), else the file itself (left to a TypeScript-aware runtime). Plugin manifests
 * therefore always name their TypeScript entry and nobody edits them for a build.
 */
export function runnableModulePath(sourcePath: string): string {
  if (!runningCompiled || !sourcePath.endsWith('.ts')) return sourcePath;
  const inTree = relative(projectRoot, sourcePath);
  if (!inTree.startsWith('..') && !isAbsolute(inTree)) {
    const compiled = join(runningCodeRoot, inTree).replace(/\.ts$/, '.js');
    if (existsSync(compiled)) return compiled;
  }
  const beside = sourcePath.replace(/\.ts$/, '.js');
  return existsSync(beside) ? beside : sourcePath;
}

/**
 * URL of a module next to the caller, in the caller's own form: `siblingModuleUrl(import.meta.url, './worker.ts')`
 * is `./worker.ts` beside a TypeScript caller and `./worker.js` beside a compiled one (for `new Worker(...)`, which
 * the compiler's import rewriting does not reach).
 */
export function siblingModuleUrl(callerUrl: string, specifier: string): URL {
  const compiledCaller = callerUrl.endsWith('.js');
  return new URL(compiledCaller ? specifier.replace(/\.ts$/, '.js') : specifier, callerUrl);
}
