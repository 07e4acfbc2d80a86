// The unparsable-file episode follows the order files were written in (mtime, then name), not the order they settled
// or the batches they committed in: a bad file followed by good ones opens and closes the episode in one batch or two,
// a bad file written last keeps it open, a good file written before it that commits later leaves it open, a deleted
// interface's files are forgotten with its ledger, and a file only touched decides nothing. The engine judges from
// the ledger, so each commit here writes its ledger rows first, as the ingest's transaction does.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../kernel/events.ts';
import { AlertEpisodes } from '../../plugins/monitor/alerts/alert-episodes.ts';
import { AlertRuleEngine } from '../../plugins/monitor/alerts/alert-rules.ts';
import { alertRulesSchema } from '../../plugins/monitor/monitor-config.ts';
import type { MonitoredInterface } from '../../plugins/monitor/api.ts';
import type { ReadFile } from '../../plugins/monitor/ingest/read-file.ts';
import type { Kysely } from 'kysely';
import type { FileRow, MonitorDatabase } from '../../plugins/monitor/monitor-tables.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { withMonitorStorage } from './monitor-storage.ts';

const monitored = { id: 'iface-1', name: 'lab feed' } as MonitoredInterface;

/** A committed file of the interface, parsed or not, written at `mtimeMs`. */
function file(path: string, mtimeMs: number, state: ReadFile['state'], verdict: ReadFile['verdict'] = { kind: 'new' }): { file: ReadFile; monitored: MonitoredInterface } {
  return {
    monitored,
    file: {
      interfaceId: monitored.id,
      path,
      size: 10,
      mtimeMs,
      hash: path,
      receivedAt: new Date(mtimeMs).toISOString(),
      verdict,
      state,
      error: state === 'unparsable' ? 'no MSH segment' : null,
      messages: [],
    },
  };
}

type Committed = ReturnType<typeof file>;

/** What a test drives: commits (ledger rows, then the listener), the episodes, and the ledger itself. */
interface Bench {
  commit(files: Committed[]): Promise<void>;
  episodes(): Promise<{ message: string; open: boolean }[]>;
  db: Kysely<MonitorDatabase>;
}

/** Runs `work` over a fresh store; `episodes()` lists the unparsable-file alerts, oldest first. */
async function withEngine(work: (bench: Bench) => Promise<void>): Promise<void> {
  await withMonitorStorage('sqlite', async (storage) => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const alerts = new AlertEpisodes(storage.db, new EventBus(), clock);
    const engine = new AlertRuleEngine(storage.db, alerts, alertRulesSchema.parse({}), clock);
    const db = storage.db;
    const commit = async (files: Committed[]) => {
      for (const { file: f } of files) {
        if (f.verdict.kind === 'touched' || f.verdict.kind === 'appended') {
          // the ledger keeps the row of a file touched or appended to, with its new mtime (and state, appended)
          const state = f.verdict.kind === 'appended' ? f.state : f.verdict.row.state;
          await db.updateTable('monitor_files').set({ mtime_ms: f.mtimeMs, state }).where('interface_id', '=', f.interfaceId).where('path', '=', f.path).execute();
          continue;
        }
        await db
          .insertInto('monitor_files')
          .values({
            interface_id: f.interfaceId,
            path: f.path,
            size: f.size,
            mtime_ms: f.mtimeMs,
            content_hash: f.hash,
            message_count: 0,
            failed_count: 0,
            state: f.state,
            error: f.error,
            first_read_at: f.receivedAt,
            last_read_at: f.receivedAt,
          })
          .execute();
      }
      await engine.filesCommitted(files);
    };
    const episodes = async () => {
      const rows = await db.selectFrom('monitor_alerts').selectAll().where('rule', '=', 'unparsable-file').orderBy('id').execute();
      return rows.map((row) => ({ message: String(row.message), open: row.cleared_at === null }));
    };
    await work({ commit, episodes, db });
  });
}

describe('unparsable-file episodes', () => {
  it('opens and closes the episode of a bad file followed by good ones committed in the same batch in any order', async () => {
    await withEngine(async ({ commit, episodes }) => {
      await commit([file('b-good.hl7', 1000, 'ingested'), file('a-bad.hl7', 1000, 'unparsable'), file('c-good.hl7', 1001, 'ingested')]);
      const list = await episodes();
      expect(list).toHaveLength(1);
      expect(list[0].message).toContain('a-bad.hl7');
      expect(list[0].open).toBe(false);
    });
  });

  it('opens and closes it when the good files committed one batch before the bad file written first', async () => {
    await withEngine(async ({ commit, episodes }) => {
      await commit([file('b-good.hl7', 1000, 'ingested')]);
      await commit([file('a-bad.hl7', 1000, 'unparsable')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: false })]);
    });
  });

  it('keeps it open when the bad file was written after the good ones, and ends it with the next good file', async () => {
    await withEngine(async ({ commit, episodes }) => {
      await commit([file('b-bad.hl7', 2000, 'unparsable'), file('a-good.hl7', 1000, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
      await commit([file('c-good.hl7', 3000, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: false })]);
    });
  });

  it('forgets the newest parsed file of a deleted interface', async () => {
    await withEngine(async ({ commit, episodes, db }) => {
      await commit([file('b-good.hl7', 2000, 'ingested')]);
      // deleting the interface removes its ledger
      await db.deleteFrom('monitor_files').where('interface_id', '=', monitored.id).execute();
      // an interface of the same id starts afresh: no file of the deleted one ends the episode of an older bad file
      await commit([file('a-bad.hl7', 1000, 'unparsable')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
    });
  });

  it('keeps it open when a good file written before the bad one commits after it (a held file judged late)', async () => {
    await withEngine(async ({ commit, episodes }) => {
      await commit([file('held.hl7', 1000, 'ingested')]);
      await commit([file('later-bad.hl7', 2000, 'unparsable')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
      // the held file's open tail is judged once its grace period is over: the same file, written before the bad one
      await commit([file('held.hl7', 1000, 'ingested', { kind: 'appended', row: { path: 'held.hl7', state: 'ingested' } as FileRow })]);
      await commit([file('older-good.hl7', 1500, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
      await commit([file('newer-good.hl7', 2500, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: false })]);
    });
  });

  it('lets a file only touched decide nothing', async () => {
    await withEngine(async ({ commit, episodes }) => {
      await commit([file('a-bad.hl7', 2000, 'unparsable')]);
      const row = { path: 'z-good.hl7', state: 'ingested' } as FileRow;
      await commit([file('z-good.hl7', 3000, 'ingested', { kind: 'touched', row })]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
    });
  });
});
