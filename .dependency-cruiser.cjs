/**
 * The import boundaries of the house, checked by `npm run lint` (dependency-cruiser):
 * - the kernel imports no plugin (it knows no healthcare); its library of helpers (kernel/lib/) is kernel code and
 *   is held to the same rule;
 * - a plugin reaches another plugin only through its public `api.ts` (tokens, types and pure helpers), never its
 *   internals; whether its manifest declares that plugin is checked by scripts/lint-project.ts;
 * - a plugin reaches kernel services through its plugin context: it never imports (other than `import type`) the
 *   kernel's boot, wiring and service-construction modules;
 * - no import cycle anywhere, type-only imports included (`tsPreCompilationDeps`): a cycle is two modules that
 *   cannot be understood, tested or moved apart.
 * dependency-cruiser reads TypeScript through the compiler's JavaScript API; see scripts/typescript-js-api.mjs.
 */

/** Kernel modules that boot the service or build its services; plugins get those services from their context. */
const KERNEL_INTERNALS = [
  'workbench', 'cli', 'cli-main', 'commands/cli-keys', 'commands/cli-errors', 'config-loader',
  'plugin-host/plugin-loader', 'plugin-host/plugin-discovery', 'plugin-host/plugin-config-problems', 'tokens',
  'storage', 'logger', 'lifecycle', 'project-root', 'data-dir', 'v8-flags',
  'http/base-server', 'http/route-registrar', 'http/request-guard', 'http/error-handling', 'http/docs-page',
  'http/openapi-document', 'http/response-check', 'auth/api-keys', 'auth/role-assignments', 'auth/jwt-verifier',
  'auth/kernel-migrations', 'auth/auth-service',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-plugin',
      comment: 'The kernel must not import a plugin: plugins register into the kernel, never the other way.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^plugins/' },
    },
    {
      name: 'plugin-reaches-others-through-api',
      comment: "A plugin imports another plugin only through its api.ts; use its token, its types or its events.",
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/([^/]+)/', pathNot: ['^plugins/$1/', '^plugins/[^/]+/api\\.ts$'] },
    },
    {
      name: 'plugin-uses-no-kernel-internals',
      comment: 'Reach kernel services through the plugin context, not the modules that build them (import type is fine).',
      severity: 'error',
      from: { path: '^plugins/' },
      to: {
        path: `^kernel/(${KERNEL_INTERNALS.join('|')})\\.ts$`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-circular',
      comment: 'Modules that import each other, directly or around a ring, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
    cache: false,
  },
};
