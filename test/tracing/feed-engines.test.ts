// The feed engines that judge a window in the database (feed-gap-scan.ts, feed-latency-sql.ts) against the
// in-memory engines they stand in for (scanFeed, pairMessages), on random feeds written through the feed's
// projection, on SQLite and PostgreSQL: the same jumps, repeated control ids, pairs and counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Storage } from '../../kernel/storage.ts';
import { FeedIndex, type FeedColumn, type FeedMessage } from '../../plugins/tracing/feed-index.ts';
import { feedControlIdMigration, feedMigration } from '../../plugins/tracing/feed-tables.ts';
import { feedProjection } from '../../plugins/tracing/feed-projection.ts';
import type { ProjectionRunner } from '../../plugins/monitor/projections/projection-runner.ts';
import { migratePositions, runnerOver } from '../helpers/projection-runner.ts';
import { scanFeedWindow } from '../../plugins/tracing/feed-gap-scan.ts';
import { pairInFeed } from '../../plugins/tracing/feed-latency-sql.ts';
import { scanFeed, type FeedFindings } from '../../plugins/tracing/interface-gaps.ts';
import { latenciesByHour, pairMessages } from '../../plugins/tracing/latency-pairing.ts';
import type { MonitorStore } from '../../plugins/monitor/api.ts';
import { openFreshStorage, type FreshStorage } from '../helpers/fresh-storage.ts';
import { storages } from './tracing-harness.ts';

const T0 = Date.parse('2026-03-01T08:00:00Z');

/** A message as the tests write it into the feed. */
interface Written {
  interfaceId: string;
  receivedMs: number;
  sender: readonly [string | null, string | null];
  controlId: string | null;
  sequenceNumber: number | null;
  ack: string | null;
  messageType: string;
  messageTimeMs: number | null;
}

/** A monitor store holding `records`, streamed after a cursor (their place, zero-padded). */
function storeOf(records: Written[]): MonitorStore {
  return {
    async *streamMessages(_filter: unknown, options: { after?: string | null }) {
      const after = options.after === undefined || options.after === null ? -1 : Number(options.after);
      for (let i = after + 1; i < records.length; i++) {
        const m = records[i]!;
        const [type, trigger] = m.messageType.split('^');
        yield {
          id: `${i + 1}.0`,
          cursor: String(i).padStart(8, '0'),
          interfaceId: m.interfaceId,
          receivedAt: new Date(m.receivedMs).toISOString(),
          fileId: String(i + 1),
          indexInFile: 0,
          sendingApplication: m.sender[0],
          sendingFacility: m.sender[1],
          controlId: m.controlId,
          sequenceNumber: m.sequenceNumber,
          acknowledgedControlId: m.ack,
          messageType: type,
          triggerEvent: trigger ?? null,
          messageTime: m.messageTimeMs === null ? null : new Date(m.messageTimeMs).toISOString(),
          patientIds: [{ id: 'MRN1', assigningAuthority: 'HOSP' }],
          contentDigest: `d${i % 3}`,
        };
      }
    },
  } as unknown as MonitorStore;
}

const SENDERS = [['EHR', 'HOSP'], ['EHR', null], [null, null], ['', 'HOSP'], ['LAB', 'HOSP']] as const;
const TYPES = ['ADT^A01', 'ADT^A03', 'ORU^R01', 'ACK', 'ADTX^A01'];

/** Random messages of one interface: few senders, control ids, numbers and received times, so they repeat. */
function messagesOf(interfaceId: string, unique: boolean) {
  return fc.array(
    fc.record({
      second: fc.integer({ min: 0, max: 20 }),
      sender: fc.constantFrom(...SENDERS),
      control: fc.constantFrom(null, '', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6'),
      sequenceNumber: fc.constantFrom(null, -1, 0, 1, 2, 3, 4, 5, 7, 8, 12),
      ack: fc.constantFrom(null, null, null, '', 'C1', 'C2', 'C3'),
      type: fc.constantFrom(...TYPES),
      time: fc.option(fc.integer({ min: 0, max: 20 })),
    }),
    { maxLength: 60, size: '+1' },
  ).map((drawn) =>
    drawn.map((d, i): Written => ({
      interfaceId,
      receivedMs: T0 + d.second * 1000,
      sender: d.sender,
      controlId: unique ? `U${i}` : d.control,
      sequenceNumber: d.sequenceNumber,
      ack: unique ? null : d.ack,
      messageType: d.type,
      messageTimeMs: d.time === null ? null : T0 + d.time * 1000,
    })),
  );
}

const KEY_COLUMNS: readonly FeedColumn[] = ['sendingApplication', 'sendingFacility', 'controlId', 'sequenceNumber'];
const PAIRING_COLUMNS: readonly FeedColumn[] = ['controlId', 'acknowledgedControlId', 'messageType', 'messageTimeMs'];

function shape(findings: FeedFindings) {
  const part = (m: FeedMessage) => [m.id, m.receivedAtMs, m.sendingApplication, m.sendingFacility, m.controlId, m.sequenceNumber];
  return { jumps: findings.jumps.map(({ before, after }) => [part(before), part(after)]), repeated: findings.repeated.map(part) };
}

describe.each(storages())('feed engines on %s', (storage) => {
  let opened: Storage;
  let fresh: FreshStorage;
  let feed: FeedIndex;
  let runner: ProjectionRunner;
  const records: Written[] = [];
  let runs = 0;

  beforeAll(async () => {
    fresh = await openFreshStorage(storage, 'tracing-feed-engines-');
    opened = fresh.storage;
    await opened.migrate('tracing', { '002_feed': feedMigration(opened.dialect), '003_feed_control_id': feedControlIdMigration() });
    await migratePositions(opened);
    runner = runnerOver(opened, storeOf(records));
    feed = new FeedIndex(opened.db, opened.sqlite, runner.register(feedProjection()));
  });
  afterAll(async () => {
    await runner.stop();
    await fresh.remove();
  });

  /** Writes the messages of two fresh interfaces into the feed; answers their ids. */
  async function write(source: (id: string) => Written[], destination: (id: string) => Written[]): Promise<[string, string]> {
    runs++;
    const ids: [string, string] = [`run-${runs}-a`, `run-${runs}-b`];
    // the interfaces' messages interleaved in commit order, as several folders are read
    const a = source(ids[0]);
    const b = destination(ids[1]);
    for (let i = 0; i < Math.max(a.length, b.length); i++) records.push(...[a[i], b[i]].filter((m): m is Written => m !== undefined));
    await feed.catchUp();
    return ids;
  }

  it('finds the same MSH-13 jumps and repeated control ids as the scan in memory, within the cap', async () => {
    await fc.assert(
      fc.asyncProperty(messagesOf('x', false), fc.integer({ min: 0, max: 4 }), fc.constantFrom(3, 10, 1000), fc.constantFrom(0, 8), async (messages, since, cap, columnSenders) => {
        const [id] = await write((iface) => messages.map((m) => ({ ...m, interfaceId: iface })), () => []);
        const window = { interfaceId: id, sinceMs: T0 + since * 1000 };
        const read = await feed.read(window, KEY_COLUMNS, cap + 1);
        const expected = scanFeed(read.slice(0, cap));
        const scan = await feed.snapshot((reader) => scanFeedWindow(reader, window, cap, columnSenders));
        expect(shape(scan.findings)).toEqual(shape(expected));
        expect([scan.messagesRead, scan.more]).toEqual([Math.min(read.length, cap), read.length > cap]);
      }),
      { numRuns: 60 },
    );
  });

  it('pairs in the database exactly as in order whenever it answers, and answers when every key is used once', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('unique', 'unique-timed', 'repeated-source', 'repeated-destination', 'acknowledgements', 'random'),
        fc.constantFrom(undefined, 'ADT', 'ADT^A01'),
        fc.constantFrom(5, 1000),
        fc.option(fc.integer({ min: 5, max: 20 })),
        fc.tuple(messagesOf('s', false), messagesOf('d', false), fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 60, maxLength: 60 })),
        async (mode, messageType, cap, until, [source, destination, picks]) => {
          // unique: each control id once on each side, some of the destination's the source's (unique-timed: with
          // MSH-7, so an unpaired one would try the patients); repeated-source and repeated-destination: one side
          // repeats some; acknowledgements: the destination acknowledges some, perhaps twice; random: few control
          // ids, repeated on both sides
          if (mode === 'random') {
            const [from, to] = await write((iface) => source.map((m) => ({ ...m, interfaceId: iface })), (iface) => destination.map((m) => ({ ...m, interfaceId: iface })));
            return compare(from, to, messageType, cap, until);
          }
          const sourceMessages = source.map((m, i) => ({ ...m, controlId: mode === 'repeated-source' ? `U${picks[i]}` : `U${i}`, ack: null }));
          const destinationMessages = destination.map((m, i) => ({
            ...m,
            controlId: mode === 'repeated-destination' ? `U${picks[i]}` : picks[i]! < 3 ? `U${i}` : `V${i}`,
            ack: mode === 'acknowledgements' && picks[i]! < 2 ? `U${picks[(i + 1) % 60]}` : null,
            messageTimeMs: mode === 'unique-timed' ? m.messageTimeMs : null,
          }));
          const [from, to] = await write((iface) => sourceMessages.map((m) => ({ ...m, interfaceId: iface })), (iface) => destinationMessages.map((m) => ({ ...m, interfaceId: iface })));
          return compare(from, to, messageType, cap, until);
        },
      ),
      { numRuns: 100 },
    );
    expect(answered).toBeGreaterThan(10);

    /** Pairs the two interfaces' windows in the database and in order; the same answer whenever the database answers. */
    async function compare(from: string, to: string, messageType: string | undefined, cap: number, until: number | null): Promise<void> {
          const windowOf = (interfaceId: string) => (until === null ? { interfaceId, sinceMs: T0 } : { interfaceId, sinceMs: T0, untilMs: T0 + until * 1000 });
          let truncated = false;
          const read = async (interfaceId: string, isDestination: boolean) => {
            const window = await feed.read(windowOf(interfaceId), PAIRING_COLUMNS, cap + 1);
            if (window.length > cap) truncated = true;
            return window
              .slice(0, cap)
              .filter((m) => messageType === undefined || m.messageType === messageType || m.messageType.startsWith(`${messageType}^`) || (isDestination && m.acknowledgedControlId !== null));
          };
          const inOrder = pairMessages(await read(from, false), await read(to, true));
          const joined = await feed.snapshot((reader) => pairInFeed(reader, { source: windowOf(from), destination: windowOf(to), messageType, cap }));
          if (joined === undefined) return;
          answered++;
          expect(inOrder.fallbackCandidates).toBe(0);
          const sorted = (byHour: Map<number, number[]>) => [...byHour.entries()].sort((x, y) => x[0] - y[0]).map(([hour, values]) => [hour, [...values].sort((x, y) => x - y)]);
          expect({
            pairs: joined.pairs,
            acks: joined.acks,
            unmatched: [joined.unmatchedSource, joined.unmatchedDestination],
            truncated: joined.truncated,
            byHour: sorted(joined.latenciesByHour),
          }).toEqual({
            pairs: inOrder.pairs.length,
            acks: inOrder.pairs.filter((p) => p.by === 'ack').length,
            unmatched: [inOrder.unmatchedSource, inOrder.unmatchedDestination],
            truncated,
            byHour: sorted(latenciesByHour(inOrder.pairs)),
          });
    }
  });

  it('answers the latencies of one-to-one control ids in the database, and leaves repeated ones to pairing in order', async () => {
    const message = (controlId: string, second: number): Written => ({
      interfaceId: '',
      receivedMs: T0 + second * 1000,
      sender: ['EHR', 'HOSP'],
      controlId,
      sequenceNumber: null,
      ack: null,
      messageType: 'ADT^A01',
      messageTimeMs: null,
    });
    const [from, to] = await write(
      (iface) => [message('A', 0), message('B', 1), message('C', 2)].map((m) => ({ ...m, interfaceId: iface })),
      (iface) => [message('A', 3), message('C', 7), message('D', 8)].map((m) => ({ ...m, interfaceId: iface })),
    );
    const query = { source: { interfaceId: from, sinceMs: T0 }, destination: { interfaceId: to, sinceMs: T0 }, messageType: undefined, cap: 100 };
    const joined = await feed.snapshot((reader) => pairInFeed(reader, query));
    expect(joined).toEqual({ latenciesByHour: new Map([[T0, [3000, 5000]]]), pairs: 2, acks: 0, unmatchedSource: 1, unmatchedDestination: 1, truncated: false });
    // the source sends A again: which A a destination message pairs with depends on the order
    records.push({ ...message('A', 9), interfaceId: from });
    await feed.catchUp();
    expect(await feed.snapshot((reader) => pairInFeed(reader, query))).toBeUndefined();
  });
});
