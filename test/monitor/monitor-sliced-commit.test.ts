// A batch file of many messages is committed in slices, the event loop free between two: through HTTP, the interface's
// count is seen between none and all of the file's messages while it is committed (each slice is visible once
// stored), and at the end every message counts once. Killed with SIGKILL in the middle of such a file, a real
// `workbench start` resumes the file after its last stored slice when started again: nothing lost, nothing twice, on
// SQLite and on PostgreSQL (WORKBENCH_TEST_POSTGRES_URL). The file of a `partial` row renamed while the service is
// down takes its row along, and the messages after the row's count are committed once.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGES_PER_SLICE } from '../../plugins/monitor/ingest/batch-commit.ts';
import { killed, startServiceProcess, writeServiceConfig } from '../../scripts/monitor-crash-scenario.ts';
import { ledgerFiles, ledgerTotals, type CountedStore } from '../../scripts/ledger-totals.ts';
import { send } from '../helpers/http-client.ts';
import { freshPostgresSchema, testPostgresUrl } from '../helpers/postgres-schema.ts';
import {
  adtMessage,
  createWatchedInterface,
  interfaceTotals,
  startMonitorHarness,
  storages,
  waitFor,
  type MonitorHarness,
  type StorageName,
} from './monitor-harness.ts';

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

/** A store for services run as processes: their config's extra sections, where to count, and what removes it. */
interface ProcessStore {
  config: Record<string, unknown>;
  counted(dataDir: string): CountedStore;
  drop(): Promise<void>;
}

async function processStore(storage: StorageName): Promise<ProcessStore> {
  // a file's reading in a worker must not be given up on (work.timeBudgetMs) on a machine loaded by other runs:
  // what is tested here is the commit in slices, and a file given up on is stored as one failed message instead
  const work = { timeBudgetMs: 300_000 };
  if (storage === 'sqlite') return { config: { work }, counted: (dataDir) => ({ sqliteFile: join(dataDir, 'workbench.sqlite') }), drop: async () => {} };
  const schema = await freshPostgresSchema(testPostgresUrl!);
  return { config: { work, storage: { url: schema.url } }, counted: () => ({ postgresUrl: schema.url }), drop: () => schema.drop() };
}

/**
 * A real `workbench start` watching one folder through one interface, killed with SIGKILL and started again at will,
 * its store counted between two runs.
 */
class KilledService {
  private service: ReturnType<typeof startServiceProcess> | undefined;
  private url = '';
  private interfaceId = '';
  readonly watched: string;
  private readonly configPath: string;
  private readonly dataDir: string;

  constructor(private readonly root: string, private readonly store: ProcessStore) {
    this.watched = join(root, 'watched');
    mkdirSync(this.watched);
    ({ configPath: this.configPath, dataDir: this.dataDir } = writeServiceConfig(root, { settleMs: 200, checkIntervalMs: 1_000 }, store.config));
  }

  /** Starts the service (the first start creates the interface). */
  async start(): Promise<void> {
    this.service = startServiceProcess(this.configPath);
    this.url = await this.service.monitorUrl;
    if (this.interfaceId) return;
    const created = await send(this.url, { method: 'POST', path: '/api/monitor/interfaces', body: { name: 'sliced kill', directoryPath: this.watched } });
    expect(created.status).toBe(201);
    this.interfaceId = created.json.data.id as string;
  }

  /** The interface's messages counted, through HTTP. */
  async total(): Promise<number> {
    return (await send(this.url, { path: `/api/monitor/interfaces/${this.interfaceId}/metrics?sinceHours=2` })).json.data.messagesTotal as number;
  }

  /** Kills the service as soon as it counts more than `before` messages; answers the count it had reached. */
  async killOnceCounted(before: number): Promise<number> {
    const partly = await waitFor(async () => {
      const now = await this.total();
      return now > before ? now : undefined;
    }, 240_000, `more than ${before} messages counted`);
    await this.kill();
    return partly;
  }

  /** Waits until `count` messages are counted, checks nothing more is counted at rest, and kills the service. */
  async settlesAt(count: number): Promise<void> {
    await countsUntil(() => this.total(), count, 300_000);
    expect((await send(this.url, { method: 'POST', path: '/api/monitor/rescan' })).json.data.idle).toBe(true);
    expect(await this.total()).toBe(count);
    await this.kill();
  }

  async kill(): Promise<void> {
    if (this.service) await killed(this.service.child);
  }

  /** The store's counts (the service is stopped). */
  totals(): ReturnType<typeof ledgerTotals> {
    return ledgerTotals(this.store.counted(this.dataDir));
  }

  /** The store's ledger rows (the service is stopped). */
  files(): ReturnType<typeof ledgerFiles> {
    return ledgerFiles(this.store.counted(this.dataDir));
  }

  async remove(): Promise<void> {
    await this.kill();
    await this.store.drop();
    rmSync(this.root, { recursive: true, force: true });
  }
}

describe.each(storages())('kill -9 in the middle of a batch file committed in slices (%s)', (storage) => {
  let service: KilledService | undefined;
  afterEach(async () => {
    await service?.remove();
    service = undefined;
  });
  const started = async () => {
    service = new KilledService(mkdtempSync(join(tmpdir(), 'workbench-sliced-kill-')), await processStore(storage));
    await service.start();
    return service;
  };

  it('resumes the file after its last stored slice: every message counted once', async () => {
    const s = await started();
    const count = MESSAGES_PER_SLICE * 15 + 7;
    writeFileSync(join(s.watched, 'big-batch.hl7'), batch(count, 'K').text);

    // killed once part of the file is stored and before all of it is
    expect(await s.killOnceCounted(0)).toBeLessThan(count);
    expect((await s.totals()).partialRows).toBe(1);

    await s.start();
    await s.settlesAt(count);
    expect(await s.totals()).toEqual({
      ledgerRows: 1,
      currentRows: 1,
      partialRows: 0,
      pathsCountedTwice: 0,
      ledgerMessages: count,
      messageRows: count,
      distinctControlIds: count,
      rollupMessages: count,
    });
    expect(await s.files()).toEqual([expect.objectContaining({ path: 'big-batch.hl7', state: 'ingested', messageCount: count })]);
  }, 900_000);

  it('a partial file renamed while the service is down: its row moves, and the messages after its count follow', async () => {
    const s = await started();
    const count = MESSAGES_PER_SLICE * 8 + 7;
    const written = batch(count, 'A');
    writeFileSync(join(s.watched, 'a.hl7'), written.text);
    expect(await s.killOnceCounted(0)).toBeLessThan(count);
    expect((await s.totals()).partialRows).toBe(1);
    renameSync(join(s.watched, 'a.hl7'), join(s.watched, 'a-renamed.hl7'));
    await s.start();
    await s.settlesAt(count);
    expect(await s.files()).toEqual([{ path: 'a-renamed.hl7', state: 'ingested', messageCount: count, failedCount: written.failed }]);
    expect(await s.totals()).toEqual({
      ledgerRows: 1,
      currentRows: 1,
      partialRows: 0,
      pathsCountedTwice: 0,
      ledgerMessages: count,
      messageRows: count,
      distinctControlIds: count,
      rollupMessages: count,
    });
  }, 900_000);
});
