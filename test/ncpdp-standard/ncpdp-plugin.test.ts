/**
 * The plugin entry and its documentation: register() puts the `ncpdp` adapter and the error catalogue in place using
 * the synthetic-data service from the container and the NCPDP profile packs, and the README lists every issue code
 * and every error code the plugin can produce.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { container } from 'tsyringe';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { PluginContext } from '../../kernel/plugin-api.ts';
import { StandardsRegistry } from '../../kernel/standards-registry.ts';
import { SYNTHETIC_DATA } from '../../plugins/synthetic-data/api.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { plugin } from '../../plugins/ncpdp-standard/index.ts';
import { ncpdpErrors } from '../../plugins/ncpdp-standard/errors.ts';

const pluginDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'ncpdp-standard');

describe('ncpdp-standard plugin', () => {
  it('registers the adapter, its errors and the NCPDP profiles, logging broken profile files', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'ncpdp-plugin-'));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    writeFileSync(join(directory, 'good.json'), JSON.stringify({ name: 'good', required: ['Header.To'] }));
    writeFileSync(join(directory, 'bad.yaml'), 'name: [unclosed');
    const child = container.createChildContainer();
    child.registerInstance(SYNTHETIC_DATA, createSyntheticDataService());
    const standards = new StandardsRegistry();
    const catalogues: unknown[] = [];
    const warnings: string[] = [];
    const context = {
      container: child,
      standards,
      profiles: [
        { manifest: { id: 'pack', version: '1', description: 'd', standard: 'ncpdp' }, directory, files: [join(directory, 'bad.yaml'), join(directory, 'good.json')] },
      ],
      registerErrors: (catalogue: unknown) => catalogues.push(catalogue),
      logger: { warn: (_details: unknown, message: string) => warnings.push(message) },
    } as unknown as PluginContext;
    await plugin.register(context);
    const adapter = standards.get('ncpdp');
    expect(adapter?.versions).toEqual(['10.6', '2017071', '2023011', 'D0']);
    expect(adapter?.defaultVersion).toBe('2017071');
    expect(adapter?.profiles().map((p) => p.name)).toEqual(['good']);
    expect(catalogues).toEqual([ncpdpErrors.catalogue]);
    expect(warnings).toEqual([expect.stringContaining('bad.yaml')]);
    expect(adapter?.generate({ messageType: 'NewRx', count: 1, seed: 1 })).toHaveLength(1);
  });

  it('documents every issue code and error code in its README', () => {
    const readme = readFileSync(join(pluginDir, 'README.md'), 'utf8');
    const sources = readdirSync(pluginDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => readFileSync(join(pluginDir, name), 'utf8'))
      .join('\n');
    const codes = new Set([...sources.matchAll(/'([A-Z]+(?:_[A-Z]+)+)'/g)].map((m) => m[1]));
    for (const code of Object.keys(ncpdpErrors.catalogue)) codes.add(code);
    expect(codes.size).toBeGreaterThan(20);
    expect([...codes].filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });

  it('validates without the synthetic-data service and generates once it is registered', async () => {
    const child = container.createChildContainer();
    const standards = new StandardsRegistry();
    const context = {
      container: child,
      standards,
      profiles: [],
      registerErrors: () => undefined,
      logger: { warn: () => undefined },
    } as unknown as PluginContext;
    await plugin.register(context);
    const adapter = standards.get('ncpdp')!;
    expect(() => adapter.generate({ messageType: 'B1', count: 1, seed: 1 })).toThrow(
      expect.objectContaining({ code: 'GENERATION_UNAVAILABLE', status: 503 }),
    );
    child.registerInstance(SYNTHETIC_DATA, createSyntheticDataService());
    const [message] = adapter.generate({ messageType: 'NewRx', count: 1, seed: 1 });
    expect(adapter.validate(message, { mode: 'strict' }).isValid).toBe(true);
  });
});
