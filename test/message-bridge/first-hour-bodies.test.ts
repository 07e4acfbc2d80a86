// What the first hour still sent wrong: a message file posted by curl without a content type (a "form"), a FHIR
// resource posted as plain JSON, a spec example that names only the message type, MLLP framing before a BOM, and
// a text body on the JSON-only diff route.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { useTestWorkbench } from '../helpers/test-workbench.ts';
import { sourceCliArgs } from '../helpers/cli-process.ts';
import { EXAMPLE_FHIR_PATIENT, EXAMPLE_HL7 } from '../../plugins/message-bridge/bridge-examples.ts';
import { RAW_MESSAGE_CONTENT_TYPES } from '../../plugins/message-bridge/message-input.ts';

const wb = useTestWorkbench({ onlyPlugins: new Set(['message-bridge', 'hl7-standard', 'fhir-standard', 'ncpdp-standard', 'population']) });

const FORM = 'application/x-www-form-urlencoded';

describe('message bodies as curl sends them', () => {
  it('reads a form-labelled body on /api/validate as the raw message (curl --data-binary @file)', async () => {
    const res = await wb.call('bridge', { path: '/api/validate', headers: { 'content-type': FORM }, rawBody: EXAMPLE_HL7 });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ standard: 'hl7', isValid: true });
    const strictBroken = EXAMPLE_HL7.replace('EVN||20250615120000', 'ZZZ|1\rEVN||20250615120000');
    const lenient = await wb.call('bridge', {
      path: '/api/validate?mode=compatibility',
      headers: { 'content-type': FORM },
      rawBody: strictBroken,
    });
    expect(lenient.json.data.isValid).toBe(true);
  });

  it('validates a FHIR resource posted as application/json without messageContent', async () => {
    const res = await wb.call('bridge', { path: '/api/validate', body: EXAMPLE_FHIR_PATIENT });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ standard: 'fhir', isValid: true });
    const wrong = await wb.call('bridge', { path: '/api/validate?mode=strict', body: { ...EXAMPLE_FHIR_PATIENT, gender: 'yes' } });
    expect(wrong.json.data.isValid).toBe(false);
    expect(wrong.json.data.errors[0].field).toContain('gender');
    // The JSON form still refuses keys it does not know.
    const stray = await wb.call('bridge', { path: '/api/validate', body: { messageContent: EXAMPLE_HL7, resourceType: 'Patient' } });
    expect(stray.status).toBe(400);
  });

  it('strips MLLP framing and a byte-order mark in either order', async () => {
    for (const prefix of ['\x0b\ufeff', '\ufeff\x0b']) {
      const res = await wb.call('bridge', {
        path: '/api/validate',
        body: { messageContent: `${prefix}${EXAMPLE_HL7}\x1c\r` },
      });
      expect(res.status).toBe(200);
      expect(res.json.data, JSON.stringify(prefix)).toMatchObject({ standard: 'hl7', isValid: true, errors: [] });
    }
  });

  it('answers a text body on /api/diff with 415 and a one-line JSON example', async () => {
    const res = await wb.call('bridge', { path: '/api/diff', headers: { 'content-type': 'text/plain' }, rawBody: EXAMPLE_HL7 });
    expect(res.status).toBe(415);
    expect(res.json.error.message).toContain('send application/json, for example {"leftMessage":"MSH|');
    expect(res.json.error.message).not.toContain('\r');
  });
});

describe('the standard follows from the message type', () => {
  it('generates Patient as FHIR, NewRx as NCPDP SCRIPT and B1 as Telecommunication D.0 without naming a standard', async () => {
    const patient = await wb.call('bridge', { path: '/api/generate', body: { messageType: 'Patient', seed: 1 } });
    expect(patient.status).toBe(200);
    expect(JSON.parse(patient.json.data[0]).resourceType).toBe('Patient');
    const newRx = await wb.call('bridge', { path: '/api/generate', body: { messageType: 'NewRx', seed: 1 } });
    expect(newRx.status).toBe(200);
    expect(newRx.json.data[0]).toContain('<NewRx');
    const b1 = await wb.call('bridge', { path: '/api/generate', body: { messageType: 'B1', seed: 1 } });
    expect(b1.status).toBe(200);
    const validated = await wb.call('bridge', { path: '/api/validate', body: { messageContent: b1.json.data[0] } });
    expect(validated.json.data).toMatchObject({ standard: 'ncpdp', isValid: true });
    const hl7 = await wb.call('bridge', { path: '/api/generate', body: { messageType: 'ADT^A04', seed: 1 } });
    expect(hl7.json.data[0]).toMatch(/^MSH\|/);
    // A named standard still wins: Patient is no HL7 message type.
    const named = await wb.call('bridge', { path: '/api/generate', body: { messageType: 'Patient', standard: 'hl7' } });
    expect(named.status).toBe(400);
  });

  it('does the same in workbench generate --type', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [...sourceCliArgs, 'generate', ...args], {
        env: { ...process.env, WORKBENCH_DATA_DIR: wb.dataDir, WORKBENCH_LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const patient = run('--type', 'Patient', '--seed', '2');
    expect(patient.status, patient.stderr).toBe(0);
    expect(patient.stdout).toContain('"resourceType":"Patient"');
    const b1 = run('--type', 'B1', '--seed', '2');
    expect(b1.status, b1.stderr).toBe(0);
    expect(b1.stdout).toContain('D0');
  });
});

describe('the docs of each base', () => {
  it('give each raw media type of /api/validate its own example, and each example validates as its standard', async () => {
    const document = (await wb.call('bridge', { path: '/openapi.json' })).json;
    const content = document.paths['/api/validate'].post.requestBody.content;
    const expected: Record<string, string> = { 'application/fhir+json': 'fhir', 'application/fhir+xml': 'fhir', 'application/xml': 'fhir', 'text/xml': 'fhir' };
    for (const type of RAW_MESSAGE_CONTENT_TYPES) {
      const example = content[type].example as string;
      expect(example, type).toBeTypeOf('string');
      const res = await wb.call('bridge', { path: '/api/validate', headers: { 'content-type': type }, rawBody: example });
      expect(res.status, type).toBe(200);
      expect(res.json.data, type).toMatchObject({ isValid: true, standard: expected[type] ?? 'hl7' });
    }
  });

  it('say above the operations what to create first, and link the other bases and the README', async () => {
    const population = (await wb.call('population', { path: '/openapi.json' })).json.info.description as string;
    expect(population).toContain('`/api/population/generate/{...}` names what `POST /api/population/generate` creates');
    expect(population).toContain(`[bridge](${wb.urls.bridge}/docs)`);
    expect(population).toContain(`[monitor](${wb.urls.monitor}/docs)`);
    expect(population).toContain('[README](/docs/README.md)');
    const bridge = (await wb.call('bridge', { path: '/openapi.json' })).json.info.description as string;
    expect(bridge).toContain('nothing needs creating first');
    const readme = await wb.call('bridge', { path: '/docs/README.md' });
    expect(readme.status).toBe(200);
    expect(readme.text).toContain('# Healthcare Integration Workbench');
  });
});
