// The triage follower over a real store (SQLite, and PostgreSQL when its test URL is set): every message is folded
// once, whether one follower reads it, two nodes' followers race for it, or a new follower resumes after a restart.
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { BackgroundGuard } from '../../kernel/background/background-guard.ts';
import { ServiceFaults } from '../../kernel/background/service-faults.ts';
import type { MessageFilter, MessageStreamOptions, MonitorService } from '../../plugins/monitor/api.ts';
import { AggregateStore, CursorMovedError } from '../../plugins/ai-triage/aggregate/aggregate-store.ts';
import { AggregateBatch, type FollowedMessage } from '../../plugins/ai-triage/aggregate/aggregate-batch.ts';
import { TriageFollower } from '../../plugins/ai-triage/aggregate/triage-follower.ts';
import { triageMigrations } from '../../plugins/ai-triage/triage-tables.ts';
import { windowSpans } from '../../kernel/lib/time/time-steps.ts';
import { hl7TextFeatures } from '../../plugins/ai-triage/interfaces/upgrade-signals.ts';
import { storages } from '../monitor/monitor-harness.ts';
import { openFreshStorage, type FreshStorage } from '../helpers/fresh-storage.ts';

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

/** The part of the monitor the follower uses: the stream in cursor order, after a cursor, with a projection. */
function fakeMonitor(messages: Stored[]): () => MonitorService {
  const monitor = {
    async *streamMessages(_filter: MessageFilter, options: MessageStreamOptions = {}) {
      for (const stored of [...messages]) {
        if (options.after && stored.cursor <= options.after) continue;
        // A page boundary: other work (the other follower) runs in between.
        await new Promise((done) => setImmediate(done));
        yield stored;
      }
    },
  };
  return () => monitor as unknown as MonitorService;
}

const logger = pino({ level: 'silent' });
const background = new BackgroundGuard(logger, new ServiceFaults()).forOwner('test');

describe.each(storages())('triage follower (%s)', (storage) => {
  let fresh: FreshStorage | undefined;
  afterEach(async () => {
    await fresh?.remove();
    fresh = undefined;
  });

  async function store(): Promise<AggregateStore> {
    fresh = await openFreshStorage(storage, 'triage-follower-');
    await fresh.storage.migrate('ai-triage', triageMigrations);
    return new AggregateStore(fresh.storage.db, fresh.storage.sql);
  }

  async function counts(aggregate: AggregateStore) {
    const entries = await aggregate.upgradeEntries('feed', new Date(START - 3_600_000).toISOString(), new Date(START + 86_400_000).toISOString(), new Date(START).toISOString());
    const clusters = await aggregate.failureClusters('feed', windowSpans(START - 3_600_000, START + 86_400_000, 'hour'));
    return { messages: entries.reduce((sum, entry) => sum + entry.count, 0), failures: clusters.parts().reduce((sum, part) => sum + part.count, 0) };
  }

  it('folds every message once, with two followers racing and after a restart', async () => {
    const aggregate = await store();
    const messages = Array.from({ length: 30 }, (_, index) => message(index, index % 3 === 0));
    const features = hl7TextFeatures(() => undefined);
    await new TriageFollower(fakeMonitor(messages), aggregate, background, features).catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 30, failures: 10 });
    messages.push(...Array.from({ length: 20 }, (_, index) => message(30 + index, true)));
    // Two nodes of a team on one store: their followers read the same new messages; each is counted once.
    const first = new TriageFollower(fakeMonitor(messages), aggregate, background, features);
    const second = new TriageFollower(fakeMonitor(messages), aggregate, background, features);
    await Promise.all([first.catchUp(), second.catchUp()]);
    expect(await counts(aggregate)).toEqual({ messages: 50, failures: 30 });
    // A restart: a new follower resumes after the stored cursor.
    await new TriageFollower(fakeMonitor(messages), aggregate, background, features).catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 50, failures: 30 });
    const clusters = await aggregate.failureClusters('feed', windowSpans(START - 3_600_000, START + 86_400_000, 'hour'));
    expect(clusters.ranked(new Map(), 5)[0]).toMatchObject({ key: 'v1:REQUIRED_FIELD_MISSING|PV1.2|ADT^A08|REGSYS', count: 30, exampleControlIds: ['CTRL49', 'CTRL48', 'CTRL47'] });
  });

  it('prunes buckets past the retention and the signatures no bucket uses', async () => {
    const aggregate = await store();
    // Ten messages of one signature, then twenty of another (PV1-2 emptied), an hour apart as a whole.
    const messages = Array.from({ length: 30 }, (_, index) => message(index < 10 ? index : 180 + index, index >= 10));
    const follower = new TriageFollower(fakeMonitor(messages), aggregate, background, hl7TextFeatures(() => undefined));
    await follower.catchUp();
    expect(await counts(aggregate)).toEqual({ messages: 30, failures: 20 });
    const removed = await follower.exclusive(() => aggregate.prune(new Date(START + 3_600_000).toISOString()));
    expect(removed).toBeGreaterThan(0);
    expect(await counts(aggregate)).toEqual({ messages: 20, failures: 20 });
    const entries = await aggregate.upgradeEntries('feed', new Date(START).toISOString(), new Date(START + 86_400_000).toISOString(), new Date(START).toISOString());
    expect(new Set(entries.map((entry) => entry.features.join('|'))).size).toBe(1);
    expect(await follower.exclusive(() => aggregate.prune(new Date(START + 3_600_000).toISOString()))).toBe(0);
  });

  it('refuses to write a batch when the cursor moved since it was read', async () => {
    const aggregate = await store();
    const batch = new AggregateBatch();
    batch.add(message(0, true));
    await aggregate.write(batch, null, 'c000000');
    await expect(aggregate.write(batch, null, 'c000000')).rejects.toBeInstanceOf(CursorMovedError);
    await expect(aggregate.write(batch, 'c999999', 'c000001')).rejects.toBeInstanceOf(CursorMovedError);
    expect(await counts(aggregate)).toEqual({ messages: 1, failures: 1 });
    expect(await aggregate.cursor()).toBe('c000000');
  });
});
