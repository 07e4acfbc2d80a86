// ESLint, for what the compiler does not check: promises nobody waits for or catches, promises handed where a
// plain value is expected, and tests that assert nothing or only sometimes. `npm run lint` runs it.
//
// Typed rules need the TypeScript compiler's JavaScript API. The project compiles with TypeScript 7 (the native
// compiler, `tsc` only, no JavaScript API), and typescript-eslint supports TypeScript up to 5.x; so `npm run lint`
// starts ESLint with `--import ./scripts/typescript-js-api.mjs`, which makes `typescript` resolve to TypeScript 5
// (installed as `typescript-5`) inside the linter's process only. The project service reads tsconfig.json with it.
import vitest from '@vitest/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'profiles/**', 'docs/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['test/**/*.ts'],
    plugins: { vitest },
    rules: {
      // fast-check's fc.assert fails the test as expect does; so do the helpers named expect... and assert...
      'vitest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', '*.expect*', 'assert*', 'fc.assert'] }],
      'vitest/no-conditional-expect': 'error',
    },
  },
);
