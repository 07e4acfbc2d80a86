import { readFileSync } from 'node:fs';
import { container } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import type { PluginContext } from '../../kernel/plugin-api.ts';
import { SYNTHETIC_DATA, type SyntheticDataService } from '../../plugins/synthetic-data/api.ts';
import { plugin } from '../../plugins/synthetic-data/index.ts';

describe('synthetic-data plugin', () => {
  it('registers the service under its token', async () => {
    const child = container.createChildContainer();
    await plugin.register({ container: child } as unknown as PluginContext);
    const service = child.resolve<SyntheticDataService>(SYNTHETIC_DATA);
    expect(service.createRandom(1).person()).toEqual(service.createRandom(1).person());
  });

  it('declares a base-less, free plugin without dependencies', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../plugins/synthetic-data/plugin.json', import.meta.url), 'utf8'));
    expect(manifest).toMatchObject({ id: 'synthetic-data', base: 'none', tier: 'free', requires: [], entry: 'index.ts' });
  });
});
