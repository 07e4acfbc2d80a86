// Sequences over routed traffic, through the real HTTP interface on SQLite and PostgreSQL: the same ADT passes an
// inbound and an outbound interface (one message, one control id, two copies). Gaps over a sequence bound to no
// interface read the journey as complete (no false "missing" step, no alert); a journey really missing a step is still
// reported once. A sequence naming an interface that does not exist is refused with 400 naming it, by name or id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../monitor/monitor-harness.ts';
import { mrnOf, startTracingHarness, storages, typeOf, type TracingHarness } from './tracing-harness.ts';

const ROUTED = 'ADT^A01>ORM^O01<1h>ORU^R01<4h';

interface GapView {
  kind: string;
  stepIndex: number | null;
  patientId: string | null;
  expected: string;
}

describe.each(storages())('routed copies on %s', (storage) => {
  let h: TracingHarness;
  let complete: string;
  let dropped: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTracingHarness({ storage });
    const inbound = await h.addInterface('adt-in');
    const outbound = await h.addInterface('adt-out');
    const orders = await h.addInterface('orders');
    const lab = await h.addInterface('lab');
    Object.assign(ids, { inbound: inbound.id, outbound: outbound.id, orders: orders.id, lab: lab.id });

    // Two admissions: the first complete, the second without its order; every ADT is routed from adt-in to adt-out.
    const journeys = await h.journeys({ patients: 2, seed: 3003, start: '2026-03-03T09:00:00Z', faults: [{ kind: 'drop', step: 'ORM^O01', patient: 2 }] });
    [complete, dropped] = [...new Set(journeys.map(mrnOf))] as [string, string];
    const adts = journeys.filter((m) => typeOf(m).startsWith('ADT'));
    await h.deliver(inbound.dir, adts);
    await h.deliver(outbound.dir, adts);
    await h.deliver(orders.dir, journeys.filter((m) => typeOf(m) === 'ORM^O01'));
    await h.deliver(lab.dir, journeys.filter((m) => typeOf(m) === 'ORU^R01'));
    // defined once every copy is stored: the alert rule judges the journeys as they stand, not half delivered
    const created = await h.post('/api/monitor/sequences', { name: 'routed', sequence: ROUTED, alert: true });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const gapsOf = async (query: string): Promise<GapView[]> => {
    const answer = await h.get(`/api/monitor/gaps?since=2026-03-01${query}`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return (answer.json.data.gaps as GapView[]).filter((gap) => gap.kind !== 'sequence-number' && gap.kind !== 'duplicate-control-id');
  };

  it('reads a routed journey as complete: a copy on another interface satisfies a step bound to none', async () => {
    expect(await gapsOf(`&patient_id=${complete}`)).toEqual([]);
    const trace = (await h.get(`/api/monitor/traces?patient_id=${complete}`)).json.data;
    expect(trace.events.filter((e: { messageType: string }) => e.messageType === 'ADT^A01')).toHaveLength(2);
    expect(trace.gaps).toEqual([]);
    // judged from one interface too: the inbound copy is all adt-in holds, the journey still complete
    expect(await gapsOf(`&interface_id=${ids.inbound}&patient_id=${complete}`)).toEqual([]);
  });

  it('still reports a step really missing, once, not once per copy', async () => {
    const gaps = await gapsOf('');
    expect(gaps.map((g) => [g.kind, g.patientId, g.stepIndex])).toEqual([['missing', dropped, 1]]);
    expect(gaps[0]!.expected).toBe('ORM^O01 after ADT^A01');
  });

  it('raises no gap alert on the routed interfaces for the complete journey', async () => {
    // the alert rule judges on every commit; the one journey really missing a step is what it may report
    const alerts = async (id: string) =>
      ((await h.get(`/api/monitor/alerts?sinceHours=48&interfaceId=${id}`)).json.data as Array<{ rule: string; message: string; clearedAt: string | null }>).filter(
        (a) => a.rule === 'tracing-gaps' && a.clearedAt === null,
      );
    const open = await waitFor(async () => {
      const list = await alerts(ids.inbound!);
      return list.length > 0 ? list : undefined;
    }, 20_000, 'the gap alert of the journey missing its order');
    expect(open).toHaveLength(1);
    const alert = open[0] as unknown as { title: string; message: string };
    expect(alert.title).toBe('1 sequence gap on adt-in');
    expect(alert.message).toContain(`for patient ${dropped}`);
    expect(alert.message).not.toContain('more');
    expect(await alerts(ids.outbound!)).toEqual([]);
  });

  it.each([
    ['a name', 'ADT@adt-ot>ORM', 'adt-ot'],
    ['an id', 'ADT@7b0c2a9e-0000-4000-8000-000000000000>ORM', '7b0c2a9e-0000-4000-8000-000000000000'],
  ])('refuses a sequence naming an unknown interface by %s with 400 naming it, and stores nothing', async (_, sequence, unknown) => {
    const answer = await h.post('/api/monitor/sequences', { name: `unknown ${unknown}`, sequence });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('VALIDATION_FAILED');
    expect(answer.json.error.message).toContain(`"${unknown}"`);
    expect(answer.json.error.details).toEqual([expect.objectContaining({ location: 'body', path: 'sequence', message: expect.stringContaining(`step 1 (ADT@${unknown})`) })]);
    const listed = (await h.get('/api/monitor/sequences')).json.data.defined as Array<{ name: string }>;
    expect(listed.map((s) => s.name)).not.toContain(`unknown ${unknown}`);
    const judged = await h.get(`/api/monitor/gaps?sequence=${encodeURIComponent(sequence)}`);
    expect(judged.status).toBe(400);
    expect(judged.json.error.details[0]).toMatchObject({ location: 'query', path: 'sequence' });
  });

  it('accepts steps bound to interfaces by name or by id', async () => {
    const answer = await h.post('/api/monitor/sequences', { name: 'pinned', sequence: `ADT^A01@adt-in>ORM^O01@${ids.orders}<1h` });
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    expect(await gapsOf(`&patient_id=${complete}&sequence=${encodeURIComponent(`ADT^A01@adt-in>ORM^O01@${ids.orders}<1h`)}`)).toEqual([]);
  });
});
