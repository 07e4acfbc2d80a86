// Every scheduled job runs under the one background guard: a job that throws is logged and shown in health as
// `job:<name>` (degraded, with its reason) instead of reaching the process, and the condition ends when the job next
// succeeds. A disk-full failure of a job also opens `storage-full`.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

let wb: TestWorkbench | undefined;
afterEach(async () => {
  await wb?.stop();
  wb = undefined;
});

type Health = { status: string; conditions: Array<{ key: string; reason: string }> };

describe('the background guard', () => {
  it('reports a failing scheduled job in health until it succeeds again', async () => {
    wb = await startTestWorkbench();
    const scheduler = resolveService(wb.workbench.container, TOKENS.Scheduler);
    let failure: Error | undefined = Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
    scheduler.schedule('test:flaky', '* * * * * *', () => {
      if (failure) throw failure;
    });
    const health = async (): Promise<Health> => (await wb!.call('monitor', { path: '/api/health' })).json;
    const degraded = await waitFor(async () => {
      const report = await health();
      return report.conditions.some((c) => c.key === 'job:test:flaky') ? report : undefined;
    }, 15_000, 'the failing job reported');
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'job:test:flaky', reason: expect.stringContaining('no space left on device') }),
        expect.objectContaining({ key: 'storage-full' }),
      ]),
    );
    failure = undefined;
    const cleared = await waitFor(async () => {
      const report = await health();
      return report.conditions.some((c) => c.key === 'job:test:flaky') ? undefined : report;
    }, 15_000, 'the job succeeding again');
    expect(cleared.conditions.map((c) => c.key)).not.toContain('job:test:flaky');
  }, 40_000);
});
