// Identical status, metrics and report requests arriving together cost one computation; a commit, an alert change or
// an interface change ends the sharing at once, and the time to live (on the monitor's clock) ends it otherwise.
// Computations are counted from the monitor's debug log, one line per computation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ManualClock } from '../helpers/manual-clock.ts';
import { adtMessage, startMonitorHarness, waitFor, type MonitorHarness } from './monitor-harness.ts';

const TTL_MS = 30_000;
const REQUESTS = 20;

describe('shared answers of status, metrics and report', () => {
  let h: MonitorHarness;
  let clock: ManualClock;
  let id: string;
  let dir: string;
  let files = 0;
  const log: string[] = [];

  /** Keys of the shared answers computed so far, one per computation. */
  function computed(): string[] {
    return log
      .join('')
      .split('\n')
      .filter((line) => line.includes('monitor computed a shared answer'))
      .map((line) => (JSON.parse(line) as { answer: string }).answer);
  }

  /** Computations of answers whose key starts with `prefix` while `run` runs. */
  async function computationsDuring(prefix: string, run: () => Promise<unknown>): Promise<number> {
    const before = computed().filter((key) => key.startsWith(prefix)).length;
    await run();
    return computed().filter((key) => key.startsWith(prefix)).length - before;
  }

  async function total(): Promise<number> {
    return (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=24`)).json.data.messagesTotal;
  }

  async function drop(): Promise<number> {
    files++;
    writeFileSync(join(dir, `m${files}.hl7`), adtMessage(`S${files}`, { time: '20260610102900+0000' }));
    await waitFor(async () => (await total()) === files, 20_000, `${files} messages`);
    return files;
  }

  beforeAll(async () => {
    clock = new ManualClock('2026-06-10T10:30:00Z');
    const logDestination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString('utf8'));
        done();
      },
    });
    h = await startMonitorHarness({ clock, logDestination, config: { logging: { level: 'debug' } }, monitor: { sharedAnswerMs: TTL_MS } });
    dir = h.folder();
    id = (await h.post('/api/monitor/interfaces', { name: 'ADT shared', directoryPath: dir })).json.data.id;
    await drop();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it(`answers ${REQUESTS} concurrent identical status requests from one computation`, async () => {
    // a change first, so that no kept answer serves the first request
    await drop();
    let answers: Array<{ status: number; json: unknown }> = [];
    const computations = await computationsDuring('status', async () => {
      answers = await Promise.all(Array.from({ length: REQUESTS }, () => h.get('/api/monitor/status')));
    });
    expect(answers.map((a) => a.status)).toEqual(Array(REQUESTS).fill(200));
    for (const answer of answers) expect(answer.json).toEqual(answers[0].json);
    expect((answers[0].json as { data: { interfaces: Array<{ interfaceId: string }> } }).data.interfaces.map((i) => i.interfaceId)).toEqual([id]);
    expect(computations).toBe(1);
  });

  it('shares metrics per interface and window, and one report build among every format', async () => {
    const messages = await drop();
    // (drop() waited on the 24-hour window, so two others are asked here)
    let half: Array<{ json: { data: { messagesTotal: number } } }> = [];
    const metrics = await computationsDuring(`metrics|${id}|`, async () => {
      [half] = await Promise.all([
        Promise.all(Array.from({ length: REQUESTS }, () => h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=12`))),
        Promise.all(Array.from({ length: REQUESTS }, () => h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=3`))),
      ]);
    });
    expect(half.map((a) => a.json.data.messagesTotal)).toEqual(Array(REQUESTS).fill(messages));
    // one for the twelve hours, one for the three
    expect(metrics).toBe(2);

    const formats = ['json', 'text', 'html'];
    let reports: Array<{ status: number; headers: Record<string, unknown> }> = [];
    const builds = await computationsDuring('report|', async () => {
      reports = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => h.get(`/api/monitor/report?format=${formats[i % 3]}&sinceHours=3`)));
    });
    expect(reports.map((r) => r.status)).toEqual(Array(REQUESTS).fill(200));
    expect(String(reports[1].headers['content-type'])).toContain('text/plain');
    expect(String(reports[2].headers['content-type'])).toContain('text/html');
    expect(builds).toBe(1);
  });

  it('computes again after a commit, showing what it committed', async () => {
    await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=24`);
    const computations = await computationsDuring(`metrics|${id}|24|`, async () => {
      // drop() polls the metrics until the new message shows: a kept answer from before the commit would never show it
      await drop();
    });
    expect(computations).toBeGreaterThanOrEqual(1);
    expect(await total()).toBe(files);
  });

  it('computes again after an interface change, and once the time to live passed', async () => {
    await h.get('/api/monitor/status');
    expect(await computationsDuring('status', () => h.get('/api/monitor/status'))).toBe(0);
    await h.put(`/api/monitor/interfaces/${id}`, { name: 'ADT shared, renamed' });
    let renamed: { json: { data: { interfaces: Array<{ name: string }> } } } | undefined;
    expect(
      await computationsDuring('status', async () => {
        renamed = await h.get('/api/monitor/status');
      }),
    ).toBe(1);
    expect(renamed?.json.data.interfaces[0].name).toBe('ADT shared, renamed');
    clock.advance(TTL_MS + 1);
    expect(await computationsDuring('status', () => h.get('/api/monitor/status'))).toBe(1);
  });
});
