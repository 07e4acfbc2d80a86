// Deleting an interface takes its messages out of every figure, through the real HTTP interface on each store: the
// report's totals, the analytics series at every granularity (answered from minute, hour and day roll-ups), the top-N
// by interface and by message type (dimension roll-ups) and the CSV export all count the interfaces that remain, and
// agree with each other, over windows of whole hours and days as well as the partial minutes at their ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../helpers/manual-clock.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** Whole days around the messages, then the last partial hour: every step of the roll-ups is read. */
const WINDOW = 'since=2026-06-08T00:00:00Z&until=2026-06-12T00:30:00Z';

describe.each(storages())('a deleted interface in the figures on %s', (storage) => {
  let h: MonitorHarness;
  let clock: ManualClock;
  let kept: string;
  let gone: string;

  async function ingest(id: string, dir: string, prefix: string, count: number, total: number): Promise<void> {
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `${prefix}${i}.hl7`), adtMessage(`${prefix}${i}`));
    await waitFor(async () => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=200`)).json.data.messagesTotal === total, 30_000, `${total} messages`);
  }

  beforeAll(async () => {
    clock = new ManualClock('2026-06-10T10:30:00Z');
    h = await startMonitorHarness({ clock, storage });
    const keptDir = h.folder('kept');
    const goneDir = h.folder('gone');
    kept = (await h.post('/api/monitor/interfaces', { name: 'kept feed', directoryPath: keptDir })).json.data.id;
    gone = (await h.post('/api/monitor/interfaces', { name: 'gone feed', directoryPath: goneDir })).json.data.id;
    await ingest(kept, keptDir, 'K', 3, 3);
    await ingest(gone, goneDir, 'G', 5, 5);
    // a second hour and the window's last partial hour (minute roll-ups) hold messages of both too
    clock.set('2026-06-11T07:15:00Z');
    await ingest(kept, keptDir, 'L', 2, 5);
    await ingest(gone, goneDir, 'H', 4, 9);
    clock.set('2026-06-12T00:10:00Z');
    await ingest(kept, keptDir, 'M', 1, 6);
    await ingest(gone, goneDir, 'N', 2, 11);
    clock.set('2026-06-12T00:40:00Z');
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  /** Every figure of the window, each summed over its rows. */
  async function figures(): Promise<Record<string, number>> {
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const answer: Record<string, number> = {};
    const report = await h.get("/api/monitor/report?format=json&sinceHours=100");
    expect(report.status, JSON.stringify(report.json)).toBe(200);
    answer.report = report.json.data.totals.messages;
    for (const granularity of ['oneMinute', 'oneHour', 'oneDay']) {
      const series = await h.get(`/api/monitor/analytics/timeseries?${WINDOW}&granularity=${granularity}`);
      expect(series.status, JSON.stringify(series.json)).toBe(200);
      answer[`series ${granularity}`] = sum(series.json.data.points.map((p: { messages: number }) => p.messages));
      const csv = await h.get(`/api/monitor/analytics/export/csv?${WINDOW}&granularity=${granularity}`);
      expect(csv.status).toBe(200);
      // bucketStart,interfaceId,granularity,metric,value,messages,failed,successful
      answer[`csv ${granularity}`] = sum(csv.text.split('\r\n').slice(1, -1).map((line) => Number(line.split(',')[5])));
    }
    for (const by of ['interface', 'messageType', 'facility']) {
      const top = await h.get(`/api/monitor/analytics/topn?${WINDOW}&by=${by}`);
      expect(top.status, JSON.stringify(top.json)).toBe(200);
      answer[`top ${by}`] = sum(top.json.data.rows.map((r: { value: number }) => r.value));
    }
    return answer;
  }

  const everywhere = (n: number) => ({
    report: n,
    'series oneMinute': n,
    'csv oneMinute': n,
    'series oneHour': n,
    'csv oneHour': n,
    'series oneDay': n,
    'csv oneDay': n,
    'top interface': n,
    'top messageType': n,
    'top facility': n,
  });

  it('counts both interfaces in every figure while both exist', async () => {
    expect(await figures()).toEqual(everywhere(17));
  });

  it('counts only the interface that remains in every figure once the other is deleted', async () => {
    const removed = await h.del(`/api/monitor/interfaces/${gone}`);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(await figures()).toEqual(everywhere(6));
    const top = await h.get(`/api/monitor/analytics/topn?${WINDOW}&by=interface`);
    expect(top.json.data.rows.map((r: { key: string }) => r.key)).toEqual([kept]);
    // the deleted interface's own figures are gone with it, not kept under its id
    expect((await h.get(`/api/monitor/analytics/timeseries?${WINDOW}&granularity=oneDay&interfaceId=${gone}`)).status).toBe(404);
  });
});
