// Health (bare object, 200/503) and shutdown (ports freed, safe twice, signals handled within 5 s).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench } from '../helpers/test-workbench.ts';
import { portIsFree } from '../helpers/service-process.ts';
import { sourceCliArgs } from '../helpers/cli-process.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { FEATURE_FLAGS } from '../../plugins/feature-flags/api.ts';

describe('health', () => {
  it('returns the bare report, healthy, then unhealthy with 503 once the database is gone', async () => {
    const wb = await startTestWorkbench();
    try {
      const res = await wb.call('monitor', { path: '/api/health' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        status: 'healthy',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        version: expect.any(String),
        uptimeSeconds: expect.any(Number),
        checks: { database: 'healthy', cache: 'healthy' },
        conditions: [],
      });
      expect(res.json.success).toBeUndefined();
      await wb.workbench.storage.close();
      const down = await wb.call('monitor', { path: '/api/health' });
      expect(down.status).toBe(503);
      expect(down.json.status).toBe('unhealthy');
      expect(down.json.checks.database).toBe('unhealthy');
    } finally {
      await wb.stop();
    }
  });

  it('is degraded (200) while the cache thrashes, healthy again once it settles', async () => {
    const clock = new ManualClock('2026-03-01T08:00:00Z');
    const wb = await startTestWorkbench({ clock });
    try {
      const cache = resolveService(wb.workbench.container, TOKENS.Cache);
      // Twice the default capacity written within a minute: everything is pushed out before it expires.
      for (let i = 0; i < 20_001; i++) cache.set(`flood-${i}`, i);
      const degraded = await wb.call('monitor', { path: '/api/health' });
      expect(degraded.status).toBe(200);
      expect(degraded.json.status).toBe('degraded');
      expect(degraded.json.checks).toEqual({ database: 'healthy', cache: 'unhealthy' });
      clock.advance(3 * 60_000);
      const settled = await wb.call('monitor', { path: '/api/health' });
      expect(settled.json.status).toBe('healthy');
    } finally {
      await wb.stop();
    }
  });

  it('is served only on the monitor base', async () => {
    const wb = await startTestWorkbench();
    try {
      expect((await wb.call('bridge', { path: '/api/health' })).status).toBe(404);
    } finally {
      await wb.stop();
    }
  });
});

describe('features', () => {
  it('returns global flags anonymously and organisation flags when authenticated', async () => {
    const wb = await startTestWorkbench({ config: { plugins: { 'feature-flags': { flags: { betaDashboards: true } } } } });
    try {
      const anonymous = await wb.call('monitor', { path: '/api/features' });
      expect(anonymous.json.data).toEqual({ scope: 'global', organizationId: null, flags: { betaDashboards: true } });
      const { key } = await resolveService(wb.workbench.container, TOKENS.ApiKeys).create('MonitorViewer');
      const authed = await wb.call('monitor', { path: '/api/features', headers: { authorization: `Bearer ${key}` } });
      expect(authed.json.data).toEqual({
        scope: 'organization',
        organizationId: 'default',
        flags: { betaDashboards: true },
      });
      // Stored flags override the config: a global one for everybody, an organisation one for its callers only.
      const store = resolveService(wb.workbench.container, FEATURE_FLAGS);
      await store.set('newAlerts', true, '', '2026-01-01T00:00:00Z');
      await store.set('betaDashboards', false, 'default', '2026-01-01T00:00:00Z');
      const anonymousAfter = await wb.call('monitor', { path: '/api/features' });
      expect(anonymousAfter.json.data.flags).toEqual({ betaDashboards: true, newAlerts: true });
      const authedAfter = await wb.call('monitor', { path: '/api/features', headers: { authorization: `Bearer ${key}` } });
      expect(authedAfter.json.data.flags).toEqual({ betaDashboards: false, newAlerts: true });
    } finally {
      await wb.stop();
    }
  });
});

describe('shutdown', () => {
  it('frees the ports, and stop is safe twice', async () => {
    const wb = await startTestWorkbench();
    const ports = Object.values(wb.urls).map((url) => Number(new URL(url).port));
    await wb.stop();
    await wb.workbench.stop();
    for (const port of ports) expect(await portIsFree(port)).toBe(true);
  });

  it('a started process prints its addresses and exits cleanly on SIGTERM within 5 s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-proc-'));
    const child = spawn(process.execPath, [...sourceCliArgs, 'start'], {
      env: {
        ...process.env,
        WORKBENCH_DATA_DIR: dataDir,
        WORKBENCH_BRIDGE_PORT: '0',
        WORKBENCH_MONITOR_PORT: '0',
        WORKBENCH_POPULATION_PORT: '0',
        WORKBENCH_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${output}`)), 30_000);
      child.stdout.on('data', () => {
        if (/population\s+http:\/\/127\.0\.0\.1:\d+/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(output).toMatch(/bridge\s+http:\/\/127\.0\.0\.1:\d+\s+docs http:\/\/127\.0\.0\.1:\d+\/docs/);
    expect(output).toMatch(/monitor\s+http:\/\/127\.0\.0\.1:\d+/);
    const ports = [...output.matchAll(/^\w+\s+http:\/\/127\.0\.0\.1:(\d+)/gm)].map((m) => Number(m[1]));
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const port of ports) expect(await portIsFree(port)).toBe(true);
  });
});
