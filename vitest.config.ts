import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Two projects, both run by `npm test` (`vitest run --project unit` or `--project system` runs one):
 * - `unit`: engines and helpers called in-process; no service, database, server, child process or browser.
 * - `system`: every test file that starts one of those. A file is a system test when it imports a starter: the
 *   workbench helpers and harnesses, a store, a process or server module, a database client or the browser (the
 *   pattern below). New files are placed by the same rule, so nothing needs listing by hand.
 */
const SYSTEM_IMPORT =
  /from '[^']*(\/helpers\/(test-workbench|service-process|cli-process|fresh-storage|own-postgres|postgres-schema|http-client|admin-access)|harness|\/pages\/browser|monitor-crash-scenario|kernel\/storage|kernel\/workbench|monitor-storage|test-kit|mail-capture|oidc-provider-fixture|chat-completions-recorder)(\.ts)?'|from '(node:child_process|node:http|node:net|fastify|pg|mysql2[^']*|better-sqlite3|playwright-core)'/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path.split('\\').join('/')] : [];
  });
}

const systemFiles = testFiles('test').filter((file) => SYSTEM_IMPORT.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: systemFiles } },
      { extends: true, test: { name: 'system', include: systemFiles } },
    ],
  },
});
