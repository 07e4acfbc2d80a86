// A trace crosses standards: the same patient identifier in an HL7 ADT^A01 and in a FHIR message Bundle (Patient
// identifier, Encounter identifier as the visit) ingested into two interfaces, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adtMessage } from '../monitor/monitor-harness.ts';
import { startTracingHarness, storages, type TracingHarness } from './tracing-harness.ts';

const bundle = {
  resourceType: 'Bundle',
  id: 'fhir-msg-1',
  type: 'message',
  timestamp: '2026-01-01T13:00:00Z',
  entry: [
    {
      fullUrl: 'urn:uuid:3f1c2b7a-0d4e-4c55-9a10-2b8e6c1d7f01',
      resource: {
        resourceType: 'MessageHeader',
        id: 'h1',
        eventCoding: { system: 'http://example.org/fhir/message-events', code: 'admit-notification' },
        source: { name: 'FHIRAPP', endpoint: 'http://fhir.example.org' },
      },
    },
    {
      fullUrl: 'urn:uuid:3f1c2b7a-0d4e-4c55-9a10-2b8e6c1d7f02',
      resource: { resourceType: 'Patient', id: 'p1', identifier: [{ system: 'HOSP', value: 'XSTD1' }], name: [{ family: 'Doe', given: ['Jane'] }] },
    },
    {
      fullUrl: 'urn:uuid:3f1c2b7a-0d4e-4c55-9a10-2b8e6c1d7f03',
      resource: { resourceType: 'Encounter', id: 'e1', status: 'in-progress', class: { code: 'IMP' }, identifier: [{ value: 'VISIT-9' }] },
    },
  ],
};

describe.each(storages())('a trace across HL7 and FHIR on %s', (storage) => {
  let h: TracingHarness;
  beforeAll(async () => {
    h = await startTracingHarness({ storage });
    const hl7 = await h.addInterface('adt-in');
    const fhir = await h.addInterface('fhir-in', { standard: 'fhir' });
    await h.deliver(hl7.dir, [adtMessage('XSTD-A01', { patientId: 'XSTD1', account: 'VISIT-9' })]);
    await h.deliver(fhir.dir, [JSON.stringify(bundle)], 'json');
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('finds the patient in both standards, in time order, by patient id and by visit', async () => {
    const byPatient = (await h.get('/api/monitor/traces?patient_id=XSTD1')).json.data;
    expect(byPatient.events.map((e: { interface: string; messageType: string }) => `${e.messageType}@${e.interface}`)).toEqual([
      'ADT^A01@adt-in',
      'admit-notification@fhir-in',
    ]);
    expect(byPatient.assigningAuthorities).toEqual(['HOSP']);
    expect(byPatient.totalSpanMs).toBe(3_600_000);
    const byVisit = (await h.get('/api/monitor/traces?account_number=VISIT-9')).json.data;
    expect(byVisit.events).toHaveLength(2);
  });
});
