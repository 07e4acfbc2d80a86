// Tracing through the real HTTP interface on SQLite and PostgreSQL, over files the monitor ingested into several
// interfaces: patient journeys from the scenario generator (one complete, one with a step missing, one late, one out
// of order) traced and judged against a configured sequence; one MRN under two assigning authorities; MSH-13 gaps,
// duplicate control ids and exact resends; latency pairs with known delays to the millisecond; sequences defined
// through the API; every parameter validated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adtMessage, waitFor } from '../monitor/monitor-harness.ts';
import { mrnOf, startTracingHarness, storages, typeOf, type TracingHarness } from './tracing-harness.ts';

const ADMISSION = 'ADT^A01@adt-in>ORM^O01@orders<1h>ORU^R01@lab<4h';
const HOUR = 3_600_000;

describe.each(storages())('tracing on %s', (storage) => {
  let h: TracingHarness;
  let mrns: string[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTracingHarness({ storage, tracing: { sequences: [{ name: 'admission', sequence: ADMISSION }] } });
    const adt = await h.addInterface('adt-in');
    const orders = await h.addInterface('orders');
    const lab = await h.addInterface('lab');
    const feed = await h.addInterface('feed');
    const routeA = await h.addInterface('route-a');
    const routeB = await h.addInterface('route-b');
    const registry = await h.addInterface('registry');
    Object.assign(ids, { adt: adt.id, orders: orders.id, lab: lab.id, feed: feed.id, routeA: routeA.id, routeB: routeB.id });

    // Four admissions: 1 complete, 2 without its order, 3 with the result 3 h late, 4 with the result before the order.
    const journeys = await h.journeys({
      patients: 4,
      seed: 1001,
      start: '2026-03-02T08:00:00Z',
      faults: [
        { kind: 'drop', step: 'ORM^O01', patient: 2 },
        { kind: 'delay', step: 'ORU^R01', patient: 3, delayMs: 3 * HOUR },
        { kind: 'delay', step: 'ORU^R01', patient: 4, delayMs: -(2 * HOUR + 15 * 60_000) },
      ],
    });
    mrns = [...new Set(journeys.map(mrnOf))];
    await h.deliver(adt.dir, journeys.filter((m) => typeOf(m).startsWith('ADT')));
    await h.deliver(orders.dir, journeys.filter((m) => typeOf(m) === 'ORM^O01'));
    await h.deliver(lab.dir, journeys.filter((m) => typeOf(m) === 'ORU^R01'));

    // One number under two authorities (on an interface no sequence step names).
    const hosp = adtMessage('AUTH1', { patientId: 'SHARED77' });
    await h.deliver(registry.dir, [hosp, adtMessage('AUTH2', { patientId: 'SHARED77' }).replace('SHARED77^^^HOSP', 'SHARED77^^^LAB')]);

    // A feed whose sender skipped number 2, reused a control id with other content, and resent one message as it was.
    const feedJourneys = await h.journeys({
      patients: 4,
      seed: 2002,
      start: '2026-03-02T09:00:00Z',
      faults: [
        { kind: 'skip-sequence-number', step: 'ADT^A01', patient: 2 },
        { kind: 'duplicate-control-id', step: 'ADT^A01', patient: 3 },
        { kind: 'resend', step: 'ADT^A01', patient: 4 },
      ],
    });
    await h.deliver(feed.dir, feedJourneys.filter((m) => typeOf(m) === 'ADT^A01'));

    // Latency: the same message arrives on route-b 1,234 ms after route-a; a re-stamped copy 250 ms after; an ACK 77 ms after.
    await h.deliver(routeA.dir, [adtMessage('L1', { patientId: 'LAT1' })]);
    h.clock.advance(1_234);
    await h.deliver(routeB.dir, [adtMessage('L1', { patientId: 'LAT1' })]);
    await h.deliver(routeA.dir, [adtMessage('L2', { patientId: 'LAT2', time: '20260303115959' })]);
    h.clock.advance(250);
    await h.deliver(routeB.dir, [adtMessage('L2-OUT', { patientId: 'LAT2', time: '20260303115959' })]);
    await h.deliver(routeA.dir, [adtMessage('L3', { patientId: 'LAT3' })]);
    h.clock.advance(77);
    await h.deliver(routeB.dir, ['MSH|^~\\&|RECVAPP|RECVFAC|SENDAPP|SENDFAC|20260303120002||ACK^A01^ACK|ACK3|P|2.5\rMSA|AA|L3']);
    await h.deliver(routeA.dir, [adtMessage('L4', { patientId: 'LAT4' })]);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const trace = async (query: string) => {
    const answer = await h.get(`/api/monitor/traces?${query}`);
    expect(answer.status).toBe(200);
    return answer.json.data;
  };

  it('follows a complete admission across three interfaces in time order, without gaps', async () => {
    const data = await trace(`patient_id=${mrns[0]}`);
    expect(data.events.map((e: { messageType: string; interface: string }) => `${e.messageType}@${e.interface}`)).toEqual([
      'ADT^A01@adt-in',
      'ORM^O01@orders',
      'ORU^R01@lab',
      'ADT^A03@adt-in',
    ]);
    expect(data.events.every((e: { status: string; errorCount: number }) => e.status === 'valid' && e.errorCount === 0)).toBe(true);
    expect(data.totalSpanMs).toBe(30 * 60_000 + 2 * HOUR + 48 * HOUR);
    expect(data.gaps).toEqual([]);
    expect(data.assigningAuthorities).toHaveLength(1);
    const byPath = (await h.get(`/api/monitor/traces/${mrns[0]}`)).json.data;
    expect(byPath.events.map((e: { messageId: string }) => e.messageId)).toEqual(data.events.map((e: { messageId: string }) => e.messageId));
    const byControlId = await trace(`control_id=${data.events[1].controlId}`);
    expect(byControlId.events.map((e: { messageType: string }) => e.messageType)).toEqual(['ORM^O01']);
  });

  it('reports the step that never came, with the messages around it', async () => {
    const data = await trace(`patient_id=${mrns[1]}`);
    expect(data.events.map((e: { messageType: string }) => e.messageType)).toEqual(['ADT^A01', 'ORU^R01', 'ADT^A03']);
    expect(data.gaps).toHaveLength(1);
    expect(data.gaps[0]).toMatchObject({ kind: 'missing', sequenceName: 'admission', stepIndex: 1, patientId: mrns[1], expected: 'ORM^O01 on orders after ADT^A01' });
    expect(data.gaps[0].seen.map((s: { messageType: string }) => s.messageType)).toEqual(['ADT^A01', 'ORU^R01']);
  });

  it('reports a late step by how late it came, to the millisecond', async () => {
    const data = await trace(`patient_id=${mrns[2]}`);
    expect(data.gaps.map((g: { kind: string; stepIndex: number; amount: number }) => [g.kind, g.stepIndex, g.amount])).toEqual([['late', 2, HOUR]]);
  });

  it('reports a step that came before the one ahead of it', async () => {
    const data = await trace(`patient_id=${mrns[3]}`);
    expect(data.events.map((e: { messageType: string }) => e.messageType)).toEqual(['ADT^A01', 'ORU^R01', 'ORM^O01', 'ADT^A03']);
    expect(data.gaps.map((g: { kind: string; stepIndex: number; amount: number }) => [g.kind, g.stepIndex, g.amount])).toEqual([['out-of-order', 2, 15 * 60_000]]);
  });

  it('keeps one number under two authorities apart, and says so when no authority is named', async () => {
    const both = await trace('patient_id=SHARED77');
    expect(both.assigningAuthorities).toEqual(['HOSP', 'LAB']);
    expect(both.events).toHaveLength(2);
    const lab = await trace('patient_id=SHARED77&assigning_authority=LAB');
    expect(lab.assigningAuthorities).toEqual(['LAB']);
    expect(lab.events.map((e: { controlId: string }) => e.controlId)).toEqual(['AUTH2']);
    const none = await trace('patient_id=NOBODY');
    expect(none).toMatchObject({ events: [], gaps: [], totalSpanMs: 0, assigningAuthorities: [] });
  });

  it('lists the gaps of the window by kind, and of one interface only when asked', async () => {
    const all = (await h.get('/api/monitor/gaps?since=2026-03-01')).json.data;
    expect(all.sequences).toEqual([ADMISSION]);
    // The lost order of patient 2 also left a hole in the orders feed's MSH-13, beside the feed's skipped number.
    expect(all.counts).toEqual({ missing: 1, late: 1, 'out-of-order': 1, 'sequence-number': 2, 'duplicate-control-id': 1 });
    const orderNumbers = all.gaps.find((g: { kind: string; interfaceId: string }) => g.kind === 'sequence-number' && g.interfaceId === ids.orders);
    expect(orderNumbers).toMatchObject({ amount: 1, expected: 'sequence number 2 from SYNTH_EHR/SYNTH_GH' });
    expect(all.resends).toBe(1);
    const adtOnly = (await h.get(`/api/monitor/gaps?since=2026-03-01&interface_id=${ids.adt}`)).json.data;
    expect(adtOnly.gaps.map((g: { kind: string; patientId: string }) => [g.kind, g.patientId])).toEqual([['missing', mrns[1]]]);
    const onePatient = (await h.get(`/api/monitor/gaps?since=2026-03-01&patient_id=${mrns[2]}`)).json.data;
    expect(onePatient.gaps.map((g: { kind: string }) => g.kind)).toEqual(['late']);
    const tighter = (await h.get(`/api/monitor/gaps?since=2026-03-01&patient_id=${mrns[0]}&sequence=${encodeURIComponent('ADT^A01>ORM^O01<10m')}`)).json.data;
    expect(tighter.sequences).toEqual(['ADT^A01>ORM^O01<10m']);
    expect(tighter.gaps.map((g: { kind: string; amount: number }) => [g.kind, g.amount])).toEqual([['late', 20 * 60_000]]);
  });

  it('finds the skipped MSH-13 number and the reused control id, and counts the exact resend apart', async () => {
    const data = (await h.get(`/api/monitor/gaps?since=2026-03-01&interface_id=${ids.feed}`)).json.data;
    expect(data.counts).toEqual({ missing: 0, late: 0, 'out-of-order': 0, 'sequence-number': 1, 'duplicate-control-id': 1 });
    expect(data.resends).toBe(1);
    const numbers = data.gaps.find((g: { kind: string }) => g.kind === 'sequence-number');
    expect(numbers).toMatchObject({ amount: 1, interfaceId: ids.feed, expected: 'sequence number 2 from SYNTH_EHR/SYNTH_GH' });
    expect(numbers.seen.map((s: { sequenceNumber: number }) => s.sequenceNumber)).toEqual([1, 3]);
    const duplicate = data.gaps.find((g: { kind: string }) => g.kind === 'duplicate-control-id');
    expect(duplicate.seen).toHaveLength(2);
    expect(duplicate.seen[0].controlId).toBe(duplicate.seen[1].controlId);
    expect(duplicate.seen[0].messageId).not.toBe(duplicate.seen[1].messageId);
  });

  it('measures latency between two interfaces to the millisecond, pairing by control id, MSA-2 and patient with MSH-7', async () => {
    const answer = await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}`);
    expect(answer.status).toBe(200);
    const data = answer.json.data;
    expect(data).toMatchObject({ count: 3, minMs: 77, p50Ms: 250, p95Ms: 1_234, p99Ms: 1_234, maxMs: 1_234 });
    expect(data.pairedBy).toEqual({ controlId: 1, ack: 1, patientAndTime: 1 });
    expect(data.unmatched).toEqual({ source: 1, destination: 0 });
    expect(data.series).toHaveLength(1);
    expect(data.series[0]).toMatchObject({ hour: '2026-03-03T12:00:00.000Z', count: 3 });
    const tight = (await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}&match_window_ms=0&message_type=ADT`)).json.data;
    expect(tight.count).toBe(3);
    const none = (await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}&message_type=ORU^R01`)).json.data;
    expect(none).toMatchObject({ count: 0, minMs: null, p50Ms: null, unmatched: { source: 0, destination: 1 } });
  });

  it('takes an until in the future as now, and refuses a since in the future naming it', async () => {
    const future = await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}&until=2200-01-01`);
    expect(future.status).toBe(200);
    expect(future.json.data).toMatchObject({ count: 3, until: new Date(h.clock.nowMs()).toISOString() });
    const later = await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}&since=2200-01-01&until=2200-02-01`);
    expect(later.status).toBe(400);
    expect(later.json.error.details.map((d: { path: string }) => d.path)).toEqual(['since']);
    expect(later.json.error.message).not.toMatch(/step/);
  });

  it('lists defined and observed sequences, adds and removes API sequences', async () => {
    const listed = (await h.get('/api/monitor/sequences')).json.data;
    expect(listed.defined).toEqual([{ name: 'admission', sequence: ADMISSION, alert: false, source: 'config', createdAt: null }]);
    expect(listed.observed[0]).toEqual({ sequence: 'ADT^A01>ORM^O01>ORU^R01>ADT^A03', patients: 2 });
    expect(listed.observedWindow.truncated).toBe(false);
    const added = await h.post('/api/monitor/sequences', { name: 'orders', sequence: 'orm^o01 > oru^r01<2h', alert: true });
    expect(added.status).toBe(201);
    expect(added.json.data).toMatchObject({ name: 'orders', sequence: 'ORM^O01>ORU^R01<2h', alert: true, source: 'api' });
    expect((await h.post('/api/monitor/sequences', { name: 'orders', sequence: 'ADT>ORU' })).status).toBe(409);
    expect((await h.post('/api/monitor/sequences', { name: 'admission', sequence: 'ADT>ORU' })).json.error.code).toBe('SEQUENCE_EXISTS');
    expect((await h.get('/api/monitor/sequences')).json.data.defined.map((s: { name: string }) => s.name)).toEqual(['admission', 'orders']);
    expect((await h.del('/api/monitor/sequences/admission')).json.error.code).toBe('SEQUENCE_FROM_CONFIG');
    expect((await h.del('/api/monitor/sequences/orders')).json.data).toEqual({ name: 'orders', removed: true });
    expect((await h.del('/api/monitor/sequences/orders')).status).toBe(404);
  });

  it.each([
    ['/api/monitor/traces', 400, 'TRACE_KEY_REQUIRED', undefined],
    ['/api/monitor/traces?patient_id=X&limit=0', 400, 'VALIDATION_FAILED', 'limit'],
    ['/api/monitor/traces?patient_id=X&limit=1001', 400, 'VALIDATION_FAILED', 'limit'],
    ['/api/monitor/traces?patient_id=X&since=yesterday', 400, 'VALIDATION_FAILED', 'since'],
    ['/api/monitor/traces?patient_id=', 400, 'VALIDATION_FAILED', 'patient_id'],
    ['/api/monitor/traces?patient_id=X&colour=red', 400, 'VALIDATION_FAILED', '(root)'],
    ['/api/monitor/gaps?sequence=ADT^A01>>ORU', 400, 'SEQUENCE_SYNTAX', 'sequence'],
    ['/api/monitor/gaps?since=2026-13-01', 400, 'VALIDATION_FAILED', 'since'],
    ['/api/monitor/gaps?limit=x', 400, 'VALIDATION_FAILED', 'limit'],
    ['/api/monitor/gaps?interface_id=nope', 404, 'INTERFACE_NOT_FOUND', 'interface_id'],
    ['/api/monitor/latency?from_interface=a', 400, 'VALIDATION_FAILED', 'to_interface'],
    ['/api/monitor/latency?from_interface=nope&to_interface=nope', 404, 'INTERFACE_NOT_FOUND', 'from_interface'],
    ['/api/monitor/latency?from_interface=a&to_interface=b&message_type=A|B', 400, 'VALIDATION_FAILED', 'message_type'],
    ['/api/monitor/latency?from_interface=a&to_interface=b&match_window_ms=-1', 400, 'VALIDATION_FAILED', 'match_window_ms'],
  ])('GET %s answers %i %s naming %s', async (path, status, code, field) => {
    const answer = await h.get(path);
    expect(answer.status).toBe(status);
    expect(answer.json.error.code).toBe(code);
    if (field === undefined) return;
    const details = answer.json.error.details;
    const named = Array.isArray(details) ? details.map((d: { path: string }) => d.path) : [details.field];
    expect(named).toContain(field);
  });

  it('names the position of a sequence syntax error and the unknown destination interface', async () => {
    const syntax = await h.post('/api/monitor/sequences', { name: 'broken', sequence: 'ADT^A01>ORU^R01<4y' });
    expect(syntax.status).toBe(400);
    expect(syntax.json.error.details).toEqual({ field: 'sequence', position: 17, expected: 'a time unit: ms, s, m, h or d' });
    expect((await h.post('/api/monitor/sequences', { name: '', sequence: 'ADT>ORU' })).json.error.details[0].path).toBe('name');
    const unknownDestination = await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=nope`);
    expect(unknownDestination.status).toBe(404);
    expect(unknownDestination.json.error.code).toBe('INTERFACE_NOT_FOUND');
    expect(unknownDestination.json.error.details[0].path).toBe('to_interface');
    const untilFirst = await h.get(`/api/monitor/latency?from_interface=${ids.routeA}&to_interface=${ids.routeB}&since=2026-03-03&until=2026-03-02`);
    expect(untilFirst.status).toBe(400);
    expect(untilFirst.json.error.code).toBe('WINDOW_INVALID');
    expect(untilFirst.json.error.details[0].path).toBe('until');
  });
  it("keeps its feed up to date with every commit and drops a deleted interface's messages from it", async () => {
    const db = h.wb.workbench.storage.db;
    const feedRows = async (interfaceId: string) =>
      Number((await db.selectFrom('tracing_feed').select((eb) => eb.fn.countAll().as('n')).where('interface_id', '=', interfaceId).executeTakeFirstOrThrow()).n);
    const doomed = await h.addInterface('doomed');
    const numbered = (n: number) => adtMessage(`DOOM${n}`, { patientId: 'DOOM' }).replace(/^(MSH(\|[^|\r]*){11})/, `$1|${n}`);
    await h.deliver(doomed.dir, [numbered(1), numbered(3)]);
    // a read right after the commit already sees it: each read catches the feed up first
    const gaps = (await h.get(`/api/monitor/gaps?since=2026-03-01&interface_id=${doomed.id}`)).json.data;
    expect(gaps.counts['sequence-number']).toBe(1);
    expect(await feedRows(doomed.id)).toBe(2);
    expect((await h.del(`/api/monitor/interfaces/${doomed.id}`)).status).toBe(200);
    await waitFor(async () => (await feedRows(doomed.id)) === 0, 10_000, "the deleted interface's feed rows gone");
  });
});
