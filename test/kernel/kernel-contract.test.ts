// The kernel's promises to plugins, kept by code: a route needs a base, the manifest tier is the routes' default,
// answers match their declared schemas, and a profile pack for an unregistered standard is reported at boot.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createWorkbench } from '../../kernel/workbench.ts';
import { fixturesDir, startTestWorkbench } from '../helpers/test-workbench.ts';

const temporary: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('kernel contract', () => {
  it('refuses at boot a route from a plugin whose manifest declares no base, naming plugin and route', async () => {
    const error = await createWorkbench({
      env: {},
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugin-sets', 'route-without-base')],
      overrides: { dataDir: tempDir('wb-contract-'), logging: { level: 'silent' } },
    }).catch((e: Error) => e);
    expect(String(error)).toContain('Plugin "baseless" failed to initialise');
    expect(String(error)).toContain('GET /api/baseless');
    expect(String(error)).toContain('base "none"');
  });

  it('gives a route without its own tier the tier of its manifest', async () => {
    const wb = await startTestWorkbench({
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugins')],
      config: { tier: 'free' },
    });
    try {
      // POST /api/sample/notes declares no tier; sample-notes' manifest says professional.
      const inherited = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'x' } });
      expect(inherited.status).toBe(402);
      expect(inherited.json.error.details).toMatchObject({ requiredTier: 'professional' });
      const document = (await wb.call('monitor', { path: '/openapi.json' })).json;
      expect(document.paths['/api/sample/notes'].post.description).toContain('Tier: professional.');
      expect((await wb.call('monitor', { path: '/api/sample/events' })).status).toBe(200);
    } finally {
      await wb.stop();
    }
  });

  it('answers 500 when a handler strays from its declared response schema (checked in tests)', async () => {
    const wb = await startTestWorkbench({ skipBundledPlugins: true, pluginDirs: [join(fixturesDir, 'plugins')] });
    try {
      const drift = await wb.call('monitor', { path: '/api/sample/drift' });
      expect(drift.status).toBe(500);
      expect(drift.json.error.code).toBe('INTERNAL_ERROR');
      expect((await wb.call('monitor', { path: '/api/sample/events' })).status).toBe(200);
    } finally {
      await wb.stop();
    }
  });

  it('reports at boot a profile pack naming a standard no plugin registers', async () => {
    const packs = tempDir('wb-packs-');
    mkdirSync(join(packs, 'x12-claims'));
    writeFileSync(
      join(packs, 'x12-claims', 'profile-pack.json'),
      JSON.stringify({ id: 'x12-claims', version: '1', description: 'X12 837 claims', standard: 'x12' }),
    );
    let log = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const workbench = await createWorkbench({
      env: {},
      logDestination: destination,
      overrides: { dataDir: tempDir('wb-contract-'), logging: { level: 'warn' }, profileDirs: [packs] },
    });
    await workbench.stop();
    expect(log).toContain('profile pack x12-claims');
    expect(log).toContain('names standard \\"x12\\", which no plugin registers (registered: ');
    expect(log).toMatch(/registered: [^)]*hl7/);
    expect(log).not.toContain('profile pack public-health-elr');
  });
});
