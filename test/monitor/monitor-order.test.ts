// The stable order of the query contract stays append-only under live ingest: a file committed after another is never
// received before it (a file seen settled earlier can commit later), and an appended file lands after what is stored,
// so a reader holding a cursor never misses a message; recording history keeps its own times.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { commitFiles, sha256 } from '../../plugins/monitor/ingest/ledger.ts';
import type { ReadFile } from '../../plugins/monitor/ingest/read-file.ts';
import { noFacts } from '../../plugins/monitor/messages/message-facts.ts';
import { MessageQueries } from '../../plugins/monitor/messages/message-query.ts';
import type { ReadMessage } from '../../plugins/monitor/ingest/message-reading.ts';
import type { MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { testPostgresUrl } from '../helpers/postgres-schema.ts';
import { withMonitorStorage } from './monitor-storage.ts';

const stores = testPostgresUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the stable order is tested on SQLite only.');

function message(controlId: string, indexInFile = 0): ReadMessage {
  return {
    indexInFile,
    standard: 'hl7',
    ...noFacts(),
    controlId,
    isValid: true,
    errors: [],
    warnings: [],
    latencyMs: null,
    latencyClass: 'none',
    raw: controlId,
  };
}

function file(path: string, receivedAt: string, messages: ReadMessage[], verdict: ReadFile['verdict'] = { kind: 'new' }): ReadFile {
  return { interfaceId: 'i', path, size: 1, mtimeMs: 1, hash: sha256(Buffer.from(path + receivedAt)), receivedAt, verdict, state: 'ingested', error: null, messages };
}

describe.each(stores)('the stable order on %s', (name) => {
  it('never receives a later commit before what is stored, so a cursor misses nothing', async () => {
    await withMonitorStorage(name, async (storage) => {
      const queries = new MessageQueries(storage.db as Kysely<MonitorDatabase>);
      await commitFiles(storage, [file('b.hl7', '2026-03-01T10:00:05.000Z', [message('B')])], true);
      const page = await queries.query({});
      expect(page.messages.map((m) => m.controlId)).toEqual(['B']);
      const cursor = page.messages[0].cursor;
      // seen settled earlier, committed later
      const [late] = await commitFiles(storage, [file('a.hl7', '2026-03-01T10:00:01.000Z', [message('A')])], true);
      expect(late.file.receivedAt).toBe('2026-03-01T10:00:05.000Z');
      expect((await queries.query({}, { after: cursor })).messages.map((m) => m.controlId)).toEqual(['A']);
      // an appended file keeps its ledger id, lower than A's: it lands strictly after everything stored
      const db = storage.db as Kysely<MonitorDatabase>;
      const rows = await db.selectFrom('monitor_files').selectAll().where('path', '=', 'b.hl7').execute();
      const [appended] = await commitFiles(storage, [file('b.hl7', '2026-03-01T10:00:05.000Z', [message('B2', 1)], { kind: 'appended', row: rows[0] })], true);
      expect(appended.file.receivedAt).toBe('2026-03-01T10:00:05.001Z');
      const after = (await queries.query({}, { after: cursor })).messages.map((m) => m.controlId);
      expect(after).toEqual(['A', 'B2']);
    });
  });

  it('records history at its own times when asked (a backfill is not live ingest)', async () => {
    await withMonitorStorage(name, async (storage) => {
      await commitFiles(storage, [file('new.hl7', '2026-03-01T10:00:00.000Z', [message('NEW')])], true);
      const [old] = await commitFiles(storage, [file('old.hl7', '2026-01-01T10:00:00.000Z', [message('OLD')])], true, undefined, { appendOnly: false });
      expect(old.file.receivedAt).toBe('2026-01-01T10:00:00.000Z');
      const queries = new MessageQueries(storage.db as Kysely<MonitorDatabase>);
      expect((await queries.query({})).messages.map((m) => m.controlId)).toEqual(['OLD', 'NEW']);
    });
  });
});
