// Licence tiers: below the tier a route needs, the answer is 402 TIER_REQUIRED naming the tier, never 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fixturesDir, startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { Entitlement } from '../../kernel/entitlement.ts';

let free: TestWorkbench;

beforeAll(async () => {
  free = await startTestWorkbench({
    skipBundledPlugins: true,
    pluginDirs: [join(fixturesDir, 'plugins')],
    config: { tier: 'free' },
  });
});
afterAll(() => free.stop());

describe('tiers', () => {
  it('answers 402 TIER_REQUIRED naming the needed tier', async () => {
    const res = await free.call('monitor', { path: '/api/sample/notes', body: { text: 'x' } });
    expect(res.status).toBe(402);
    expect(res.json.error.code).toBe('TIER_REQUIRED');
    expect(res.json.error.message).toContain('professional');
    expect(res.json.error.details).toMatchObject({ requiredTier: 'professional' });
  });

  it('leaves free routes open on the free tier', async () => {
    const res = await free.call('monitor', { path: '/api/sample/events' });
    expect(res.status).toBe(200);
  });

  it('orders tiers free < professional < enterprise for handler checks', () => {
    expect(new Entitlement('professional').allows('free')).toBe(true);
    expect(new Entitlement('professional').allows('enterprise')).toBe(false);
    expect(() => new Entitlement('free').require('enterprise', 'ai-triage')).toThrow(/enterprise/);
  });

  it('reads the tier from WORKBENCH_TIER', async () => {
    const wb = await startTestWorkbench({
      skipBundledPlugins: true,
      pluginDirs: [join(fixturesDir, 'plugins')],
      env: { WORKBENCH_TIER: 'professional' },
    });
    try {
      const res = await wb.call('monitor', { path: '/api/sample/notes', body: { text: 'pro' } });
      expect(res.status).toBe(201);
    } finally {
      await wb.stop();
    }
  });
});
