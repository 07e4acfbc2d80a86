// A large batch file is read in the worker pool, not on the event loop: through HTTP, its messages are counted
// exactly with the verdicts an in-process read gives; the read ran as a pooled `read` task; and a file the pool
// gives up on (over the time budget) is a failed file saying why, with its alert, never a crash or a lost file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkPool } from '../../kernel/workers/work-pool.ts';
import type { PooledTask } from '../../kernel/workers/pool-protocol.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { textDigestInSlices } from '../../plugins/monitor/ingest/text-digest.ts';
import { digestOf } from '../../plugins/monitor/messages/message-facts.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { adtMessage, createWatchedInterface, interfaceTotals, startMonitorHarness, waitForTotal, waitFor, type MonitorHarness } from './monitor-harness.ts';

/** `count` ADT messages in one batch file's text; every seventh lacks its MSH-9 and so fails validation. */
function batch(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, i) => {
    const message = adtMessage(`${prefix}${i}`, { patientId: `P${i}` });
    return i % 7 === 3 ? message.replace('ADT^A01', '') : message;
  }).join('\r');
}

describe('large batch files', () => {
  let h: MonitorHarness | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await h?.stop();
    h = undefined;
  });

  it('reads a batch file of readInPoolFromBytes or more in the pool, counting every message with its own verdict', async () => {
    const tasks: PooledTask['operation'][] = [];
    const run = WorkPool.prototype.run;
    vi.spyOn(WorkPool.prototype, 'run').mockImplementation(function (this: WorkPool, task: PooledTask) {
      tasks.push(task.operation);
      return run.call(this, task);
    });
    h = await startMonitorHarness({ config: { work: { threads: 1, inlineBelowBytes: 64 * 1024, readInPoolFromBytes: 64 * 1024, timeBudgetMs: 300_000 } } });
    const dir = h.folder();
    const content = batch(1_500, 'BIG');
    expect(content.length).toBeGreaterThan(64 * 1024);
    writeFileSync(join(dir, 'big-batch.hl7'), content);
    const id = await createWatchedInterface(h, 'large batch', dir);

    const counted = await waitForTotal(h, id, 1_500);
    // the same content read in-process gives the verdicts the monitor stored
    const hl7 = resolveService(h.wb.workbench.container, TOKENS.Standards).get('hl7');
    const inProcess = hl7!.reading!.readMessages(Buffer.from(content), { mode: 'compatibility' });
    expect(counted.messagesTotal).toBe(inProcess.messageCount);
    expect(counted.messagesFailed).toBe(inProcess.messages.filter((m) => !m.verdict?.isValid).length);
    expect(counted.messagesFailed).toBeGreaterThan(0);
    expect(tasks).toContain('read');

    // a small file beside it is read on the event loop, as before
    const before = tasks.length;
    writeFileSync(join(dir, 'small.hl7'), adtMessage('SMALL1'));
    await waitFor(async () => (await interfaceTotals(h!, id)).messagesTotal === 1_501, 30_000, 'the small file counted');
    expect(tasks.slice(before)).not.toContain('read');
  });

  it('takes the digest of a failed file a megabyte at a time, with turns between, as a whole decode would', async () => {
    // characters of two and four bytes cut by every step's end, and malformed bytes among them
    const content = Buffer.concat([
      Buffer.from('é'.repeat(1_500_000)),
      Buffer.from([0xf0, 0x9f, 0xff, 0xc3]),
      Buffer.from('😀x'.repeat(700_000)),
      Buffer.from([0xe2, 0x82]),
    ]);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const digest = await textDigestInSlices(content).finally(() => clearInterval(counting));
    expect(digest).toBe(digestOf(content.toString('utf8')));
    // the event loop ran timers while the 6 MB were decoded and hashed (at once, no timer could fire before the end)
    expect(turns).toBeGreaterThan(0);
    expect(await textDigestInSlices(Buffer.from('MSH|é'))).toBe(digestOf('MSH|é'));
  });

  it('fails a batch file the pool gives up on, saying why, and raises the unparsable-file alert', async () => {
    h = await startMonitorHarness({ config: { work: { threads: 1, inlineBelowBytes: 1024, readInPoolFromBytes: 1024, timeBudgetMs: 100 } } });
    const dir = h.folder();
    // far more than a worker reads in 100 ms; names of two- and four-byte characters, so some are cut by the
    // megabyte steps the failed message's digest is taken in
    const text = batch(40_000, 'HUGE').replaceAll('DOE^JANE', 'DOË^JANE😀');
    expect(text).not.toBe(batch(40_000, 'HUGE'));
    writeFileSync(join(dir, 'huge-batch.hl7'), text);
    const id = await createWatchedInterface(h, 'over budget', dir);
    const alert = await waitFor(async () => {
      const list = (await h!.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as Array<{ rule: string; message: string }>;
      return list.find((a) => a.rule === 'unparsable-file');
    }, 120_000, 'the unparsable-file alert');
    expect(alert.message).toContain('huge-batch.hl7');
    const m = await interfaceTotals(h, id);
    expect(m).toMatchObject({ messagesTotal: 1, messagesFailed: 1 });
    const page = await h.get(`/api/monitor/interfaces/${id}`);
    expect(page.status).toBe(200);
    // the one failed message keeps the digest of the whole file's text (taken in steps) and the text's start
    const listed = (await h.get(`/api/monitor/messages?interfaceId=${id}`)).json.data as { items: Array<{ id: string }> };
    expect(listed.items).toHaveLength(1);
    const failed = (await h.get(`/api/monitor/messages/${listed.items[0].id}`)).json.data as {
      message: { contentDigest: string };
      raw: string;
      findings: Array<{ code: string }>;
    };
    expect(failed.message.contentDigest).toBe(createHash('sha256').update(text).digest('hex'));
    expect(failed.findings.map((f) => f.code)).toEqual(['PARSE_ERROR']);
    expect(text.startsWith(failed.raw.replace(/\uFFFD$/, ''))).toBe(true);
    expect(Buffer.byteLength(failed.raw)).toBeGreaterThan(60_000);
    // the service goes on: another file is counted
    writeFileSync(join(dir, 'next.hl7'), adtMessage('NEXT1'));
    await waitFor(async () => (await interfaceTotals(h!, id)).messagesTotal === 2, 30_000, 'the next file counted');
  });
});
