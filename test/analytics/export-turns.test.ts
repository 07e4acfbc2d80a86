// The CSV export through HTTP shares the event loop and is bounded: a request sent while two years of minutes stream
// is answered before the export ends (the export yields between small slices), at most two exports stream at once
// (the next is answered 429 with Retry-After), and a slot comes back when its client goes away.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../helpers/manual-clock.ts';
import { send } from '../helpers/http-client.ts';
import { startAnalyticsHarness, waitFor, type MonitorHarness } from './analytics-harness.ts';

const SINCE = '2024-06-11T00:00:00Z';
const UNTIL = '2026-06-10T00:00:00Z';
const MINUTES = (Date.parse(UNTIL) - Date.parse(SINCE)) / 60_000;

describe('CSV export turns and slots', () => {
  let h: MonitorHarness;
  let base: string;
  const path = `/api/monitor/analytics/export/csv?since=${SINCE}&until=${UNTIL}&granularity=oneMinute`;

  beforeAll(async () => {
    h = await startAnalyticsHarness({ clock: new ManualClock('2026-06-10T12:00:00Z') });
    base = h.wb.urls.monitor.replace(/\/$/, '');
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  /** Opens an export; answers its response once the headers arrived. */
  const open = () =>
    new Promise<{ response: http.IncomingMessage; request: http.ClientRequest }>((resolve, reject) => {
      const request = http.get(`${base}${path}`, { agent: false }, (response) => resolve({ response, request }));
      request.on('error', reject);
    });

  it('answers a request sent mid-export before the export ends, and the export is whole', async () => {
    const { response } = await open();
    expect(response.statusCode).toBe(200);
    const events: string[] = [];
    let lines = 0;
    let healthSent = false;
    let health: Promise<number> | undefined;
    await new Promise<void>((resolve, reject) => {
      response.on('data', (bytes: Buffer) => {
        for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
        if (!healthSent) {
          healthSent = true;
          health = send(base, { path: '/api/health' }).then((answer) => {
            events.push('health');
            return answer.status;
          });
        }
      });
      response.on('end', () => {
        events.push('export');
        resolve();
      });
      response.on('error', reject);
    });
    expect(await health).toBe(200);
    expect(events).toEqual(['health', 'export']);
    expect(lines).toBe(MINUTES + 1);
  }, 120_000);

  it('streams at most two exports at once: the third gets 429 with Retry-After, and a slot frees when a client leaves', async () => {
    const first = await open();
    const second = await open();
    first.response.pause();
    second.response.pause();
    expect([first.response.statusCode, second.response.statusCode]).toEqual([200, 200]);
    const third = await h.get(path);
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('ANALYTICS_EXPORTS_BUSY');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    first.request.destroy();
    second.request.destroy();
    let again: Awaited<ReturnType<typeof open>> | undefined;
    await waitFor(async () => {
      again?.request.destroy();
      again = await open();
      return again.response.statusCode === 200;
    }, 20_000, 'a slot freed by the clients that left');
    again?.request.destroy();
  }, 120_000);
});
