// The monitor's periodic watch check, the node's heartbeat and a report schedule's cron tick run under the one
// background guard: a failure injected into each (a write the store refuses) is logged and shown in health as
// `job:<owner>:<name>` (degraded, with the reason) while the process keeps answering, and the condition ends once the
// job succeeds again.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { waitFor } from '../monitor/monitor-harness.ts';

type Health = { status: string; conditions: Array<{ key: string; reason: string }> };

const statement = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as {
  run: (...args: unknown[]) => unknown;
  all: (...args: unknown[]) => unknown;
  get: (...args: unknown[]) => unknown;
};
const { run, all, get } = statement;

/** Makes every write statement whose SQL matches `target` fail, as a store that refuses writes does. */
function refuseWrites(target: RegExp): void {
  const refusing = (original: (...args: unknown[]) => unknown) =>
    function (this: { source: string }, ...args: unknown[]) {
      if (!/^\s*select/i.test(this.source) && target.test(this.source)) throw new Error(`injected failure of: ${this.source.slice(0, 40)}`);
      return original.apply(this, args);
    };
  statement.run = refusing(run);
  statement.all = refusing(all);
  statement.get = refusing(get);
}

function restoreWrites(): void {
  statement.run = run;
  statement.all = all;
  statement.get = get;
}

let wb: TestWorkbench | undefined;
afterEach(async () => {
  restoreWrites();
  await wb?.stop();
  wb = undefined;
});

const health = async (): Promise<Health> => {
  const answer = await wb!.call('monitor', { path: '/api/health' });
  expect(answer.status).toBe(200);
  return answer.json;
};

/** Waits until health shows `key` open (returns the report), then until it is gone again after `heal`. */
async function reportedThenCleared(key: string, heal: () => void): Promise<Health> {
  const degraded = await waitFor(async () => {
    const report = await health();
    return report.conditions.some((c) => c.key === key) ? report : undefined;
  }, 20_000, `${key} reported`);
  heal();
  await waitFor(async () => ((await health()).conditions.some((c) => c.key === key) ? undefined : true), 20_000, `${key} cleared`);
  return degraded;
}

describe('timers and background jobs under the guard', () => {
  it('reports a failing watch check of the monitor and keeps watching', async () => {
    wb = await startTestWorkbench({ config: { plugins: { monitor: { settleMs: 100, checkIntervalMs: 100, pollingIntervalMs: 100 } } } });
    const folder = join(wb.dataDir, 'watched');
    mkdirSync(folder);
    const created = await wb.call('monitor', { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'checked', directoryPath: folder } });
    expect(created.status, created.text).toBe(201);
    // The folder goes: the check closes its watcher and raises an alert, which the store refuses to write.
    refuseWrites(/monitor_alerts/);
    rmSync(folder, { recursive: true });
    const degraded = await reportedThenCleared('job:monitor:watch-check', restoreWrites);
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions.find((c) => c.key === 'job:monitor:watch-check')?.reason).toContain('injected failure');
    const status = await wb.call('monitor', { path: '/api/monitor/interfaces' });
    expect(status.status).toBe(200);
  }, 60_000);

  it('reports a heartbeat that cannot reach the store until it beats again', async () => {
    wb = await startTestWorkbench({ config: { node: { leaseMs: 1_000 } } });
    refuseWrites(/kernel_nodes/);
    const degraded = await reportedThenCleared('job:kernel:heartbeat', restoreWrites);
    expect(degraded.conditions.find((c) => c.key === 'job:kernel:heartbeat')?.reason).toContain('injected failure');
    expect((await health()).status).toBe('healthy');
  }, 60_000);

  it("reports a report schedule's cron tick that fails to record its delivery", async () => {
    // A mail server that is not there (nothing listens on port 1 of loopback): every delivery fails at once.
    wb = await startTestWorkbench({
      config: {
        plugins: {
          analytics: { smtp: { host: '127.0.0.1', port: 1, from: 'workbench@hospital.example' }, delivery: { attempts: 1, retryDelayMs: 1, timeoutMs: 2_000 } },
        },
      },
    });
    const created = await wb.call('monitor', {
      method: 'POST',
      path: '/api/monitor/analytics/reports/schedule',
      body: { frequency: 'daily', format: 'text', recipients: ['ops@hospital.example'], hour: 6 },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    const name = `analytics:analytics-report-${id}`;
    // The delivery fails, and recording that failure is refused by the store.
    refuseWrites(/analytics_report_schedules/);
    // The tick as node-cron starts it at the schedule's hour.
    const scheduler = resolveService(wb.workbench.container, TOKENS.Scheduler);
    const jobs = (scheduler as unknown as { jobs: Map<string, { task: { execute(): Promise<unknown> } }> }).jobs;
    expect([...jobs.keys()]).toContain(name);
    await jobs.get(name)!.task.execute();
    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.conditions.find((c) => c.key === `job:${name}`)?.reason).toContain('injected failure');
    restoreWrites();
    await jobs.get(name)!.task.execute();
    expect((await health()).conditions.map((c) => c.key)).not.toContain(`job:${name}`);
  }, 60_000);
});
