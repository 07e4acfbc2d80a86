// The field lookup through HTTP (GET /api/lookup on the bridge and monitor bases) and the CLI (`workbench lookup`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { runCli } from '../helpers/cli-process.ts';
import fc from 'fast-check';
import { resolveService } from '../../kernel/service-ref.ts';
import { TOKENS } from '../../kernel/tokens.ts';
import { WorkbenchError } from '../../kernel/errors.ts';
import { lookUpField } from '../../plugins/message-bridge/field-lookup.ts';

let wb: TestWorkbench;
const dir = mkdtempSync(join(tmpdir(), 'wb-lookup-'));

beforeAll(async () => {
  wb = await startTestWorkbench();
});
afterAll(async () => {
  await wb.stop();
  rmSync(dir, { recursive: true, force: true });
});

const lookup = (query: Record<string, string>, base: 'bridge' | 'monitor' = 'bridge') =>
  wb.call(base, { path: `/api/lookup?${new URLSearchParams(query)}` });

describe('GET /api/lookup', () => {
  it('names an HL7 field with its table codes, bounded, and its data type\'s components', async () => {
    const res = await lookup({ standard: 'hl7', path: 'PID.8', version: '2.5.1', maxCodes: '2' });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data).toMatchObject({ standard: 'hl7', version: '2.5.1', path: 'PID.8', name: 'Administrative Sex', table: '0001', tableName: 'Administrative Sex' });
    expect(data.codes).toHaveLength(2);
    expect(data.codeTotal).toBeGreaterThan(2);
    const name = (await lookup({ standard: 'hl7', path: 'PID.5', version: '2.5.1' })).json.data;
    expect(name).toMatchObject({ name: 'Patient Name', dataType: 'XPN', optionality: 'required', cardinality: '1..*', repeatable: true });
    expect(name.children[0]).toMatchObject({ path: 'PID.5.1', name: 'Family Name' });
    const segment = (await lookup({ standard: 'hl7', path: 'MSH' })).json.data;
    expect(segment.children.find((c: { path: string }) => c.path === 'MSH.10').name).toBe('Message Control ID');
  });

  it('answers on the monitor base alike', async () => {
    const res = await lookup({ path: 'PID.5', version: '2.5.1', standard: 'hl7' }, 'monitor');
    expect(res.status).toBe(200);
    expect(res.json.data.name).toBe('Patient Name');
  });

  it('finds the standard from the path when none is named', async () => {
    expect((await lookup({ path: 'PID.5.7', version: '2.5.1' })).json.data).toMatchObject({ standard: 'hl7', table: '0200' });
    const gender = (await lookup({ path: 'Patient.gender' })).json.data;
    expect(gender.standard).toBe('fhir');
    expect(gender.codes.map((c: { code: string }) => c.code).sort()).toEqual(['female', 'male', 'other', 'unknown']);
    expect(gender.codeTotal).toBe(4);
    const claim = (await lookup({ path: 'AM07.D2' })).json.data;
    expect(claim).toMatchObject({ standard: 'ncpdp', maxLength: 12 });
  });

  it('lists a FHIR element\'s child elements and a SCRIPT element\'s children', async () => {
    const name = (await lookup({ standard: 'fhir', path: 'Patient.name' })).json.data;
    expect(name).toMatchObject({ dataType: 'HumanName', cardinality: '0..*' });
    expect(name.children.map((c: { path: string }) => c.path)).toContain('Patient.name.family');
    const patient = (await lookup({ standard: 'ncpdp', path: 'NewRx.Patient.HumanPatient' })).json.data;
    expect(patient.children.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining(['NewRx.Patient.HumanPatient.Gender', 'NewRx.Patient.HumanPatient.DateOfBirth']),
    );
    const gender = (await lookup({ standard: 'ncpdp', path: 'NewRx.Patient.HumanPatient.Gender', version: '2023011' })).json.data;
    expect(gender.codes.map((c: { code: string }) => c.code)).toContain('X');
  });

  it('refuses a badly written path with 400 naming it, and answers 404 for an unknown field', async () => {
    const bad = await lookup({ standard: 'hl7', path: 'PID..5' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('VALIDATION_FAILED');
    expect(bad.json.error.message).toContain('PID..5');
    const nowhere = await lookup({ path: '%%%' });
    expect(nowhere.status).toBe(400);
    expect(nowhere.json.error.message).toContain('not a path of any registered standard');
    const unknown = await lookup({ standard: 'hl7', path: 'PID.99' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    expect(unknown.json.error.message).toContain('PID.99');
    expect((await lookup({ standard: 'fhir', path: 'Patient.nope' })).status).toBe(404);
    expect((await lookup({ standard: 'nope', path: 'PID.5' })).json.error.code).toBe('UNKNOWN_STANDARD');
    expect((await lookup({ standard: 'hl7', path: 'PID.5', version: '9.9' })).status).toBe(400);
    const badVersion = await lookup({ path: 'PID.5', version: '9.9' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.json.error.message).toContain('9.9');
    expect((await lookup({ path: 'PID.5', maxCodes: '100000' })).status).toBe(400);
    expect((await lookup({ path: '' })).status).toBe(400);
  });

  it('answers a well-written unknown path with found: false when asked to (missing=answer), and still refuses bad ones', async () => {
    const known = await lookup({ standard: 'hl7', path: 'PID.5', missing: 'answer' });
    expect(known.status).toBe(200);
    expect(known.json.data).toMatchObject({ found: true, name: 'Patient Name' });
    expect((await lookup({ standard: 'hl7', path: 'PID.5' })).json.data.found).toBe(true);
    for (const [standard, path] of [['hl7', 'ZPI.2'], ['hl7', 'PID.99'], ['fhir', 'Patient.nickname']] as const) {
      const missing = await lookup({ standard, path, missing: 'answer' }, 'monitor');
      expect(missing.status, path).toBe(200);
      expect(missing.json.data).toEqual({ found: false, path, standard, version: null, message: expect.stringContaining(path) });
    }
    const anywhere = await lookup({ path: 'Patient.nickname', missing: 'answer' });
    expect(anywhere.json.data).toMatchObject({ found: false, standard: null });
    expect((await lookup({ standard: 'hl7', path: 'PID..5', missing: 'answer' })).status).toBe(400);
    expect((await lookup({ standard: 'hl7', path: 'PID.5', version: '9.9', missing: 'answer' })).status).toBe(400);
    const wrong = await lookup({ standard: 'hl7', path: 'PID.5', missing: 'maybe' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toContain('missing');
  });
});

describe('lookUpField over any text', () => {
  // path-like text: the pieces of every standard's syntax in any order, and plain noise
  const pieces = ['PID', 'MSH', 'ZZZ', 'OBX', '5', '1', '99', '0', '.', '-', '[2]', '[x]', '[', '@', 'Patient', 'name', 'value[x]', 'valueQuantity', 'AM07', 'D2', 'Header', 'A3', 'NewRx', 'Gender', ' ', ''];
  const pathLike = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((parts) => parts.join(''));

  it('answers a description with at most maxCodes codes, a 400 or a 404, never anything else', () => {
    const standards = resolveService(wb.workbench.container, TOKENS.Standards);
    fc.assert(
      fc.property(fc.oneof(pathLike, fc.string({ maxLength: 40 })), fc.constantFrom(undefined, 'hl7', 'fhir', 'ncpdp'), fc.nat(4), (path, standard, maxCodes) => {
        let found: ReturnType<typeof lookUpField> | undefined;
        let refused: unknown;
        try {
          found = lookUpField(standards, { path, maxCodes, ...(standard ? { standard } : {}) });
        } catch (error) {
          refused = error instanceof WorkbenchError ? error.status : error;
        }
        // a description, or a refusal with 400 or 404 and nothing else
        expect([undefined, 400, 404]).toContain(refused);
        expect(found?.codes?.length ?? 0).toBeLessThanOrEqual(maxCodes);
        expect(found?.standard).toBe(found ? (standard ?? found.standard) : undefined);
      }),
      { numRuns: 400 },
    );
  });
});

describe('workbench lookup', () => {
  const workbench = (...args: string[]) => runCli(join(dir, 'data'), ...args);

  it('prints the field, exits 1 for an unknown one and 2 for a bad path', () => {
    const found = workbench('lookup', 'PID.8', '--version', '2.5.1', '--codes', '3');
    expect(found.code).toBe(0);
    expect(found.out).toMatch(/PID\.8\s+Administrative Sex/);
    expect(found.out).toMatch(/codes \(3 of \d+\)/);
    const json = JSON.parse(workbench('lookup', 'Patient.birthDate', '--standard', 'fhir', '--json').out);
    expect(json).toMatchObject({ standard: 'fhir', dataType: 'date', cardinality: '0..1' });
    const unknown = workbench('lookup', 'ZZZ.5', '--standard', 'hl7');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('ZZZ.5');
    const bad = workbench('lookup', 'PID..5', '--standard', 'hl7');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('PID..5');
  });
});
