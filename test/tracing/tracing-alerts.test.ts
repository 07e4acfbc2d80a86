// Gap alerts through the monitor's alert-rule extension point: a sequence marked `alert` opens a warning on the
// interface whose patient is missing a step, and the episode ends once the step arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../monitor/monitor-harness.ts';
import { startTracingHarness, typeOf, type TracingHarness } from './tracing-harness.ts';

interface AlertView {
  rule: string;
  severity: string;
  title: string;
  message: string;
  clearedAt: string | null;
}

describe('gap alerts', () => {
  let h: TracingHarness;
  beforeAll(async () => {
    h = await startTracingHarness({
      storage: 'sqlite',
      tracing: { sequences: [{ name: 'admission', sequence: 'ADT^A01@adt-in>ORM^O01@orders<1h', alert: true }, { name: 'quiet', sequence: 'ADT^A01>ADT^A03<1h' }] },
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('opens a warning on the interface of a patient missing a step of an alerting sequence, and clears it when the step comes', async () => {
    const adt = await h.addInterface('adt-in');
    const orders = await h.addInterface('orders');
    const journey = await h.journeys({ seed: 77, start: '2026-03-02T08:00:00Z' });
    const alerts = async (): Promise<AlertView[]> => (await h.get(`/api/monitor/alerts?sinceHours=48&interfaceId=${adt.id}`)).json.data;

    await h.deliver(adt.dir, journey.filter((m) => typeOf(m) === 'ADT^A01'));
    const [open] = await waitFor(async () => {
      const list = (await alerts()).filter((a) => a.rule === 'tracing-gaps' && a.clearedAt === null);
      return list.length > 0 ? list : undefined;
    }, 20_000, 'a tracing-gaps alert on adt-in');
    expect(open).toMatchObject({ severity: 'warning', title: '1 sequence gap on adt-in' });
    expect(open!.message).toContain('admission: missing');
    expect(open!.message).toContain('ORM^O01 on orders after ADT^A01');

    await h.deliver(orders.dir, journey.filter((m) => typeOf(m) === 'ORM^O01'));
    await waitFor(async () => (await alerts()).some((a) => a.rule === 'tracing-gaps' && a.clearedAt !== null), 20_000, 'the episode cleared');
    // The sequence without `alert` never raised anything, though its discharge step is missing too.
    expect((await alerts()).filter((a) => a.rule === 'tracing-gaps')).toHaveLength(1);
  });
});
