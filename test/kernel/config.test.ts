// Config loading: shipped defaults, user file, environment overrides, one message naming every bad key.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../kernel/config-loader.ts';
import { createWorkbench } from '../../kernel/workbench.ts';
import { fixturesDir } from '../helpers/test-workbench.ts';

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wb-config-')), 'workbench.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('config', () => {
  it('ships defaults: three loopback ports and the enterprise tier', () => {
    const { kernel } = loadConfig({ env: {} });
    expect(kernel.servers).toEqual({
      bridge: { host: '127.0.0.1', port: 5101 },
      monitor: { host: '127.0.0.1', port: 5100 },
      population: { host: '127.0.0.1', port: 5102 },
    });
    expect(kernel.tier).toBe('enterprise');
    expect(kernel.http.bodyLimitBytes).toBe(10 * 1024 * 1024);
  });

  it('reads a user file from --config or WORKBENCH_CONFIG; environment wins over the file', () => {
    const path = configFile({ tier: 'free', servers: { monitor: { port: 6100 } } });
    expect(loadConfig({ configPath: path, env: {} }).kernel.tier).toBe('free');
    const fromEnv = loadConfig({
      env: {
        WORKBENCH_CONFIG: path,
        WORKBENCH_TIER: 'professional',
        WORKBENCH_BRIDGE_PORT: '0',
        WORKBENCH_POPULATION_PORT: '7102',
        WORKBENCH_DATA_DIR: '/tmp/wb-data',
        WORKBENCH_STORAGE_URL: 'postgres://u:p@127.0.0.1/db',
      },
    });
    expect(fromEnv.kernel.tier).toBe('professional');
    expect(fromEnv.kernel.servers.bridge.port).toBe(0);
    expect(fromEnv.kernel.servers.monitor.port).toBe(6100);
    expect(fromEnv.kernel.servers.population.port).toBe(7102);
    expect(fromEnv.dataDir).toBe('/tmp/wb-data');
    expect(fromEnv.kernel.storage.url).toBe('postgres://u:p@127.0.0.1/db');
  });

  it('names every bad key and why in one message', () => {
    const path = configFile({
      tier: 'gold',
      servers: { bridge: { host: '0.0.0.0' }, monitor: { port: 70000 } },
      http: { bodyLimitBytes: 'big' },
      colour: 'blue',
    });
    let error: ConfigError | undefined;
    try {
      loadConfig({ configPath: path, env: { WORKBENCH_MONITOR_PORT: 'abc' } });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = error?.message ?? '';
    expect(message).toMatch(/tier: /);
    expect(message).toMatch(/servers\.bridge\.host: must be a loopback address/);
    expect(message).toMatch(/servers\.monitor\.port: /);
    expect(message).toMatch(/http\.bodyLimitBytes: /);
    expect(message).toMatch(/colour/);
    expect(message).toMatch(/WORKBENCH_MONITOR_PORT: "abc" is not a port number/);
  });

  it('refuses a non-loopback address such as 192.168.1.10 at boot', async () => {
    await expect(
      createWorkbench({ env: {}, skipBundledPlugins: true, overrides: { servers: { monitor: { host: '192.168.1.10' } } } }),
    ).rejects.toThrow(/servers\.monitor\.host: must be a loopback address/);
  });

  it('reports a missing or unparseable config file', () => {
    expect(() => loadConfig({ configPath: '/nonexistent/workbench.json', env: {} })).toThrow(/does not exist/);
    expect(() => loadConfig({ configPath: configFile('{ not json'), env: {} })).toThrow(/is not valid JSON/);
  });

  it('validates each plugin section against the plugin schema, in the same message', async () => {
    const error = await createWorkbench({
      env: {},
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugins')],
      overrides: { logging: { level: 'silent' }, plugins: { 'sample-notes': { greeting: 42, unknownKey: true } } },
    }).catch((e: Error) => e);
    expect(String(error)).toMatch(/plugins\.sample-notes\.greeting: /);
    expect(String(error)).toMatch(/unknownKey/);
  });
});

describe('config problems of kernel and plugins together', () => {
  it('names bad kernel keys and bad plugin sections in the same message', async () => {
    const error = await createWorkbench({
      env: {},
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugins')],
      overrides: { tier: 'gold', logging: { level: 'silent' }, plugins: { 'sample-notes': { greeting: 42 } } },
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/tier: /);
    expect(String(error)).toMatch(/plugins\.sample-notes\.greeting: /);
  });
});
