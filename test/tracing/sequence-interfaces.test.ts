// Expected sequences whose steps name an interface that does not exist, through the real HTTP interface: one from the
// config file makes health degraded at start with a condition naming the sequence, the step and the interface, and
// clears once the interface is created; one defined through the API whose interface is then deleted opens it again
// until the sequence is removed. A request naming an unknown interface stays a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../monitor/monitor-harness.ts';
import { startTracingHarness, storages, type TracingHarness } from './tracing-harness.ts';

const KEY = 'tracing-sequence-interface-unknown';

describe.each(storages())('sequences naming unknown interfaces on %s', (storage) => {
  let h: TracingHarness;
  const conditions = async (): Promise<Array<{ key: string; reason: string }>> => (await h.get('/api/health')).json.conditions ?? [];
  const unknownCondition = async () => (await conditions()).find((c) => c.key === KEY);

  beforeAll(async () => {
    h = await startTracingHarness({ storage, tracing: { sequences: [{ name: 'admission', sequence: 'ADT^A01@adt-ot>ORM^O01<1h' }] } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('says at start which configured sequence names which unknown interface, and clears once it exists', async () => {
    const health = (await h.get('/api/health')).json;
    expect(health.status).toBe('degraded');
    const condition = await unknownCondition();
    expect(condition?.reason).toContain('sequence "admission" (plugins.tracing.sequences): step 1 (ADT^A01@adt-ot) names no interface');
    await h.addInterface('adt-ot');
    await waitFor(async () => (await unknownCondition()) === undefined, 10_000, 'the condition cleared');
  });

  it('opens it again when the interface an API sequence names is deleted, until the sequence is removed', async () => {
    const lab = await h.addInterface('lab');
    expect((await h.post('/api/monitor/sequences', { name: 'results', sequence: 'ORM^O01>ORU^R01@lab<4h' })).status).toBe(201);
    expect((await h.post('/api/monitor/sequences', { name: 'typo', sequence: 'ORM^O01>ORU^R01@lab2' })).status).toBe(400);
    expect(await unknownCondition()).toBeUndefined();
    expect((await h.del(`/api/monitor/interfaces/${lab.id}`)).status).toBe(200);
    await waitFor(async () => (await unknownCondition()) !== undefined, 10_000, 'the condition opened');
    expect((await unknownCondition())?.reason).toContain('sequence "results" (defined through the API): step 2 (ORU^R01@lab) names no interface');
    expect((await h.del('/api/monitor/sequences/results')).status).toBe(200);
    await waitFor(async () => (await unknownCondition()) === undefined, 10_000, 'the condition cleared');
  });
});
