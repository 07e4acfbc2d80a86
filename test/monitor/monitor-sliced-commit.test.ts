// A batch file of many messages is committed in slices, the event loop free between two: through HTTP, the interface's
// count is seen between none and all of the file's messages while it is committed (each slice is visible once
// stored), and at the end every message counts once. Killed with SIGKILL in the middle of such a file, a real
// `workbench start` resumes the file after its last stored slice when started again: nothing lost, nothing twice.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { MESSAGES_PER_SLICE } from '../../plugins/monitor/ingest/batch-commit.ts';
import { killed, startServiceProcess, writeServiceConfig } from '../../scripts/monitor-crash-scenario.ts';
import { send } from '../helpers/http-client.ts';
import { adtMessage, createWatchedInterface, interfaceTotals, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** `count` ADT messages in one batch file's text; every ninth lacks its MSH-9 and so fails validation. */
function batch(count: number, prefix: string): { text: string; failed: number } {
  let failed = 0;
  const messages = Array.from({ length: count }, (_, i) => {
    const message = adtMessage(`${prefix}${i}`, { patientId: `P${i}` });
    if (i % 9 !== 4) return message;
    failed++;
    return message.replace('ADT^A01', '');
  });
  return { text: messages.join('\r'), failed };
}

/** Polls `count` until it reaches `total`; answers every distinct value seen on the way. */
async function countsUntil(count: () => Promise<number>, total: number, timeoutMs: number): Promise<number[]> {
  const seen: number[] = [];
  await waitFor(async () => {
    const now = await count();
    if (seen[seen.length - 1] !== now) seen.push(now);
    return now >= total;
  }, timeoutMs, `${total} messages counted`);
  return seen;
}

describe.each(storages())('a batch file committed in slices (%s)', (storage) => {
  let h: MonitorHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('shows the file counted in parts while it is committed, and every message once at the end', async () => {
    h = await startMonitorHarness({ storage });
    const dir = h.folder();
    const id = await createWatchedInterface(h, 'sliced', dir);
    const count = MESSAGES_PER_SLICE * 6 + 123;
    const { text, failed } = batch(count, 'S');
    writeFileSync(join(dir, 'big-batch.hl7'), text);

    const seen = await countsUntil(async () => (await interfaceTotals(h!, id)).messagesTotal, count, 240_000);
    // a count between none and all of the file: part of it was stored and visible before the rest
    expect(seen.some((total) => total > 0 && total < count)).toBe(true);
    expect(await interfaceTotals(h, id)).toEqual(expect.objectContaining({ messagesTotal: count, messagesFailed: failed }));
    // at rest, nothing more is counted: the file's ledger row is whole, not read again
    expect((await h.post('/api/monitor/rescan')).json.data.idle).toBe(true);
    expect((await interfaceTotals(h, id)).messagesTotal).toBe(count);
    const page = await h.get(`/api/monitor/messages?interfaceId=${id}&limit=1`);
    expect(page.status).toBe(200);
  }, 300_000);
});

describe('kill -9 in the middle of a batch file committed in slices', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('resumes the file after its last stored slice: every message counted once', async () => {
    root = mkdtempSync(join(tmpdir(), 'workbench-sliced-kill-'));
    const watched = join(root, 'watched');
    mkdirSync(watched);
    const { configPath, dataDir } = writeServiceConfig(root, { settleMs: 200, checkIntervalMs: 1_000 });
    let service = startServiceProcess(configPath);
    try {
      let url = await service.monitorUrl;
      const created = await send(url, { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'sliced kill', directoryPath: watched } });
      expect(created.status).toBe(201);
      const id = created.json.data.id as string;
      const total = async () => (await send(url, { path: `/api/monitor/interfaces/${id}/metrics?sinceHours=2` })).json.data.messagesTotal as number;
      const count = MESSAGES_PER_SLICE * 15 + 7;
      const { text } = batch(count, 'K');
      writeFileSync(join(watched, 'big-batch.hl7'), text);

      // killed once part of the file is stored and before all of it is
      const partly = await waitFor(async () => {
        const now = await total();
        return now > 0 ? now : undefined;
      }, 240_000, 'part of the file counted');
      await killed(service.child);
      expect(partly).toBeLessThan(count);

      service = startServiceProcess(configPath);
      url = await service.monitorUrl;
      await countsUntil(total, count, 240_000);
      expect((await send(url, { method: 'POST', path: '/api/monitor/rescan' })).json.data.idle).toBe(true);
      expect(await total()).toBe(count);
      await killed(service.child);

      const db = new SQLiteDatabase(join(dataDir, 'workbench.sqlite'), { readonly: true });
      try {
        const one = (query: string) => (db.prepare(query).get() as { n: number }).n;
        expect(one("select count(*) as n from monitor_files where state <> 'replaced'")).toBe(1);
        expect(one('select count(*) as n from monitor_files')).toBe(1);
        expect(one("select count(*) as n from monitor_files where state = 'ingested'")).toBe(1);
        expect(one('select coalesce(sum(message_count), 0) as n from monitor_files')).toBe(count);
        expect(one('select count(*) as n from monitor_messages')).toBe(count);
        expect(one('select count(distinct control_id) as n from monitor_messages')).toBe(count);
        expect(one('select coalesce(sum(messages), 0) as n from monitor_minutes')).toBe(count);
      } finally {
        db.close();
      }
    } finally {
      await killed(service.child);
    }
  }, 600_000);
});
