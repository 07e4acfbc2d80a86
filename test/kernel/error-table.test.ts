// The error-code reference (docs/reference/error-codes.md) lists exactly the codes of every catalogue (kernel and bundled plugins).
import { describe, expect, it } from 'vitest';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../../kernel/workbench.ts';
import { projectRoot } from '../../kernel/config-loader.ts';

function readmeRows(): string[] {
  const readme = readFileSync(join(projectRoot, 'docs', 'reference', 'error-codes.md'), 'utf8');
  const section = readme.split('<!-- error-table:start -->')[1]?.split('<!-- error-table:end -->')[0] ?? '';
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (\d{3}) \| ([a-z0-9-]+) \|/gm)]
    .map((m) => `${m[1]} ${m[2]} ${m[3]}`)
    .sort();
}

describe('error table', () => {
  it('the error-code reference lists every code of every catalogue with its status and owner, and nothing else', async () => {
    const workbench = await createWorkbench({
      env: {},
      overrides: { dataDir: mkdtempSync(join(tmpdir(), 'wb-errors-')), logging: { level: 'silent' } },
    });
    try {
      const registered = workbench.errors
        .list()
        .map((row) => `${row.code} ${row.status} ${row.owner}`)
        .sort();
      expect(registered.length).toBeGreaterThan(10);
      expect(readmeRows()).toEqual(registered);
    } finally {
      await workbench.stop();
    }
  });
});
