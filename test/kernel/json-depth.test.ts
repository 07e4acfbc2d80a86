// One depth limit for every JSON the service accepts: a FHIR object nested thousands of levels deep as messageContent
// (validate, diff, de-identify, triage) or a bare JSON body is a 400 naming the limit, never a RangeError and a 500;
// JSON within the limit is read as before. The depth scan itself agrees with the real nesting of any JSON value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { createRoleKeys, withBearer, type RoleKeys } from '../helpers/admin-access.ts';
import { MAX_JSON_DEPTH, jsonNestingDepth } from '../../kernel/lib/input/json-depth.ts';

let wb: TestWorkbench;
let keys: RoleKeys;

/** A FHIR resource whose `contained` nests `levels` objects deep, as JSON text. */
function deepPatientText(levels: number): string {
  return `{"resourceType":"Patient","extension":${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}}`;
}

beforeAll(async () => {
  wb = await startTestWorkbench();
  keys = await createRoleKeys(wb);
});
afterAll(async () => {
  await wb.stop();
});

describe('JSON nested past the limit', () => {
  const deep = deepPatientText(2_500);
  const json = { 'content-type': 'application/json' };
  const cases: Array<{ name: string; base: 'bridge' | 'monitor'; path: string; rawBody: string; admin?: boolean }> = [
    { name: 'validate', base: 'bridge', path: '/api/validate', rawBody: `{"messageContent":${deep}}` },
    { name: 'diff', base: 'bridge', path: '/api/diff', rawBody: `{"leftMessage":${deep},"rightMessage":{"resourceType":"Patient"}}` },
    { name: 'de-identify', base: 'bridge', path: '/api/deidentify', rawBody: `{"messageContent":${deep}}` },
    { name: 'triage', base: 'monitor', path: '/api/monitor/triage', rawBody: `{"messageContent":${deep}}` },
    { name: 'a bare admin body', base: 'monitor', path: '/api/monitor/admin/roles', rawBody: `{"userId":"u","role":"MonitorViewer","x":${'['.repeat(3_000)}${']'.repeat(3_000)}}`, admin: true },
  ];
  for (const { name, base, path, rawBody, admin } of cases) {
    it(`answers 400 JSON_TOO_DEEP for ${name}`, async () => {
      const request = { method: 'POST' as const, path, rawBody, headers: json };
      const answer = await wb.call(base, admin ? withBearer(request, keys.admin) : request);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json.error.code).toBe('JSON_TOO_DEEP');
      expect(answer.json.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    });
  }

  it('answers the same for JSON labelled as a form (curl -d) and for the message sent as a string', async () => {
    const form = await wb.call('bridge', { method: 'POST', path: '/api/validate', rawBody: `{"messageContent":${deep}}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status, form.text).toBe(400);
    expect(form.json.error.code).toBe('JSON_TOO_DEEP');
    const asText = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: deep } });
    expect(asText.status, asText.text).toBeLessThan(500);
  });

  it('reads JSON within the limit as before', async () => {
    const within = await wb.call('bridge', { method: 'POST', path: '/api/validate', rawBody: `{"messageContent":${deepPatientText(MAX_JSON_DEPTH - 10)}}`, headers: json });
    expect(within.status, within.text).toBe(200);
    expect(within.json.data).toHaveProperty('isValid');
  });
});

describe('the depth scan', () => {
  it('counts the nesting of any JSON value, strings with brackets and escapes included', () => {
    const depthOf = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        expect(jsonNestingDepth(JSON.stringify(value), 1_000)).toBe(depthOf(value));
      }),
      { numRuns: 300 },
    );
  });
});
