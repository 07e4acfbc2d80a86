/**
 * The R4 core invariants the structural validation leaves out, through the real bridge: those of data types wherever
 * the type is used (per-1 on a Period, qty-3 on a Quantity, ref-1 on a Reference), the error invariants it skips
 * (dom-3, org-1), `warning` invariants as warnings in both modes (nor-1, vsd-0), each named by its key at its place;
 * and the valid form of each passes without that finding.
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation, type ValidationFinding } from '../helpers/bridge-validation.ts';

const bridge = bridgeValidation();

function validate(resource: unknown, mode: 'strict' | 'compatibility' = 'strict') {
  return bridge.validate({ messageContent: resource, standard: 'fhir', mode });
}

const failing = (issues: ValidationFinding[], key: string): string[] => issues.filter((i) => i.message.includes(`invariant ${key}:`)).map((i) => i.field);

const NARRATIVE = { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">An example</div>' };

const cases: Array<{ key: string; severity: 'error' | 'warning'; invalid: unknown; at: string; valid: unknown }> = [
  {
    key: 'per-1',
    severity: 'error',
    invalid: { resourceType: 'Patient', name: [{ family: 'Chalmers', period: { start: '2020-01-02', end: '2020-01-01' } }] },
    at: 'Patient.name[0].period',
    valid: { resourceType: 'Patient', name: [{ family: 'Chalmers', period: { start: '2020-01-01', end: '2020-01-02' } }] },
  },
  {
    key: 'qty-3',
    severity: 'error',
    invalid: { resourceType: 'Observation', status: 'final', code: { text: 'Body weight' }, valueQuantity: { value: 72, code: 'kg' } },
    at: 'Observation.valueQuantity',
    valid: { resourceType: 'Observation', status: 'final', code: { text: 'Body weight' }, valueQuantity: { value: 72, code: 'kg', system: 'http://unitsofmeasure.org' } },
  },
  {
    key: 'ref-1',
    severity: 'error',
    invalid: { resourceType: 'Patient', generalPractitioner: [{ reference: '#gp' }] },
    at: 'Patient.generalPractitioner[0]',
    valid: { resourceType: 'Patient', contained: [{ resourceType: 'Practitioner', id: 'gp', name: [{ family: 'Careful' }] }], generalPractitioner: [{ reference: '#gp' }] },
  },
  {
    key: 'dom-3',
    severity: 'error',
    invalid: { resourceType: 'Patient', contained: [{ resourceType: 'Organization', id: 'org', name: 'Clinic' }] },
    at: 'Patient',
    valid: { resourceType: 'Patient', contained: [{ resourceType: 'Organization', id: 'org', name: 'Clinic' }], managingOrganization: { reference: '#org' } },
  },
  {
    key: 'org-1',
    severity: 'error',
    invalid: { resourceType: 'Organization', active: true },
    at: 'Organization',
    valid: { resourceType: 'Organization', active: true, name: 'Health Level Seven International' },
  },
  {
    key: 'nor-1',
    severity: 'warning',
    invalid: { resourceType: 'NutritionOrder', status: 'active', intent: 'order', patient: { reference: 'Patient/example' }, dateTime: '2024-01-01' },
    at: 'NutritionOrder',
    valid: { resourceType: 'NutritionOrder', status: 'active', intent: 'order', patient: { reference: 'Patient/example' }, dateTime: '2024-01-01', oralDiet: { type: [{ text: 'Regular diet' }] } },
  },
  {
    key: 'vsd-0',
    severity: 'warning',
    invalid: { resourceType: 'ValueSet', status: 'draft', name: 'lower case name', text: NARRATIVE },
    at: 'ValueSet',
    valid: { resourceType: 'ValueSet', status: 'draft', name: 'UpperCamelName', text: NARRATIVE },
  },
];

describe('core invariants the structural validation leaves out', () => {
  for (const example of cases.filter((entry) => entry.severity === 'error')) {
    it(`${example.key}: reported as an error in strict mode at its place, and the valid form passes`, async () => {
      const strict = await validate(example.invalid, 'strict');
      const compatibility = await validate(example.invalid, 'compatibility');
      expect(failing(strict.errors, example.key)).toEqual([example.at]);
      expect(strict.isValid).toBe(false);
      expect(failing(compatibility.warnings, example.key)).toEqual([example.at]);
      const valid = await validate(example.valid, 'strict');
      expect(failing([...valid.errors, ...valid.warnings], example.key)).toEqual([]);
    });
  }
  for (const example of cases.filter((entry) => entry.severity === 'warning')) {
    it(`${example.key}: reported as a warning in both modes at its place, and the valid form passes`, async () => {
      const strict = await validate(example.invalid, 'strict');
      const compatibility = await validate(example.invalid, 'compatibility');
      expect(failing(strict.warnings, example.key)).toEqual([example.at]);
      expect(failing(compatibility.warnings, example.key)).toEqual([example.at]);
      expect(failing(strict.errors, example.key)).toEqual([]);
      const valid = await validate(example.valid, 'strict');
      expect(failing([...valid.errors, ...valid.warnings], example.key)).toEqual([]);
    });
  }

  it('evaluates a data type invariant inside a Bundle entry and a contained resource', async () => {
    const period = { start: '2021-06-02', end: '2021-06-01' };
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: 'urn:uuid:8f7b4a52-5a1f-4d41-9d0e-1f0b0c2d3e4f',
          resource: { resourceType: 'Encounter', status: 'finished', class: { code: 'AMB' }, period, contained: [{ resourceType: 'Location', id: 'loc', name: 'Ward', operationalStatus: { code: 'O' } }], location: [{ location: { reference: '#loc' }, period }] },
        },
      ],
    };
    const result = await validate(bundle);
    expect(failing(result.errors, 'per-1').sort()).toEqual(['Bundle.entry[0].resource.location[0].period', 'Bundle.entry[0].resource.period']);
  });

  it('counts a contained resource shown only by the narrative as referred to (dom-3)', async () => {
    const patient = (div: string) => ({
      resourceType: 'Patient',
      text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${div}</div>` },
      contained: [{ resourceType: 'Binary', id: 'photo', contentType: 'image/png', data: 'aGVsbG8=' }],
    });
    expect(failing((await validate(patient('<img src="#photo" alt="photo"/>'))).errors, 'dom-3')).toEqual([]);
    expect(failing((await validate(patient('<a href="#photo">photo</a>'))).errors, 'dom-3')).toEqual([]);
    expect(failing((await validate(patient('<img src="#other" alt="photo"/>'))).errors, 'dom-3')).toEqual(['Patient']);
    const composition = {
      resourceType: 'Composition',
      text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Report</div>' },
      contained: [{ resourceType: 'Binary', id: 'scan', contentType: 'image/png', data: 'aGVsbG8=' }],
      status: 'final',
      type: { text: 'report' },
      date: '2024-01-01',
      author: [{ display: 'Dr Careful' }],
      title: 'Report',
      section: [{ title: 'Scan', text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml"><img src="#scan" alt="scan"/></div>' } }],
    };
    expect(failing((await validate(composition)).errors, 'dom-3')).toEqual([]);
  });

  it('reports a failed invariant once, however many engines see it (ext-1)', async () => {
    const result = await validate({ resourceType: 'Patient', extension: [{ url: 'http://example.org/fhir/StructureDefinition/empty' }] });
    expect(failing(result.errors, 'ext-1')).toEqual(['Patient.extension[0]']);
  });
});

describe('rules of data types beside the invariants', () => {
  it('refuses a code its complete core code system does not have, whatever the binding', async () => {
    const wrong = await validate({ resourceType: 'Patient', maritalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus', code: 'ZZZ' }] } });
    expect(wrong.errors.filter((e) => e.code === 'CODE_NOT_IN_CODE_SYSTEM').map((e) => e.field)).toEqual(['Patient.maritalStatus.coding[0].code']);
    const right = await validate({ resourceType: 'Patient', maritalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus', code: 'M' }] } });
    expect(right.errors).toEqual([]);
  });

  it('refuses a value set URL used as a code system', async () => {
    const result = await validate({ resourceType: 'Patient', maritalStatus: { coding: [{ system: 'http://hl7.org/fhir/ValueSet/marital-status', code: 'M' }] } });
    expect(result.errors.map((e) => e.field)).toContain('Patient.maritalStatus.coding[0].system');
  });

  it('checks an attachment size and hash against its data, and accepts base64 wrapped with whitespace', async () => {
    const data = 'aGVs bG8=';
    const attachment = (extra: Record<string, unknown>) => ({ resourceType: 'DocumentReference', status: 'current', content: [{ attachment: { contentType: 'text/plain', data, ...extra } }] });
    const sound = await validate(attachment({ size: 5, hash: 'qvTGHdzF6KLavt4PO0gs2a6pQ00=' }));
    expect(sound.errors).toEqual([]);
    const wrong = await validate(attachment({ size: 99, hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' }));
    expect(wrong.errors.map((e) => e.field).sort()).toEqual(['DocumentReference.content[0].attachment.hash', 'DocumentReference.content[0].attachment.size']);
  });
});

describe('rules of a resource beside its invariants', () => {
  it('requires two or more components of a composite SearchParameter', async () => {
    const component = (n: number) => ({ definition: `http://hl7.org/fhir/SearchParameter/Observation-code${n}`, expression: 'code' });
    const parameter = (components: unknown[]) => ({
      resourceType: 'SearchParameter',
      url: 'http://example.org/fhir/SearchParameter/code-value',
      name: 'code-value',
      status: 'draft',
      description: 'Code and value',
      code: 'code-value',
      base: ['Observation'],
      type: 'composite',
      expression: 'Observation',
      component: components,
    });
    const two = await validate(parameter([component(1), component(2)]));
    expect(two.errors.filter((e) => e.field === 'SearchParameter.component')).toEqual([]);
    const one = await validate(parameter([component(1)]));
    expect(one.errors.map((e) => e.field)).toContain('SearchParameter.component');
  });
});
