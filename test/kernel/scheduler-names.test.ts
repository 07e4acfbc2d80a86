// Scheduler names are scoped per plugin, a duplicate is an error naming both, and runNow runs a job at once.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { Scheduler } from '../../kernel/background/scheduler.ts';
import { slotOf } from '../../kernel/cluster/job-claims.ts';

const silent = pino({ level: 'silent' });

describe('Scheduler names', () => {
  it('scopes names by plugin: two plugins may use one name, one plugin may not use it twice', async () => {
    const scheduler = new Scheduler(silent);
    const monitor = scheduler.forPlugin('monitor');
    const audit = scheduler.forPlugin('audit');
    monitor.schedule('retention', '17 3 * * *', () => {});
    audit.schedule('retention', '23 3 * * *', () => {});
    expect(scheduler.list().sort()).toEqual(['audit:retention', 'monitor:retention']);
    expect(monitor.list()).toEqual(['retention']);
    expect(() => monitor.schedule('retention', '0 4 * * *', () => {})).toThrow(
      /"monitor:retention" is declared twice: once on "17 3 \* \* \*" and again on "0 4 \* \* \*"/,
    );
    await scheduler.stopAll();
  });

  it('a stopped job frees its name; runNow runs the job and passes its failure on', async () => {
    const scheduler = new Scheduler(silent);
    const plugin = scheduler.forPlugin('analytics');
    let runs = 0;
    const job = plugin.schedule('report-1', '0 6 * * *', () => {
      runs++;
    });
    await plugin.runNow('report-1');
    expect(runs).toBe(1);
    job.stop();
    plugin.schedule('report-1', '0 7 * * *', () => {
      throw new Error('smtp down');
    });
    await expect(plugin.runNow('report-1')).rejects.toThrow('smtp down');
    await expect(plugin.runNow('missing')).rejects.toThrow(/No scheduled job is named "analytics:missing"/);
    await scheduler.stopAll();
  });

  it('runs a tick only on the scheduler whose claim of the occurrence wins', async () => {
    // one claim table and two schedulers stand for two nodes on one store: each second runs once
    const claimed = new Set<string>();
    const claims = {
      async claim(job: string, slot: string) {
        const key = `${job}@${slot}`;
        if (claimed.has(key)) return false;
        claimed.add(key);
        return true;
      },
    };
    const nodes = [new Scheduler(silent), new Scheduler(silent)];
    let runs = 0;
    for (const node of nodes) {
      node.coordinate(claims);
      node.schedule('tick', '* * * * * *', () => {
        runs++;
      });
    }
    // two occurrences run, each offered to both nodes
    await expect.poll(() => runs, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    for (const node of nodes) await node.stopAll();
    expect(runs).toBe(claimed.size);
  });

  it('names an occurrence by its scheduled instant', () => {
    expect(slotOf('17 3 * * *', Date.parse('2026-03-01T03:17:00.180Z'))).toBe('2026-03-01T03:17:00.000Z');
    expect(slotOf('* * * * * *', Date.parse('2026-03-01T03:17:04.990Z'))).toBe('2026-03-01T03:17:05.000Z');
  });
});
