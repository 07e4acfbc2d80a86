// The ingest queue reads the next batch's files in a worker thread while a batch commits. A file of a batch still in
// flight that changes meanwhile is queued again, but is not taken until its batch has committed: it is judged
// against the ledger its batch wrote (appended: only the new message counts), never against the ledger before it
// (which would count the whole file a second time). Driven on the queue itself, with the worker's reading held while
// the files change, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { readReceivedFiles, type ReadFilesOptions, type ReceivedFileRequest } from '../../kernel/lib/input/received-files.ts';
import { systemClock } from '../../kernel/clock.ts';
import { createLogger } from '../../kernel/logger.ts';
import type { StandardAdapter } from '../../kernel/standards-registry.ts';
import { IngestQueue } from '../../plugins/monitor/ingest/ingest-queue.ts';
import { BackgroundGuard } from '../../kernel/background/background-guard.ts';
import { ServiceFaults } from '../../kernel/background/service-faults.ts';
import type { ContentReaders } from '../../plugins/monitor/ingest/message-reading.ts';
import type { MonitoredInterface } from '../../plugins/monitor/api.ts';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { testPostgresUrl } from '../helpers/postgres-schema.ts';
import { startRegisteredAdapters, type RegisteredAdapters } from '../helpers/registered-adapters.ts';
import { adtMessage, waitFor } from './monitor-harness.ts';
import { withMonitorStorage } from './monitor-storage.ts';

const stores = testPostgresUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: reading ahead is tested on SQLite only.');

describe.each(stores)('reading the next batch ahead on %s', (name) => {
  let registered: RegisteredAdapters;
  let adapters: StandardAdapter[];
  let dir: string;
  beforeAll(async () => {
    registered = await startRegisteredAdapters('workbench-read-ahead-');
    ({ adapters, dir } = registered);
  });
  afterAll(() => registered.stop());

  it('takes a changed file of a batch in flight only after that batch committed', async () => {
    await withMonitorStorage(name, async (storage) => {
      const db = storage.db as Kysely<MonitorDatabase>;
      // the first two pooled reads (the batch committing next, and the one read ahead) are done, then held
      const held: ReceivedFileRequest[][] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const readers: ContentReaders = {
        adapters: () => adapters,
        validateHere: () => true,
        validate: (adapter, content, options) => adapter.validate(content, options),
        read: (adapter, content, options) => adapter.reading!.readMessages(content, options),
        async readFiles(files: ReceivedFileRequest[], options: ReadFilesOptions) {
          const read = readReceivedFiles(adapters, files, options);
          if (held.length < 2) {
            held.push(files);
            await released;
          }
          return read;
        },
      };
      const queue = new IngestQueue({
        db,
        commitStore: { db, dialect: storage.dialect, sqlite: storage.sqlite },
        clock: systemClock,
        logger: createLogger({ level: 'silent' }),
        background: new BackgroundGuard(createLogger({ level: 'silent' }), new ServiceFaults()).forOwner('monitor'),
        readers,
        maxFileBytes: 1024 * 1024,
        batchFiles: 50,
        settleMs: 50,
        keepRaw: true,
      });
      const monitored = { id: `i-${name}`, standard: 'auto', validationMode: 'compatibility', profileName: null, directoryPath: dir } as MonitoredInterface;
      queue.watching(monitored);
      const job = (file: string) => {
        const absolutePath = join(dir, file);
        const stat = statSync(absolutePath);
        return { interfaceId: monitored.id, absolutePath, relativePath: file, size: stat.size, mtimeMs: stat.mtimeMs, settledAtMs: Date.now() };
      };
      // 101 files: the first is a batch of its own (a lone file goes at once), then one of 50 committing while the
      // last 50 are read ahead
      const names = Array.from({ length: 101 }, (_, i) => `${name}-${i}.hl7`);
      names.forEach((file, i) => writeFileSync(join(dir, file), adtMessage(`C${i}`)));
      for (const file of names) queue.enqueue(job(file));
      await waitFor(() => held.length === 2, 30_000, 'two batches read and held');
      // every file read ahead grows by a message and is queued again while its batch is in flight
      for (const request of held[1]) {
        appendFileSync(request.path, `\r${adtMessage(`MORE-${request.path.slice(-10)}`)}`);
        queue.enqueue(job(request.path.slice(dir.length + 1)));
      }
      release();
      await waitFor(async () => {
        await queue.idle();
        return queue.size === 0;
      }, 30_000, 'the queue at rest');
      await queue.stop();
      const counted = await db.selectFrom('monitor_messages').select((eb) => eb.fn.countAll<number | string>().as('n')).where('interface_id', '=', monitored.id).executeTakeFirstOrThrow();
      expect(Number(counted.n)).toBe(101 + held[1].length);
      const files = await db.selectFrom('monitor_files').select(['path', 'message_count']).where('interface_id', '=', monitored.id).where('state', '!=', 'replaced').execute();
      expect(files).toHaveLength(101);
      const grown = new Set(held[1].map((request) => request.path.slice(dir.length + 1)));
      expect(grown.size).toBe(50);
      for (const file of files) expect([file.path, Number(file.message_count)]).toEqual([file.path, grown.has(file.path) ? 2 : 1]);
    });
  });
});
