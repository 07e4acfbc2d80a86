// A batch file of many thousand messages is ingested while every base keeps answering: its messages are turned into
// rows and inserted in slices that take turns with the rest of the event loop (the reading itself runs in the worker
// pool). Asserted without timing: a bridge request sent while the file is being ingested is answered before the
// last of its messages is counted, and every message is counted once. The pause figures are in
// `npm run bench -- loopPauses`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { send } from '../helpers/http-client.ts';
import { adtMessage, createWatchedInterface, startMonitorHarness, type MonitorHarness } from './monitor-harness.ts';

const MESSAGES = 20_000;

describe('a big batch file takes turns', () => {
  let h: MonitorHarness;
  beforeAll(async () => {
    h = await startMonitorHarness({ monitor: { settleMs: 200 } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('answers a bridge request sent mid-ingest before the file is counted, and counts every message once', async () => {
    const folder = h.folder('batch');
    const id = await createWatchedInterface(h, 'batch', folder);
    const text = Array.from({ length: MESSAGES }, (_, i) => adtMessage(`B${i}`, { patientId: `P${i}` })).join('\r');
    const counted = async () => (await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=8760`)).json.data.messagesTotal as number;
    writeFileSync(join(folder, 'batch.hl7'), `${text}\r`);
    const events: string[] = [];
    const probe = send(h.wb.urls.bridge, { path: '/openapi.json' }).then((answer) => {
      events.push('bridge');
      return answer.status;
    });
    await expect.poll(counted, { timeout: 170_000, interval: 100 }).toBe(MESSAGES);
    events.push('counted');
    expect(await probe).toBe(200);
    expect(events).toEqual(['bridge', 'counted']);
  }, 180_000);
});
