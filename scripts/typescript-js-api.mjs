/**
 * Preloaded (`node --import ./scripts/typescript-js-api.mjs`) by the linters that read TypeScript through the
 * compiler's JavaScript API: ESLint's typescript-eslint (typed rules) and dependency-cruiser (type-only imports).
 * The project compiles with TypeScript 7, the native compiler, whose package ships `tsc` and no such API; both
 * linters support TypeScript up to 5.x. So in the linter's process, and only there, the module `typescript` (and
 * `typescript/...`) resolves to the TypeScript 5 package installed under the alias `typescript-5`, for `require`
 * and `import` alike. The compiler that checks and builds the project stays TypeScript 7 (`npm run typecheck`).
 * package.json's `overrides` lets their `typescript` peer be the root's, so npm installs them beside TypeScript 7.
 */
import Module, { createRequire, register } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const typescript5 = dirname(require.resolve('typescript-5/package.json'));

/** `typescript` or `typescript/SUBPATH` as the same request of the TypeScript 5 package; anything else unchanged. */
const redirect = (request) =>
  request === 'typescript' || request.startsWith('typescript/') ? typescript5 + request.slice('typescript'.length) : request;

// require(): Node's CommonJS resolver is the one place every require() goes through.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, redirect(request), ...rest);
};

// import: a resolve hook, handed the TypeScript 5 entry's address for `typescript`.
const entry = pathToFileURL(require.resolve('typescript-5')).href;
const hook = `export async function resolve(specifier, context, next) {
  return next(specifier === 'typescript' ? ${JSON.stringify(entry)} : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
