// The ledger on a store shared by several nodes: two commits racing on one file (two nodes in the moment of a
// take-over) count it once; the later one ends as "already counted", never as a second row or a failed batch; a
// file judged against a ledger row another commit replaced meanwhile is left out too.
import { describe, expect, it } from 'vitest';
import { commitFiles, sha256 } from '../../plugins/monitor/ingest/ledger.ts';
import type { ReadFile } from '../../plugins/monitor/ingest/read-file.ts';
import type { FileRow } from '../../plugins/monitor/monitor-tables.ts';
import { testPostgresUrl } from '../helpers/postgres-schema.ts';
import { withMonitorStorage } from './monitor-storage.ts';

if (!testPostgresUrl) console.warn('[notice] WORKBENCH_TEST_POSTGRES_URL is not set: the shared ledger is not tested.');

function emptyFile(path: string, content: string, verdict: ReadFile['verdict'] = { kind: 'new' }): ReadFile {
  const bytes = Buffer.from(content);
  return { interfaceId: 'shared', path, size: bytes.length, mtimeMs: 1, hash: sha256(bytes), receivedAt: new Date().toISOString(), verdict, state: 'ingested', error: null, messages: [] };
}

describe.skipIf(!testPostgresUrl)('the shared ledger (postgres)', () => {
  it('counts a file once when two commits race on it, and ids never collide', async () => {
    await withMonitorStorage('postgres', async (storage) => {
      const batches = Array.from({ length: 6 }, (_, round) => [
        emptyFile(`race-${round}.hl7`, `content ${round}`),
        emptyFile(`own-${round}-a.hl7`, 'a'),
      ]);
      // two "nodes" commit every batch at the same time: each file of `race-*` is in both
      const results = await Promise.all(
        batches.flatMap((batch, round) => [
          commitFiles(storage, batch, false),
          commitFiles(storage, [emptyFile(`race-${round}.hl7`, `content ${round}`), emptyFile(`own-${round}-b.hl7`, 'b')], false),
        ]),
      );
      const rows = await storage.db.selectFrom('monitor_files').select(['id', 'path']).execute();
      const paths = rows.map((row: { path: string }) => row.path).sort();
      expect(paths.filter((path: string) => path.startsWith('race-'))).toEqual(batches.map((_, round) => `race-${round}.hl7`));
      expect(paths.length).toBe(6 * 3);
      expect(new Set(rows.map((row: { id: number }) => Number(row.id))).size).toBe(rows.length);
      // each race was won by exactly one commit
      const committedRaces = results.flat().filter((entry) => entry.file.path.startsWith('race-'));
      expect(committedRaces).toHaveLength(6);
    });
  });

  it('leaves out a file judged against a row another commit replaced meanwhile', async () => {
    await withMonitorStorage('postgres', async (storage) => {
      const [first] = await commitFiles(storage, [emptyFile('x.hl7', 'one')], false);
      const row = (await storage.db.selectFrom('monitor_files').selectAll().where('id', '=', first.fileId).executeTakeFirstOrThrow()) as FileRow;
      // both nodes read the rewritten file against the same row; the first to commit counts it
      const a = await commitFiles(storage, [emptyFile('x.hl7', 'two', { kind: 'rewritten', row })], false);
      const b = await commitFiles(storage, [emptyFile('x.hl7', 'two', { kind: 'rewritten', row })], false);
      expect(a).toHaveLength(1);
      expect(b).toHaveLength(0);
      const current = await storage.db.selectFrom('monitor_files').select(['path', 'state']).where('state', '<>', 'replaced').execute();
      expect(current).toEqual([{ path: 'x.hl7', state: 'ingested' }]);
    });
  });
});
