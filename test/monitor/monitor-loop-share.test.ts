// The monitor shares the event loop while it reads a batch of settled files: reading and judging 200 files of some
// size used to run as one chain of promises that never waited (SQLite answers at once), blocking every base for the
// whole batch. The longest block of the event loop while such batches are ingested stays a fraction of a batch's
// reading time; the bound is generous (the 10 ms slices plus one file and the commit), so a loaded machine does not
// fail it, while a batch read in one block is many times over it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

let h: MonitorHarness;

beforeAll(async () => {
  h = await startMonitorHarness({ monitor: { settleMs: 300 } });
});
afterAll(async () => {
  await h.stop();
});

/** An ADT^A01 with many OBX segments, so judging it is real work. */
function heavyMessage(controlId: string): string {
  const obx = Array.from({ length: 150 }, (_, i) => `OBX|${i + 1}|NM|8867-4^Heart rate^LN||${60 + (i % 40)}|/min|60-100|N|||F|||20260101120000`);
  return [adtMessage(controlId), ...obx].join('\r');
}

describe('sharing the event loop while ingesting', () => {
  it('never blocks the event loop for a whole batch of files', async () => {
    const folder = h.folder('heavy');
    const created = await h.post('/api/monitor/interfaces', { name: 'heavy', directoryPath: folder });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    const total = async () => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`)).json.data.messagesTotal;
    // one file first: the HL7 definitions load on first use, once
    writeFileSync(join(folder, 'warm.hl7'), heavyMessage('W0'));
    await waitFor(async () => (await total()) === 1, 60_000, 'the first file counted');
    const files = 600;
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    for (let i = 0; i < files; i++) writeFileSync(join(folder, `h${i}.hl7`), heavyMessage(`H${i}`));
    histogram.enable();
    const started = performance.now();
    await waitFor(async () => (await total()) === files + 1, 120_000, 'every heavy file counted');
    const ingestMs = performance.now() - started;
    histogram.disable();
    const longestBlockMs = histogram.max / 1e6;
    // three batches of 200 were read; reading one in a single block takes about a third of the whole ingest, so a
    // sixth (or half a second, for a fast machine) still tells the two apart while a busy machine's slower slices pass
    expect(longestBlockMs, `longest block ${longestBlockMs.toFixed(0)} ms of ${ingestMs.toFixed(0)} ms ingesting`).toBeLessThan(Math.max(500, ingestMs / 6));
  }, 180_000);
});
