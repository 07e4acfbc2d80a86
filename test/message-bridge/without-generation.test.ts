// Validation does not depend on generation: with the synthetic-data plugin off, every standard still validates
// (NPI/DEA check digits included) and generation answers 503 GENERATION_UNAVAILABLE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { EXAMPLE_FHIR_PATIENT, EXAMPLE_HL7 } from '../../plugins/message-bridge/bridge-examples.ts';

let withGeneration: TestWorkbench;
let withoutGeneration: TestWorkbench;

beforeAll(async () => {
  withGeneration = await startTestWorkbench();
  withoutGeneration = await startTestWorkbench({
    // population requires synthetic-data; it goes off with it.
    config: { plugins: { 'synthetic-data': { enabled: false } } },
  });
});
afterAll(async () => {
  await withGeneration.stop();
  await withoutGeneration.stop();
});

describe('standards without the synthetic-data plugin', () => {
  it('registers every standard and validates HL7 and FHIR', async () => {
    const standards = (await withoutGeneration.call('bridge', { path: '/api/standards' })).json.data;
    expect(standards.map((s: { id: string }) => s.id).sort()).toEqual(['fhir', 'hl7', 'ncpdp']);
    for (const messageContent of [EXAMPLE_HL7, EXAMPLE_FHIR_PATIENT]) {
      const res = await withoutGeneration.call('bridge', { path: '/api/validate', body: { messageContent } });
      expect(res.status).toBe(200);
      expect(res.json.data.isValid).toBe(true);
    }
  });

  it('checks NCPDP prescriber NPI check digits exactly as with generation on', async () => {
    const [message] = (
      await withGeneration.call('bridge', { path: '/api/generate', body: { standard: 'ncpdp', messageType: 'NewRx', seed: 9 } })
    ).json.data as string[];
    const npi = /<NPI>(\d{10})<\/NPI>/.exec(message)?.[1];
    expect(npi).toBeDefined();
    const wrongDigit = String((Number(npi!.at(-1)) + 1) % 10);
    const broken = message.replace(`<NPI>${npi}</NPI>`, `<NPI>${npi!.slice(0, 9)}${wrongDigit}</NPI>`);
    for (const wb of [withGeneration, withoutGeneration]) {
      const good = await wb.call('bridge', { path: '/api/validate', body: { messageContent: message } });
      expect(good.json.data.isValid).toBe(true);
      const bad = await wb.call('bridge', { path: '/api/validate', body: { messageContent: broken } });
      expect(bad.json.data.isValid).toBe(false);
      expect(JSON.stringify(bad.json.data.errors)).toMatch(/NPI/);
    }
  });

  it('answers 503 GENERATION_UNAVAILABLE for generation, naming the plugin', async () => {
    for (const standard of ['hl7', 'fhir', 'ncpdp']) {
      const res = await withoutGeneration.call('bridge', { path: '/api/generate', body: { standard } });
      expect(res.status, standard).toBe(503);
      expect(res.json.error.code).toBe('GENERATION_UNAVAILABLE');
      expect(res.json.error.message).toContain('synthetic-data');
    }
  });
});
