// Manifest problems (cycle, missing, duplicate, invalid), disabled plugins and failing initialisation.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../../kernel/workbench.ts';
import { fixturesDir } from '../helpers/test-workbench.ts';

const sets = join(fixturesDir, 'plugin-sets');
const quiet = (dataDir = mkdtempSync(join(tmpdir(), 'wb-set-'))) => ({
  env: {},
  skipBundledPlugins: true,
  overrides: { dataDir, logging: { level: 'silent' } },
});

describe('plugin set', () => {
  it('refuses a dependency cycle, naming it', async () => {
    await expect(createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'cycle')] })).rejects.toThrow(
      /dependency cycle: (alpha -> beta -> alpha|beta -> alpha -> beta)/,
    );
  });

  it('refuses missing dependencies, naming the plugin and each missing id', async () => {
    await expect(createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'missing')] })).rejects.toThrow(
      /plugin "gamma" requires missing plugin\(s\): delta, epsilon/,
    );
  });

  it('refuses duplicate ids, naming both folders', async () => {
    const error = await createWorkbench({
      ...quiet(),
      pluginDirs: [join(sets, 'dup-a'), join(sets, 'dup-b')],
    }).catch((e: Error) => e);
    expect(String(error)).toMatch(/duplicate plugin id "twin" in .*dup-a.* and .*dup-b/);
  });

  it('reports every problem of a set at once', async () => {
    const error = await createWorkbench({
      ...quiet(),
      pluginDirs: [join(sets, 'cycle'), join(sets, 'missing')],
    }).catch((e: Error) => e);
    expect(String(error)).toMatch(/dependency cycle/);
    expect(String(error)).toMatch(/gamma/);
  });

  it('reports invalid manifests naming the file and the key', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wb-bad-manifest-'));
    mkdirSync(join(root, 'bad-one'));
    writeFileSync(
      join(root, 'bad-one', 'plugin.json'),
      JSON.stringify({ id: 'bad-one', version: 'one', description: 'x', base: 'moon', tier: 'gold', entry: 'index.ts' }),
    );
    const error = String(await createWorkbench({ ...quiet(), pluginDirs: [root] }).catch((e: Error) => e));
    expect(error).toMatch(/bad-one[/\\]plugin\.json: version/);
    expect(error).toMatch(/plugin\.json: base/);
    expect(error).toMatch(/plugin\.json: tier/);
  });

  it('names a plugin that fails to initialise', async () => {
    await expect(createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'init-fails')] })).rejects.toThrow(
      'Plugin "boom" failed to initialise: database table missing',
    );
  });

  it('lets config disable a plugin; its dependents report why they are off', async () => {
    const options = quiet();
    const wb = await createWorkbench({
      ...options,
      pluginDirs: [join(sets, 'chain')],
      overrides: { ...options.overrides, plugins: { 'base-one': { enabled: false } } },
    });
    try {
      expect(wb.plugins.map((p) => p.manifest.id)).toEqual([]);
      expect(wb.disabledPlugins).toEqual([
        { id: 'base-one', reason: 'disabled in config' },
        { id: 'child-two', reason: 'requires base-one, which is off' },
      ]);
    } finally {
      await wb.stop();
    }
  });

  it('orders plugins after what they require', async () => {
    const wb = await createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'chain')] });
    try {
      expect(wb.plugins.map((p) => p.manifest.id)).toEqual(['base-one', 'child-two']);
    } finally {
      await wb.stop();
    }
  });

  it('refuses a worker-thread plugin that requires a main-thread-only plugin, naming both', async () => {
    await expect(createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'worker-needs-main')] })).rejects.toThrow(
      /plugin "worker-child" runs in worker threads but requires main-only, which does not/,
    );
  });

  it('refuses a worker-thread plugin whose entry has no registerWorker', async () => {
    await expect(createWorkbench({ ...quiet(), pluginDirs: [join(sets, 'worker-without-hook')] })).rejects.toThrow(
      /plugin "lonely-worker": the manifest says "worker": true, so index.ts must export a registerWorker\(context\)/,
    );
  });
});
