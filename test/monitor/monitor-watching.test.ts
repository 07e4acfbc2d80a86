// Watching real folders through real HTTP: files one by one, bursts, batch files, slow writers, appends, rewrites,
// deletions, a folder removed and restored, an interface disabled and enabled with files arriving meanwhile, and
// content that is not HL7 at all. Counts are checked against the ledger and the metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE, type MessageFilter, type MessageRecord, type MonitorService } from '../../plugins/monitor/api.ts';
import { monitorActivity, quiesceMonitor } from '../kit/monitor-activity.ts';
import { adtMessage, startMonitorHarness, storages, waitFor, type MonitorHarness } from './monitor-harness.ts';

async function createInterface(h: MonitorHarness, name: string, dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await h.post('/api/monitor/interfaces', { name, directoryPath: dir, ...extra });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.data.id;
}

async function metrics(h: MonitorHarness, id: string): Promise<{ messagesTotal: number; messagesFailed: number }> {
  const response = await h.get(`/api/monitor/interfaces/${id}/metrics?sinceHours=2`);
  expect(response.status).toBe(200);
  return response.json.data;
}

async function waitForTotal(h: MonitorHarness, id: string, total: number): Promise<void> {
  await waitFor(async () => (await metrics(h, id)).messagesTotal === total, 30_000, `${total} messages on ${id}`);
}

/** inotify watches this process holds (Linux: the `inotify wd:` lines of its inotify descriptors). */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target = '';
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    try {
      watches += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return watches;
}

describe.each(storages())('watching folders on %s', (storage) => {
  let h: MonitorHarness;
  let service: MonitorService;
  /** Every stored message matching a filter, with its raw text. */
  const find = async (filter: MessageFilter): Promise<MessageRecord[]> => {
    const found: MessageRecord[] = [];
    for await (const message of service.streamMessages(filter, { include: ['raw'] })) found.push(message);
    return found;
  };
  beforeAll(async () => {
    h = await startMonitorHarness({ storage });
    service = resolveService(h.wb.workbench.container, MONITOR_SERVICE);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('counts files dropped one by one, stores their facts, and ignores files outside the pattern', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `one-by-one ${storage}`, dir);
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(dir, `m${i}.hl7`), adtMessage(`ONE${i}`, { patientId: `PAT${i}`, account: `ACC${i}` }));
    }
    writeFileSync(join(dir, 'notes.txt'), 'not watched');
    writeFileSync(join(dir, '.hidden.hl7'), adtMessage('HIDDEN'));
    const before = readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs, readFileSync(join(dir, name), 'utf8')]);
    await waitForTotal(h, id, 5);
    // watched files are read only: never written, moved or deleted
    expect(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs, readFileSync(join(dir, name), 'utf8')])).toEqual(before);
    const stored = await find({ controlId: 'ONE3' });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      interfaceId: id,
      messageType: 'ADT',
      triggerEvent: 'A01',
      version: '2.5',
      controlId: 'ONE3',
      sendingApplication: 'SENDAPP',
      sendingFacility: 'SENDFAC',
      patientIds: [{ id: 'PAT3', assigningAuthority: 'HOSP' }],
      accountNumber: 'ACC3',
      visitNumber: 'ACC3',
      isValid: true,
    });
    expect(stored[0].raw).toContain('MSH|^~\\&|SENDAPP');
    expect(stored[0].messageTime).toBe(new Date(2026, 0, 1, 12, 0, 0).toISOString());
    // MSH-7 of 2026-01-01 lies beyond the 24 h latency horizon: counted apart as stale, not as a latency
    expect(stored[0].latencyMs).toBeNull();
    expect(stored[0].latencyClass).toBe('stale');
    expect((await find({ patientId: 'PAT1' })).map((m) => m.controlId)).toEqual(['ONE1']);
    expect((await find({ accountNumber: 'ACC2' })).map((m) => m.controlId)).toEqual(['ONE2']);
    expect(await find({ controlId: 'HIDDEN' })).toHaveLength(0);
    expect(await service.storedMessageCounts(id)).toEqual({ messages: 5, failed: 0, files: 5, interfaces: 1 });
  });

  it('counts a burst of 1,000 files exactly', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `burst ${storage}`, dir);
    for (let i = 0; i < 1000; i++) writeFileSync(join(dir, `b${i}.hl7`), adtMessage(`BURST${i}`));
    await waitForTotal(h, id, 1000);
    expect((await service.storedMessageCounts(id)).files).toBe(1000);
    const all = await find({ interfaceIds: [id] });
    expect(new Set(all.map((m) => m.controlId)).size).toBe(1000);
  });

  it('holds no operating-system watch per file: a folder of 1,000 files costs the watches of its folders', async () => {
    if (process.platform !== 'linux') return void console.log('skipped: counts inotify watches, which only Linux has');
    const before = inotifyWatches();
    const dir = h.folder();
    const id = await createInterface(h, `no watch per file ${storage}`, dir);
    for (let i = 0; i < 1000; i++) writeFileSync(join(dir, `w${i}.hl7`), adtMessage(`WATCH${i}`));
    await waitForTotal(h, id, 1000);
    expect(inotifyWatches() - before).toBeLessThan(10);
  });

  it('counts the files of a folder moved in whole when recursive, and leaves subfolders alone when not', async () => {
    const outside = h.folder();
    const makeFolder = (name: string, prefix: string) => {
      const folder = join(outside, name);
      mkdirSync(folder);
      for (let i = 0; i < 5; i++) writeFileSync(join(folder, `m${i}.hl7`), adtMessage(`${prefix}${i}`));
      return folder;
    };
    const deep = h.folder();
    const deepId = await createInterface(h, `moved in ${storage}`, deep, { recursive: true, filePattern: '**/*.hl7' });
    const flat = h.folder();
    const flatId = await createInterface(h, `flat ${storage}`, flat, { filePattern: '**/*.hl7' });
    renameSync(makeFolder('deep', 'MOVED'), join(deep, 'arrived'));
    renameSync(makeFolder('flat', 'FLAT'), join(flat, 'arrived'));
    writeFileSync(join(flat, 'top.hl7'), adtMessage('FLATTOP'));
    await waitForTotal(h, deepId, 5);
    await waitForTotal(h, flatId, 1);
    await quiesceMonitor(h.wb.workbench);
    expect((await metrics(h, flatId)).messagesTotal).toBe(1);
  });

  it('never follows a symbolic link, whether it was there at start or arrived later', async () => {
    const outside = h.folder();
    writeFileSync(join(outside, 'target.hl7'), adtMessage('LINKED'));
    const dir = h.folder();
    symlinkSync(join(outside, 'target.hl7'), join(dir, 'early-link.hl7'));
    const id = await createInterface(h, `links ${storage}`, dir);
    symlinkSync(join(outside, 'target.hl7'), join(dir, 'late-link.hl7'));
    writeFileSync(join(dir, 'real.hl7'), adtMessage('REAL'));
    await waitForTotal(h, id, 1);
    await quiesceMonitor(h.wb.workbench);
    expect((await metrics(h, id)).messagesTotal).toBe(1);
    expect(await find({ controlId: 'LINKED' })).toEqual([]);
  });

  it('splits batch files (FHS/BHS, several MSH, MLLP, BOM, LF and CRLF) into their messages', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `batches ${storage}`, dir);
    const batch = ['FHS|^~\\&|ENGINE', 'BHS|^~\\&|ENGINE', adtMessage('BAT1'), adtMessage('BAT2'), adtMessage('BAT3'), 'BTS|3', 'FTS|1'].join('\r');
    writeFileSync(join(dir, 'batch.hl7'), batch);
    writeFileSync(join(dir, 'mllp.hl7'), `\u000b${adtMessage('MLLP1')}\u001c\r`);
    writeFileSync(join(dir, 'bom-lf.hl7'), `\ufeff${adtMessage('LF1').replaceAll('\r', '\n')}\n${adtMessage('LF2').replaceAll('\r', '\n')}\n`);
    writeFileSync(join(dir, 'crlf.hl7'), `${adtMessage('CRLF1').replaceAll('\r', '\r\n')}\r\n`);
    await waitForTotal(h, id, 7);
    const batchMessages = (await find({ interfaceIds: [id] })).filter((m) => m.controlId?.startsWith('BAT'));
    expect(batchMessages.map((m) => [m.controlId, m.indexInFile])).toEqual([['BAT1', 0], ['BAT2', 1], ['BAT3', 2]]);
    expect(new Set(batchMessages.map((m) => m.fileId)).size).toBe(1);
    expect((await find({ controlId: 'LF2' }))[0].isValid).toBe(true);
    expect((await service.storedMessageCounts(id)).files).toBe(4);
  });

  it('counts a file written slowly in chunks once, after the last chunk', async () => {
    // the settle time is what this test is about, so it runs on SQLite (a second PostgreSQL schema adds nothing)
    const slow = await startMonitorHarness({ monitor: { settleMs: 1500 } });
    try {
      const dir = slow.folder();
      const id = await createInterface(slow, 'slow', dir);
      const content = [adtMessage('SLOW1'), adtMessage('SLOW2')].join('\r');
      const path = join(dir, 'slow.hl7');
      const chunks = 10;
      const size = Math.ceil(content.length / chunks);
      for (let i = 0; i < chunks; i++) {
        appendFileSync(path, content.slice(i * size, (i + 1) * size));
        // the monitor reports the file as seen and still settling: nothing of it may be counted yet
        await expect.poll(async () => (await monitorActivity(slow.wb.workbench)).settling, { timeout: 10_000 }).toBe(1);
        expect((await metrics(slow, id)).messagesTotal, `after chunk ${i + 1}`).toBe(0);
        // the writer's pace, well within the settle time
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await waitForTotal(slow, id, 2);
      const svc = resolveService(slow.wb.workbench.container, MONITOR_SERVICE);
      expect(await svc.storedMessageCounts(id)).toMatchObject({ messages: 2, files: 1 });
    } finally {
      await slow.stop();
    }
  });

  it('counts only the new messages of an appended file, and a rewritten file as a new one; deletion changes nothing', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `append ${storage}`, dir);
    const path = join(dir, 'feed.hl7');
    writeFileSync(path, `${adtMessage('APP1')}\r${adtMessage('APP2')}\r`);
    await waitForTotal(h, id, 2);
    appendFileSync(path, `${adtMessage('APP3')}\r`);
    await waitForTotal(h, id, 3);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 3, files: 1 });
    expect((await find({ controlId: 'APP3' }))[0].indexInFile).toBe(2);

    writeFileSync(path, `${adtMessage('NEW1')}\r`);
    await waitForTotal(h, id, 4);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 4, files: 2 });
    expect(await find({ controlId: 'APP1' })).toHaveLength(1);

    rmSync(path);
    writeFileSync(join(dir, 'after.hl7'), adtMessage('AFTER'));
    await waitForTotal(h, id, 5);
    expect(await service.storedMessageCounts(id)).toMatchObject({ messages: 5, files: 3 });
  });

  it('stores content that is not HL7 as one failed message with a parse error and raises an unparsable-file alert', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `garbage ${storage}`, dir);
    writeFileSync(join(dir, 'garbage.hl7'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0x42]));
    await waitFor(async () => (await metrics(h, id)).messagesFailed === 1, 30_000, 'one failed message');
    const [message] = await find({ interfaceIds: [id] });
    expect(message.isValid).toBe(false);
    expect(message.errors[0].code).toBe('PARSE_ERROR');
    const alerts = await waitFor(async () => {
      const list = (await h.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as Array<{ rule: string; title: string }>;
      return list.find((a) => a.rule === 'unparsable-file');
    });
    expect(alerts.title).toContain('Unparsable');
  });

  it('raises a critical alert when the folder disappears and resumes by itself when it returns', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `vanishing ${storage}`, dir);
    writeFileSync(join(dir, 'a.hl7'), adtMessage('VAN1'));
    await waitForTotal(h, id, 1);
    const parked = `${dir}-parked`;
    renameSync(dir, parked);
    const alert = await waitFor(async () => {
      const list = (await h.get(`/api/monitor/alerts?severity=critical&interfaceId=${id}`)).json.data as Array<{ rule: string; clearedAt: string | null; id: string }>;
      return list.find((a) => a.rule === 'folder-unreachable' && a.clearedAt === null);
    });
    const status = await h.get('/api/monitor/status');
    const mine = status.json.data.interfaces.find((i: { interfaceId: string }) => i.interfaceId === id);
    expect(mine.state).toBe('down');
    expect(status.json.data.state).toBe('down');
    writeFileSync(join(parked, 'b.hl7'), adtMessage('VAN2'));
    renameSync(parked, dir);
    await waitForTotal(h, id, 2);
    writeFileSync(join(dir, 'c.hl7'), adtMessage('VAN3'));
    await waitForTotal(h, id, 3);
    const after = (await h.get(`/api/monitor/alerts?interfaceId=${id}`)).json.data as Array<{ id: string; clearedAt: string | null }>;
    expect(after.find((a) => a.id === alert.id)?.clearedAt).not.toBeNull();
    const minutes = await service.minuteRollups(id, { since: new Date(Date.now() - 3_600_000) });
    expect(minutes.some((m) => !m.reachable)).toBe(true);
  });

  it('stops watching when disabled and reads what arrived meanwhile when enabled again', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `toggle ${storage}`, dir, { recursive: true, filePattern: '**/*.hl7' });
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a.hl7'), adtMessage('TOG1'));
    await waitForTotal(h, id, 1);
    expect((await h.put(`/api/monitor/interfaces/${id}`, { enabled: false })).json.data.enabled).toBe(false);
    writeFileSync(join(dir, 'b.hl7'), adtMessage('TOG2'));
    writeFileSync(join(dir, 'sub', 'c.hl7'), adtMessage('TOG3'));
    const atRest = await quiesceMonitor(h.wb.workbench);
    expect(atRest).toMatchObject({ idle: true, settling: 0, queued: 0, held: 0 });
    expect(atRest.checkedAt).not.toBeNull();
    expect((await metrics(h, id)).messagesTotal).toBe(1);
    expect((await h.put(`/api/monitor/interfaces/${id}`, { enabled: true })).json.data.enabled).toBe(true);
    await waitForTotal(h, id, 3);
    expect((await service.storedMessageCounts(id)).files).toBe(3);
  });

  it('validates a large message in the worker pool and stores its verdict', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `large ${storage}`, dir, { validationMode: 'strict' });
    const big = `${adtMessage('BIG1')}\rNTE|1||${'x'.repeat(40_000)}`;
    writeFileSync(join(dir, 'big.hl7'), big);
    // the first pooled task boots a worker, which loads every standard's definitions
    await waitFor(async () => (await metrics(h, id)).messagesTotal === 1, 150_000, 'the large message');
    const [message] = await find({ controlId: 'BIG1' });
    expect(message.raw?.length).toBe(big.length);
    expect(message.isValid).toBe(false);
    expect(message.errors.map((e) => e.code)).toContain('SEGMENT_UNEXPECTED');
  }, 180_000);

  it('watches with polling', async () => {
    const dir = h.folder();
    const id = await createInterface(h, `polling ${storage}`, dir, { usePolling: true });
    writeFileSync(join(dir, 'p.hl7'), adtMessage('POLL1'));
    await waitForTotal(h, id, 1);
    expect((await metrics(h, id)).messagesTotal).toBe(1);
  });
});

describe('restarts', () => {
  it('never counts a file twice and never misses one dropped while the service was down', async () => {
    const dataDir = join((await import('node:os')).tmpdir(), `workbench-restart-${process.pid}-${Date.now()}`);
    const first = await startMonitorHarness({ config: { dataDir } });
    const dir = first.folder();
    let id = '';
    try {
      id = await createInterface(first, 'restart', dir);
      for (let i = 0; i < 20; i++) writeFileSync(join(dir, `r${i}.hl7`), adtMessage(`R${i}`));
      await waitForTotal(first, id, 20);
    } finally {
      await first.wb.stop();
    }
    for (let i = 20; i < 30; i++) writeFileSync(join(dir, `r${i}.hl7`), adtMessage(`R${i}`));
    appendFileSync(join(dir, 'r0.hl7'), `\r${adtMessage('R0B')}`);
    const second = await startMonitorHarness({ config: { dataDir } });
    try {
      await waitForTotal(second, id, 31);
      const svc = resolveService(second.wb.workbench.container, MONITOR_SERVICE);
      await quiesceMonitor(second.wb.workbench);
      expect(await svc.storedMessageCounts(id)).toEqual({ messages: 31, failed: 0, files: 30, interfaces: 1 });
    } finally {
      await second.stop();
      await first.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
