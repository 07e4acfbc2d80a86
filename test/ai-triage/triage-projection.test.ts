// The triage aggregate as a monitor projection over a real store (SQLite, and PostgreSQL when its test URL is set):
// every message is folded once, whether one node reads it, two nodes race for it, or a node resumes after a restart;
// a data folder whose aggregate kept its own cursor resumes after it.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { MessageFilter, MessageStreamOptions, MonitorStore } from '../../plugins/monitor/api.ts';
import { AggregateStore } from '../../plugins/ai-triage/aggregate/aggregate-store.ts';
import type { FollowedMessage } from '../../plugins/ai-triage/aggregate/aggregate-batch.ts';
import { TRIAGE_PROJECTION, triageProjection } from '../../plugins/ai-triage/aggregate/triage-projection.ts';
import { triageMigrations } from '../../plugins/ai-triage/triage-tables.ts';
import { windowSpans } from '../../kernel/lib/time/time-steps.ts';
import { hl7TextFeatures } from '../../plugins/ai-triage/interfaces/upgrade-signals.ts';
import type { ProjectionRunner } from '../../plugins/monitor/projections/projection-runner.ts';
import { storages } from '../monitor/monitor-harness.ts';
import { openFreshStorage, type FreshStorage } from '../helpers/fresh-storage.ts';
import { migratePositions, runnerOver } from '../helpers/projection-runner.ts';

const START = Date.parse('2026-03-01T08:00:00Z');

type Stored = FollowedMessage & { id: string; cursor: string; raw: string };

function message(index: number, failing: boolean): Stored {
  const at = new Date(START + index * 20_000).toISOString();
  return {
    id: `m${index}`,
    cursor: `c${String(index).padStart(6, '0')}`,
    interfaceId: 'feed',
    isValid: !failing,
    standard: 'hl7',
    receivedAt: at,
    messageTime: at,
    messageType: 'ADT',
    triggerEvent: 'A08',
    controlId: `CTRL${index}`,
    sendingApplication: 'REGSYS',
    version: '2.5.1',
    software: null,
    segmentIds: ['MSH', 'EVN', 'PID', 'PV1'],
    errors: failing ? [{ field: 'PV1.2', code: 'REQUIRED_FIELD_MISSING', severity: 'error', message: 'PV1-2 is required' }] : [],
    raw: `MSH|^~\\&|REGSYS|HOSP|LAB|HOSP|20260301080000||ADT^A08|CTRL${index}|P|2.5.1\rPID|1||P${index}^^^HOSP^MR||DOE^JANE\rPV1|1|${failing ? '' : 'I'}`,
  };
}

/** The part of the monitor a projection reads: the stream in cursor order, after a cursor. */
function fakeMonitor(messages: Stored[]): Pick<MonitorStore, 'streamMessages'> {
  return {
    async *streamMessages(_filter: MessageFilter, options: MessageStreamOptions = {}) {
      for (const stored of [...messages]) {
        if (options.after && stored.cursor <= options.after) continue;
        // A page boundary: other work (the other node) runs in between.
        await new Promise((done) => setImmediate(done));
        yield stored;
      }
    },
  } as unknown as Pick<MonitorStore, 'streamMessages'>;
}

describe.each(storages())('triage projection (%s)', (storage) => {
  let fresh: FreshStorage | undefined;
  const runners: ProjectionRunner[] = [];
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop();
    await fresh?.remove();
    fresh = undefined;
  });

  async function store(): Promise<AggregateStore> {
    fresh = await openFreshStorage(storage, 'triage-projection-');
    await fresh.storage.migrate('ai-triage', triageMigrations);
    await migratePositions(fresh.storage);
    return new AggregateStore(fresh.storage.db, fresh.storage.sql);
  }

  /** One node: a runner over the store with the aggregate's projection registered. */
  function node(aggregate: AggregateStore, messages: Stored[]) {
    const runner = runnerOver(fresh!.storage, fakeMonitor(messages));
    runners.push(runner);
    return runner.register(triageProjection(aggregate, hl7TextFeatures(() => undefined)));
  }

  async function counts(aggregate: AggregateStore) {
    const entries = await aggregate.upgradeEntries('feed', new Date(START - 3_600_000).toISOString(), new Date(START + 86_400_000).toISOString(), new Date(START).toISOString());
    const clusters = await aggregate.failureClusters('feed', windowSpans(START - 3_600_000, START + 86_400_000, 'hour'));
    return { messages: entries.reduce((sum, entry) => sum + entry.count, 0), failures: clusters.parts().reduce((sum, part) => sum + part.count, 0) };
  }

  it('folds every message once, with two nodes racing and after a restart', async () => {
    const aggregate = await store();
    const messages = Array.from({ length: 30 }, (_, index) => message(index, index % 3 === 0));
    await node(aggregate, messages).catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 30, failures: 10 });
    messages.push(...Array.from({ length: 20 }, (_, index) => message(30 + index, true)));
    // Two nodes of a team on one store read the same new messages; each is counted once.
    await Promise.all([node(aggregate, messages).catchUp(), node(aggregate, messages).catchUp()]);
    expect(await counts(aggregate)).toEqual({ messages: 50, failures: 30 });
    // A restart: a new node resumes after the stored position.
    await node(aggregate, messages).catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 50, failures: 30 });
    const clusters = await aggregate.failureClusters('feed', windowSpans(START - 3_600_000, START + 86_400_000, 'hour'));
    expect(clusters.ranked(new Map(), 5)[0]).toMatchObject({ key: 'v1:REQUIRED_FIELD_MISSING|PV1.2|ADT^A08|REGSYS', count: 30, exampleControlIds: ['CTRL49', 'CTRL48', 'CTRL47'] });
  });

  it('prunes buckets past the retention and the signatures no bucket uses', async () => {
    const aggregate = await store();
    // Ten messages of one signature, then twenty of another (PV1-2 emptied), an hour apart as a whole.
    const messages = Array.from({ length: 30 }, (_, index) => message(index < 10 ? index : 180 + index, index >= 10));
    const handle = node(aggregate, messages);
    await handle.catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 30, failures: 20 });
    const removed = await handle.exclusive(() => aggregate.prune(new Date(START + 3_600_000).toISOString()));
    expect(removed).toBeGreaterThan(0);
    expect(await counts(aggregate)).toEqual({ messages: 20, failures: 20 });
    const entries = await aggregate.upgradeEntries('feed', new Date(START).toISOString(), new Date(START + 86_400_000).toISOString(), new Date(START).toISOString());
    expect(new Set(entries.map((entry) => entry.features.join('|'))).size).toBe(1);
    expect(await handle.exclusive(() => aggregate.prune(new Date(START + 3_600_000).toISOString()))).toBe(0);
  });

  it('resumes after the cursor an aggregate kept itself before, and drops that table', async () => {
    const aggregate = await store();
    const db = fresh!.storage.db;
    // A data folder from before: the aggregate's own cursor after the first ten messages (folded then, not here).
    await db.insertInto('triage_cursor').values({ id: 'messages', cursor: message(9, false).cursor }).execute();
    const messages = Array.from({ length: 30 }, (_, index) => message(index, true));
    await node(aggregate, messages).catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 20, failures: 20 });
    const position = await db.selectFrom('monitor_projections').select('cursor').where('name', '=', TRIAGE_PROJECTION).executeTakeFirst();
    expect(position?.cursor).toBe(message(29, true).cursor);
    await expect(sql`select count(*) from triage_cursor`.execute(db)).rejects.toThrow();
  });
});
