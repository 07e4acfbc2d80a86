// Tracing engines on plain events: sequence gaps (missing, late, out of order, pending), MSH-13 gaps, duplicate
// control ids versus exact resends (a narrow scan, then the kept messages judged), latency pairing and quantiles, observed sequences.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSequence } from '../../plugins/tracing/sequence-syntax.ts';
import { sequenceGaps } from '../../plugins/tracing/sequence-gaps.ts';
import { interfaceGaps, scanFeed } from '../../plugins/tracing/interface-gaps.ts';
import type { FeedMessage } from '../../plugins/tracing/feed-index.ts';
import { latenciesByHour, nearestRank, pairMessages, summariseHours, type LatencyMessage, type LatencySummary } from '../../plugins/tracing/latency-pairing.ts';
import { observedSequences } from '../../plugins/tracing/observed-sequences.ts';
import type { TraceEvent } from '../../plugins/tracing/trace-model.ts';

const T0 = Date.parse('2026-03-01T08:00:00Z');
let ids = 0;

function event(messageType: string, minutes: number, extra: Partial<TraceEvent> = {}): TraceEvent {
  const at = new Date(T0 + minutes * 60_000).toISOString();
  return {
    messageId: `m${++ids}`,
    interface: 'adt-in',
    interfaceId: 'i1',
    messageType,
    timestamp: at,
    receivedAt: at,
    messageTime: at,
    status: 'valid',
    controlId: `C${ids}`,
    sequenceNumber: null,
    sendingApplication: 'EPIC',
    sendingFacility: 'HOSP',
    patientIds: [{ id: 'MRN1', assigningAuthority: 'HOSP' }],
    accountNumber: null,
    errorCount: 0,
    warningCount: 0,
    ...extra,
  };
}

const judged = (text: string) => ({ name: 'admission', sequence: parseSequence(text) });
const LATER = T0 + 30 * 86_400_000;

describe('sequence gaps', () => {
  it('finds nothing when every step came in order and in time', () => {
    const events = [event('ADT^A01', 0), event('ORM^O01', 10), event('ORU^R01', 100)];
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01<1h>ORU^R01<4h'), 'MRN1', LATER)).toEqual([]);
  });

  it('reports a missing step with the messages around it', () => {
    const a = event('ADT^A01', 0);
    const r = event('ORU^R01', 100);
    const gaps = sequenceGaps([a, r], judged('ADT^A01>ORM^O01>ORU^R01'), 'MRN1', LATER);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ kind: 'missing', stepIndex: 1, patientId: 'MRN1', sequence: 'ADT^A01>ORM^O01>ORU^R01' });
    expect(gaps[0]!.expected).toBe('ORM^O01 after ADT^A01');
    expect(gaps[0]!.seen.map((s) => s.messageId)).toEqual([a.messageId, r.messageId]);
    expect(gaps[0]!.window).toEqual({ from: a.timestamp, to: r.timestamp });
  });

  it('reports a late step by how late, to the millisecond', () => {
    const events = [event('ADT^A01', 0), event('ORM^O01', 61.5)];
    const [gap] = sequenceGaps(events, judged('ADT^A01>ORM^O01<1h'), 'MRN1', LATER);
    expect(gap).toMatchObject({ kind: 'late', stepIndex: 1, amount: 90_000 });
    expect(gap!.window.from).toBe(new Date(T0 + 3_600_000).toISOString());
  });

  it('reports a step that came before the one the sequence puts ahead of it', () => {
    const events = [event('ADT^A01', 0), event('ORU^R01', 5), event('ORM^O01', 20)];
    const gaps = sequenceGaps(events, judged('ADT^A01>ORM^O01>ORU^R01'), 'MRN1', LATER);
    expect(gaps.map((g) => [g.kind, g.stepIndex, g.amount])).toEqual([['out-of-order', 2, 15 * 60_000]]);
  });

  it('keeps a step whose limit has not run out as pending, and reports it once it has', () => {
    const events = [event('ADT^A01', 0)];
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01<2h'), 'MRN1', T0 + 3_600_000)).toEqual([]);
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01<2h'), 'MRN1', T0 + 3 * 3_600_000).map((g) => g.kind)).toEqual(['missing']);
  });

  it('judges each admission of a patient apart and a flow that lacks its first step', () => {
    const events = [event('ADT^A01', 0), event('ORM^O01', 5), event('ADT^A01', 100)];
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01'), 'MRN1', LATER).map((g) => [g.kind, g.window.from])).toEqual([
      ['missing', events[2]!.timestamp],
    ]);
    const orphan = sequenceGaps([event('ORM^O01', 5)], judged('ADT^A01>ORM^O01'), 'MRN1', LATER);
    expect(orphan.map((g) => [g.kind, g.stepIndex])).toEqual([['missing', 0]]);
    expect(sequenceGaps([event('ADT^A08', 5)], judged('ADT^A01>ORM^O01'), 'MRN1', LATER)).toEqual([]);
  });

  it('matches a step bound to an interface by name or id only', () => {
    const events = [event('ADT^A01', 0), event('ORM^O01', 5, { interface: 'orders', interfaceId: 'i2' })];
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01@orders'), null, LATER)).toEqual([]);
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01@i2'), null, LATER)).toEqual([]);
    expect(sequenceGaps(events, judged('ADT^A01>ORM^O01@lab'), null, LATER).map((g) => g.kind)).toEqual(['missing']);
  });
});

describe('sequence gaps, properties', () => {
  // Distinct step types, each step within its limit of the one before (or without a limit).
  const flow = fc
    .uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 8 })
    .chain((codes) =>
      fc.tuple(
        fc.constant(codes.map((c) => `ORU^R${String(c).padStart(2, '0')}`)),
        fc.array(fc.integer({ min: 0, max: 600 }), { minLength: codes.length, maxLength: codes.length }),
        fc.array(fc.option(fc.integer({ min: 0, max: 600 }), { nil: null }), { minLength: codes.length, maxLength: codes.length }),
      ),
    );

  it('finds nothing in a flow that follows its sequence in order and in time', () => {
    fc.assert(
      fc.property(flow, ([types, waits, slack]) => {
        const steps = types.map((type, i) => `${type}${i > 0 && slack[i] !== null ? `<${waits[i]! + slack[i]! + 1}m` : ''}`);
        let minute = 0;
        const events = types.map((type, i) => event(type, (minute += i === 0 ? 0 : waits[i]!)));
        expect(sequenceGaps(events, judged(steps.join('>')), 'P', LATER)).toEqual([]);
      }),
    );
  });

  it('reports exactly the one step left out of such a flow, as missing', () => {
    fc.assert(
      fc.property(flow, fc.nat(), ([types, waits], pick) => {
        const dropped = 1 + (pick % (types.length - 1));
        let minute = 0;
        const events = types.map((type, i) => event(type, (minute += i === 0 ? 0 : waits[i]! + 1)));
        const gaps = sequenceGaps(events.filter((_, i) => i !== dropped), judged(types.join('>')), 'P', LATER);
        expect(gaps.map((g) => [g.kind, g.stepIndex])).toEqual([['missing', dropped]]);
      }),
    );
  });
});

describe('interface gaps', () => {
  let n = 0;
  const feedMessage = (extra: Partial<FeedMessage> = {}): FeedMessage => ({
    id: `f${++n}`,
    interfaceId: 'i1',
    receivedAtMs: T0 + n * 1000,
    sendingApplication: 'EPIC',
    sendingFacility: 'HOSP',
    controlId: `F${n}`,
    sequenceNumber: null,
    acknowledgedControlId: null,
    messageType: 'ADT^A01',
    messageTimeMs: T0 + n * 1000 - 500,
    patientId: 'MRN1',
    patientAuthority: 'HOSP',
    contentDigest: `d${n}`,
    ...extra,
  });
  const withNumber = (sequenceNumber: number | null, extra: Partial<FeedMessage> = {}) => feedMessage({ sequenceNumber, ...extra });
  const judge = (messages: FeedMessage[]) => interfaceGaps('i1', 'adt-in', scanFeed(messages));

  it('reports missing MSH-13 numbers as one range per jump, per sender', () => {
    const messages = [withNumber(1), withNumber(2), withNumber(5), withNumber(1, { sendingApplication: 'LAB' }), withNumber(3, { sendingApplication: 'LAB' }), withNumber(6), withNumber(1_000_000_000)];
    const { gaps } = judge(messages);
    expect(gaps.map((g) => [g.kind, g.amount, g.expected])).toEqual([
      ['sequence-number', 2, 'sequence numbers 3 to 4 from EPIC/HOSP'],
      ['sequence-number', 1, 'sequence number 2 from LAB/HOSP'],
      ['sequence-number', 999_999_993, 'sequence numbers 7 to 999999999 from EPIC/HOSP'],
    ]);
    expect(gaps[0]!.seen.map((s) => [s.sequenceNumber, s.interface, s.timestamp])).toEqual([
      [2, 'adt-in', new Date(messages[1]!.messageTimeMs!).toISOString()],
      [5, 'adt-in', new Date(messages[2]!.messageTimeMs!).toISOString()],
    ]);
    expect(gaps[0]!.window).toEqual({ from: new Date(messages[1]!.receivedAtMs).toISOString(), to: new Date(messages[2]!.receivedAtMs).toISOString() });
  });

  it('takes 0 as a restart and a lower number as a rewind, not as gaps', () => {
    expect(judge([withNumber(7), withNumber(0), withNumber(1), withNumber(2), withNumber(1), withNumber(2), withNumber(-1), withNumber(3)]).gaps).toEqual([]);
  });

  it('keeps only the messages that matter: the two of each jump and those of a repeated control id', () => {
    const messages = [withNumber(1), withNumber(2, { controlId: 'X' }), withNumber(4), withNumber(5), withNumber(6, { controlId: 'X' })];
    const findings = scanFeed(messages);
    expect(findings.jumps.map(({ before, after }) => [before.sequenceNumber, after.sequenceNumber])).toEqual([[2, 4]]);
    expect(findings.repeated.map((m) => m.id)).toEqual([messages[1]!.id, messages[4]!.id]);
  });

  it('counts exact resends apart from control ids reused with other content', () => {
    const first = feedMessage({ controlId: 'X1', contentDigest: 'aaa' });
    const resend = feedMessage({ controlId: 'X1', contentDigest: 'aaa' });
    const conflict = feedMessage({ messageType: 'ADT^A08', controlId: 'X1', contentDigest: 'bbb' });
    const otherSender = feedMessage({ messageType: 'ADT^A08', controlId: 'X1', sendingApplication: 'LAB', contentDigest: 'ccc' });
    const unknown = feedMessage({ messageType: 'ADT^A08', controlId: 'X1', contentDigest: null });
    const result = judge([first, resend, conflict, otherSender, unknown]);
    expect(result.resends).toBe(1);
    expect(result.contentUnknown).toBe(1);
    expect(result.gaps.map((g) => [g.kind, g.seen.map((s) => s.messageId)])).toEqual([
      ['duplicate-control-id', [first.id, conflict.id]],
    ]);
  });
});

describe('latency pairing', () => {
  const message = (id: string, receivedAtMs: number, extra: Partial<LatencyMessage> = {}): LatencyMessage => ({
    id,
    receivedAtMs,
    messageTimeMs: null,
    controlId: null,
    acknowledgedControlId: null,
    messageType: 'ADT^A01',
    patientId: null,
    ...extra,
  });

  it('pairs by control id, by acknowledgement and by patient and MSH-7 within the window', () => {
    const source = [
      message('s1', 1_000, { controlId: 'A' }),
      message('s2', 2_000, { controlId: 'B' }),
      message('s3', 3_000, { controlId: 'C', patientId: 'P1', patientAuthority: 'H', messageTimeMs: 50_000 }),
      message('s4', 4_000, { controlId: 'D' }),
    ];
    const destination = [
      message('d1', 1_250, { controlId: 'A' }),
      message('d2', 2_007, { messageType: 'ACK', acknowledgedControlId: 'B', controlId: 'ACK1' }),
      message('d3', 3_400, { controlId: 'Z', patientId: 'P1', patientAuthority: 'H', messageTimeMs: 50_900 }),
      message('d4', 9_000, { controlId: 'nothing' }),
    ];
    const result = pairMessages(source, destination, 1_000);
    expect(result.pairs.map((p) => [p.sourceId, p.destinationId, p.latencyMs, p.by])).toEqual([
      ['s1', 'd1', 250, 'control-id'],
      ['s2', 'd2', 7, 'ack'],
      ['s3', 'd3', 400, 'patient-and-time'],
    ]);
    expect([result.unmatchedSource, result.unmatchedDestination]).toEqual([1, 1]);
    expect(pairMessages(source, destination, 500).pairs.map((p) => p.destinationId)).toEqual(['d1', 'd2']);
  });

  it('pairs each source message once, earliest first', () => {
    const source = [message('s1', 0, { controlId: 'A' }), message('s2', 10, { controlId: 'A' })];
    const destination = [message('d1', 100, { controlId: 'A' }), message('d2', 200, { controlId: 'A' }), message('d3', 300, { controlId: 'A' })];
    const result = pairMessages(source, destination);
    expect(result.pairs.map((p) => [p.sourceId, p.latencyMs])).toEqual([['s1', 100], ['s2', 190]]);
    expect(result.unmatchedDestination).toBe(1);
  });

  it('summarises with nearest-rank quantiles and an hourly series', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summariseHours(new Map([[T0, values]])).summary).toEqual({ count: 100, minMs: 1, p50Ms: 50, p95Ms: 95, p99Ms: 99, maxMs: 100 });
    expect(summariseHours(new Map()).summary).toEqual({ count: 0, minMs: null, p50Ms: null, p95Ms: null, p99Ms: null, maxMs: null });
    expect(nearestRank([5], 0.99)).toBe(5);
    const hour = Date.parse('2026-03-01T10:00:00Z');
    const { series } = summariseHours(latenciesByHour([
      { sourceId: 'a', destinationId: 'b', latencyMs: 30, destinationReceivedAtMs: hour + 3_599_999, by: 'control-id' },
      { sourceId: 'c', destinationId: 'd', latencyMs: 10, destinationReceivedAtMs: hour + 3_600_000, by: 'control-id' },
      { sourceId: 'e', destinationId: 'f', latencyMs: 20, destinationReceivedAtMs: hour, by: 'control-id' },
    ]));
    expect(series.map((h) => [h.hour, h.count, h.minMs, h.maxMs])).toEqual([
      ['2026-03-01T10:00:00.000Z', 2, 20, 30],
      ['2026-03-01T11:00:00.000Z', 1, 10, 10],
    ]);
  });
});

/** The summary by its definition: sort everything, count, read the nearest ranks. */
function plainSummary(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q: number) => (sorted.length === 0 ? null : sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!);
  return { count: sorted.length, minMs: sorted[0] ?? null, p50Ms: rank(0.5), p95Ms: rank(0.95), p99Ms: rank(0.99), maxMs: sorted.at(-1) ?? null };
}

describe('latency summaries by hour', () => {
  it('summarises all the hours together as the latencies of every hour in one list, beside the same series', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.array(fc.integer({ min: -5_000, max: 5_000 }), { minLength: 1, maxLength: 40 })), { maxLength: 30 }), (drawn) => {
        const byHour = new Map<number, number[]>();
        for (const [hour, values] of drawn) byHour.set(T0 + hour * 3_600_000, values);
        const series = [...byHour.entries()].sort((a, b) => a[0] - b[0]).map(([hour, values]) => ({ hour: new Date(hour).toISOString(), ...plainSummary(values) }));
        expect(summariseHours(byHour)).toEqual({ summary: plainSummary([...byHour.values()].flat()), series });
      }),
      { numRuns: 200 },
    );
  });
});

describe('observed sequences', () => {
  it('counts each patient path once, most patients first', () => {
    const patient = (mrn: string) => ({ patientIds: [{ id: mrn, assigningAuthority: 'HOSP' }] });
    const events = [
      ...['P1', 'P2', 'P3'].flatMap((p, i) => [event('ADT^A01', i, patient(p)), event('ADT^A01', i + 1, patient(p)), event('ORM^O01', i + 2, patient(p)), event('ACK', i + 3, patient(p))]),
      event('ADT^A01', 0, patient('P4')),
      event('ORU^R01', 1, patient('P4')),
      event('ADT^A01', 0, patient('P5')),
    ];
    expect(observedSequences(events, 10)).toEqual([
      { sequence: 'ADT^A01>ORM^O01', patients: 3 },
      { sequence: 'ADT^A01>ORU^R01', patients: 1 },
    ]);
    expect(observedSequences(events, 1)).toHaveLength(1);
  });
});
