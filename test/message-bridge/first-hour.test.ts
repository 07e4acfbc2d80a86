// What a new user sends in the first hour: raw message bodies, FHIR as a JSON object, `curl -d` JSON, any letter case,
// NCPDP "D.0"; a route on the wrong base says where it lives; the docs work with a trailing slash and from either
// loopback name; every bridge route carries examples.
import { describe, expect, it } from 'vitest';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import { BRIDGE_EXAMPLES, EXAMPLE_FHIR_PATIENT, EXAMPLE_HL7 } from '../../plugins/message-bridge/bridge-examples.ts';

const wb = useTestWorkbench();

const raw = (contentType: string, body: string, query = '') =>
  wb.call('bridge', { method: 'POST', path: `/api/validate${query}`, headers: { 'content-type': contentType }, rawBody: body });

describe('accepting what people send', () => {
  it('validates an HL7 message sent as the raw body (text/plain, x-application/hl7-v2+er7)', async () => {
    for (const type of ['text/plain', 'x-application/hl7-v2+er7', 'text/plain; charset=utf-8']) {
      const res = await raw(type, EXAMPLE_HL7);
      expect(res.status, type).toBe(200);
      expect(res.json.data).toMatchObject({ standard: 'hl7', isValid: true, errors: [] });
    }
  });

  it('reads standard, mode, profile and version from the query string with a raw body', async () => {
    const broken = EXAMPLE_HL7.replace('EVN||20250615120000', 'ZZZ|1\rEVN||20250615120000');
    const strict = await raw('text/plain', broken, '?standard=HL7');
    expect(strict.json.data.isValid).toBe(false);
    expect(strict.json.data.errors.map((e: { code: string }) => e.code)).toContain('SEGMENT_UNEXPECTED');
    const lenient = await raw('text/plain', broken, '?standard=hl7&mode=compatibility');
    expect(lenient.json.data.isValid).toBe(true);
    expect(lenient.json.data.warnings.map((e: { code: string }) => e.code)).toContain('SEGMENT_UNEXPECTED');
    const badMode = await raw('text/plain', EXAMPLE_HL7, '?mode=loose');
    expect(badMode.status).toBe(400);
    expect(badMode.json.error.details[0]).toMatchObject({ location: 'query', path: 'mode' });
    const noProfile = await raw('text/plain', EXAMPLE_HL7, '?profile=nope');
    expect(noProfile.status).toBe(400);
    expect(noProfile.json.error.code).toBe('PROFILE_NOT_FOUND');
  });

  it('validates FHIR sent as application/fhir+json and as a JSON object in messageContent', async () => {
    const asBody = await raw('application/fhir+json', JSON.stringify(EXAMPLE_FHIR_PATIENT));
    expect(asBody.status).toBe(200);
    expect(asBody.json.data).toMatchObject({ standard: 'fhir', isValid: true });
    const asObject = await wb.call('bridge', { path: '/api/validate', body: { messageContent: EXAMPLE_FHIR_PATIENT } });
    expect(asObject.status).toBe(200);
    expect(asObject.json.data).toMatchObject({ standard: 'fhir', isValid: true });
    const wrongGender = { ...EXAMPLE_FHIR_PATIENT, gender: 'yes' };
    const invalid = await wb.call('bridge', {
      path: '/api/validate',
      body: { messageContent: wrongGender, standard: 'FHIR' },
    });
    expect(invalid.json.data.isValid).toBe(false);
    expect(invalid.json.data.errors[0].field).toContain('gender');
  });

  it('reads `curl -d` JSON (sent as a form) as the JSON it is', async () => {
    const res = await wb.call('bridge', {
      method: 'POST',
      path: '/api/validate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: JSON.stringify({ messageContent: EXAMPLE_HL7 }),
    });
    expect(res.status).toBe(200);
    expect(res.json.data.isValid).toBe(true);
    const broken = await wb.call('bridge', {
      method: 'POST',
      path: '/api/generate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: '{"count": 2',
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe('INVALID_JSON');
  });

  it('answers 415 naming the accepted content types', async () => {
    const onDiff = await wb.call('bridge', {
      method: 'POST',
      path: '/api/diff',
      headers: { 'content-type': 'text/plain' },
      rawBody: EXAMPLE_HL7,
    });
    expect(onDiff.status).toBe(415);
    expect(onDiff.json.error.message).toContain('send application/json, for example');
    const unknown = await raw('application/pdf', 'x');
    expect(unknown.status).toBe(415);
    expect(unknown.json.error.message).toContain('text/plain');
    expect(unknown.json.error.message).toContain('application/fhir+json');
  });

  it('accepts any letter case for standard and D.0 as well as D0 for NCPDP Telecommunication', async () => {
    const upper = await wb.call('bridge', { path: '/api/generate', body: { standard: 'NCPDP', messageType: 'B1', version: 'D.0', seed: 3 } });
    expect(upper.status).toBe(200);
    const same = await wb.call('bridge', { path: '/api/generate', body: { standard: 'ncpdp', messageType: 'B1', version: 'D0', seed: 3 } });
    expect(same.json.data).toEqual(upper.json.data);
    const validated = await wb.call('bridge', { path: '/api/validate', body: { messageContent: upper.json.data[0], standard: 'Ncpdp', version: 'D.0' } });
    expect(validated.json.data).toMatchObject({ standard: 'ncpdp', isValid: true });
    const describe = await wb.call('bridge', { path: '/api/describe?standard=HL7&path=PID.5' });
    expect(describe.json.data.name).toBe('Patient Name');
  });

  it('generates HL7 2.3 by default and refuses hl7Version and version that disagree', async () => {
    const generated = await wb.call('bridge', { path: '/api/generate', body: { seed: 1 } });
    expect(generated.json.data[0].split('\r')[0].split('|')[11]).toBe('2.3');
    const agree = await wb.call('bridge', { path: '/api/generate', body: { hl7Version: '2.5', version: '2.5', seed: 1 } });
    expect(agree.status).toBe(200);
    const disagree = await wb.call('bridge', { path: '/api/generate', body: { hl7Version: '2.5', version: '2.4' } });
    expect(disagree.status).toBe(400);
    expect(disagree.json.error.code).toBe('VALIDATION_FAILED');
    expect(disagree.json.error.message).toContain('hl7Version "2.5" and version "2.4" disagree');
  });
});

describe('finding your way', () => {
  it('says which base serves a route called on the wrong one', async () => {
    const res = await wb.call('monitor', { path: '/api/validate', body: { messageContent: EXAMPLE_HL7 } });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('ROUTE_ON_OTHER_BASE');
    expect(res.json.error.message).toContain(`the bridge base serves it: POST ${wb.urls.bridge}/api/validate`);
    expect(res.json.error.details).toEqual({ base: 'bridge', url: `${wb.urls.bridge}/api/validate` });
    const health = await wb.call('bridge', { path: '/api/health' });
    expect(health.json.error.details.base).toBe('monitor');
    const nowhere = await wb.call('bridge', { path: '/api/nowhere' });
    expect(nowhere.json.error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('serves /docs/ with a trailing slash and the document with the server the caller used', async () => {
    const docs = await wb.call('bridge', { path: '/docs/' });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    const port = new URL(wb.urls.bridge).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const document = await wb.call('bridge', { path: '/openapi.json', headers: { host } });
      expect(document.json.servers).toEqual([{ url: `http://${host}` }]);
    }
  });

  it('documents an example for every bridge route, raw bodies included', async () => {
    const document = (await wb.call('bridge', { path: '/openapi.json' })).json;
    const validate = document.paths['/api/validate'].post;
    expect(validate.requestBody.content['application/json'].example).toEqual(BRIDGE_EXAMPLES.validate.body);
    expect(validate.requestBody.content['text/plain'].example).toBe(EXAMPLE_HL7);
    expect(validate.requestBody.content['application/fhir+json']).toBeDefined();
    expect(validate.parameters.find((p: { name: string }) => p.name === 'mode').example).toBe('strict');
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.values(operation.responses as Record<string, any>)[0].content['application/json'];
        expect(success.example, `${method} ${path} response example`).toBeDefined();
        // a route with a body documents an example of it
        expect(operation.requestBody === undefined || operation.requestBody.content['application/json'].example !== undefined, `${method} ${path}`).toBe(true);
      }
    }
  });

  it('documents example answers of the health and feature routes that match their schemas', async () => {
    const document = (await wb.call('monitor', { path: '/openapi.json' })).json;
    const health = document.paths['/api/health'].get.responses['200'].content['application/json'].example;
    expect(Object.keys(health).sort()).toEqual(Object.keys((await wb.call('monitor', { path: '/api/health' })).json).sort());
    const features = document.paths['/api/features'].get.responses['200'].content['application/json'].example;
    expect(features.success).toBe(true);
    expect(Object.keys(features.data).sort()).toEqual(['flags', 'organizationId', 'scope']);
  });

  it('answers each documented example request with success', async () => {
    for (const [path, body] of [
      ['/api/validate', BRIDGE_EXAMPLES.validate.body],
      ['/api/diff', BRIDGE_EXAMPLES.diff.body],
      ['/api/generate', BRIDGE_EXAMPLES.generate.body],
    ] as const) {
      const res = await wb.call('bridge', { path, body });
      expect(res.status, path).toBe(200);
    }
    const diff = await wb.call('bridge', { path: '/api/diff', body: BRIDGE_EXAMPLES.diff.body });
    expect(diff.json.data).toEqual(BRIDGE_EXAMPLES.diff.response);
    const validate = await wb.call('bridge', { path: '/api/validate', body: BRIDGE_EXAMPLES.validate.body });
    expect(validate.json.data).toEqual(BRIDGE_EXAMPLES.validate.response);
    const describe = await wb.call('bridge', { path: '/api/describe?standard=hl7&path=PID.5&version=2.5.1' });
    expect(describe.json.data).toEqual(BRIDGE_EXAMPLES.describe.response);
    const profiles = await wb.call('bridge', { path: '/api/profiles' });
    expect(profiles.json.data).toContainEqual(BRIDGE_EXAMPLES.profiles.response[0]);
  });
});
