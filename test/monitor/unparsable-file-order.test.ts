// The unparsable-file episode follows the order files were written in (mtime, then name), not the order they settled
// or the batches they committed in: a bad file followed by good ones opens and closes the episode in one batch or two,
// a bad file written last keeps it open, a deleted interface's newest parsed file is forgotten, and a file only
// touched decides nothing.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../kernel/events.ts';
import { AlertEpisodes } from '../../plugins/monitor/alert-episodes.ts';
import { AlertRuleEngine } from '../../plugins/monitor/alert-rules.ts';
import { alertRulesSchema } from '../../plugins/monitor/monitor-config.ts';
import type { MonitoredInterface } from '../../plugins/monitor/api.ts';
import type { ReadFile } from '../../plugins/monitor/ingest/ledger.ts';
import type { FileRow } from '../../plugins/monitor/monitor-tables.ts';
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

/** Runs `work` with an engine over a fresh store; `episodes()` lists the unparsable-file alerts, oldest first. */
async function withEngine(work: (engine: AlertRuleEngine, episodes: () => Promise<{ message: string; open: boolean }[]>) => Promise<void>): Promise<void> {
  await withMonitorStorage('sqlite', async (storage) => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const alerts = new AlertEpisodes(storage.db, new EventBus(), clock);
    const engine = new AlertRuleEngine(storage.db, alerts, alertRulesSchema.parse({}), clock);
    const episodes = async () => {
      const rows = await storage.db.selectFrom('monitor_alerts').selectAll().where('rule', '=', 'unparsable-file').orderBy('id').execute();
      return rows.map((row) => ({ message: String(row.message), open: row.cleared_at === null }));
    };
    await work(engine, episodes);
  });
}

describe('unparsable-file episodes', () => {
  it('opens and closes the episode of a bad file followed by good ones committed in the same batch in any order', async () => {
    await withEngine(async (engine, episodes) => {
      await engine.filesCommitted([file('b-good.hl7', 1000, 'ingested'), file('a-bad.hl7', 1000, 'unparsable'), file('c-good.hl7', 1001, 'ingested')]);
      const list = await episodes();
      expect(list).toHaveLength(1);
      expect(list[0].message).toContain('a-bad.hl7');
      expect(list[0].open).toBe(false);
    });
  });

  it('opens and closes it when the good files committed one batch before the bad file written first', async () => {
    await withEngine(async (engine, episodes) => {
      await engine.filesCommitted([file('b-good.hl7', 1000, 'ingested')]);
      await engine.filesCommitted([file('a-bad.hl7', 1000, 'unparsable')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: false })]);
    });
  });

  it('keeps it open when the bad file was written after the good ones, and ends it with the next good file', async () => {
    await withEngine(async (engine, episodes) => {
      await engine.filesCommitted([file('b-bad.hl7', 2000, 'unparsable'), file('a-good.hl7', 1000, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
      await engine.filesCommitted([file('c-good.hl7', 3000, 'ingested')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: false })]);
    });
  });

  it('forgets the newest parsed file of a deleted interface', async () => {
    await withEngine(async (engine, episodes) => {
      await engine.filesCommitted([file('b-good.hl7', 2000, 'ingested')]);
      engine.forgetInterface(monitored.id);
      // an interface of the same id starts afresh: nothing it remembers ends the episode of an older bad file
      await engine.filesCommitted([file('a-bad.hl7', 1000, 'unparsable')]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
    });
  });

  it('lets a file only touched decide nothing', async () => {
    await withEngine(async (engine, episodes) => {
      await engine.filesCommitted([file('a-bad.hl7', 2000, 'unparsable')]);
      const row = { path: 'z-good.hl7' } as FileRow;
      await engine.filesCommitted([file('z-good.hl7', 3000, 'ingested', { kind: 'touched', row })]);
      expect(await episodes()).toEqual([expect.objectContaining({ open: true })]);
    });
  });
});
