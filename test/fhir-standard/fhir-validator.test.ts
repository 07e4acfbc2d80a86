import { describe, expect, it } from 'vitest';
import { json, patient, testAdapter } from './fhir-fixtures.ts';

const validate = (resource: unknown, mode: 'strict' | 'compatibility' = 'strict') =>
  testAdapter().validate(typeof resource === 'string' ? resource : json(resource), { mode });

const codes = (issues: Array<{ field: string; code: string }>) => issues.map((i) => `${i.code} ${i.field}`);

describe('FHIR validation: structure (via @medplum/core)', () => {
  it('accepts a valid Patient', () => {
    const result = validate(patient());
    expect(result).toMatchObject({ isValid: true, errors: [], warnings: [] });
    expect(result.summary).toMatchObject({ resourceType: 'Patient', version: '4.0.1', format: 'json' });
  });

  it('names a missing required element with REQUIRED_FIELD_MISSING and a sentence', () => {
    const result = validate({ resourceType: 'Observation', code: { text: 'x' } });
    expect(codes(result.errors)).toEqual(['REQUIRED_FIELD_MISSING Observation.status']);
    expect(result.errors[0].message).toMatch(/^Observation\.status .* is required but missing\.$/);
  });

  it('reports unknown elements: error in strict, warning in compatibility', () => {
    const resource = patient({ favouriteColour: 'blue' });
    expect(codes(validate(resource).errors)).toEqual(['UNKNOWN_ELEMENT Patient.favouriteColour']);
    const compat = validate(resource, 'compatibility');
    expect(compat.isValid).toBe(true);
    expect(codes(compat.warnings)).toEqual(['UNKNOWN_ELEMENT Patient.favouriteColour']);
  });

  it('reports wrong JSON types and malformed dates as errors in both modes', () => {
    const resource = patient({ active: 'yes', birthDate: '1980-13-01', name: { family: 'X' } });
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validate(resource, mode);
      expect(codes(result.errors).sort()).toEqual(['INVALID_DATA_TYPE Patient.active', 'INVALID_DATA_TYPE Patient.name', 'INVALID_DATE Patient.birthDate']);
    }
  });

  it('reports a failed invariant with its key (pat-1) and names a choice element by its real name', () => {
    const result = validate(patient({ contact: [{ gender: 'male' }] }));
    expect(codes(result.errors)).toEqual(['CONSTRAINT_FAILED Patient.contact[0]']);
    expect(result.errors[0].message).toMatch(/pat-1/);
    const observation = validate({ resourceType: 'Observation', status: 'final', code: { text: 'x' }, valueQuantity: { value: 'heavy' } });
    expect(codes(observation.errors)).toEqual(['INVALID_DATA_TYPE Observation.valueQuantity.value']);
  });

  it('reports too many values of a single-valued element', () => {
    const result = validate({ resourceType: 'Patient', gender: ['male', 'female'] });
    expect(result.errors[0]).toMatchObject({ field: 'Patient.gender', code: 'INVALID_DATA_TYPE' });
  });
});

describe('FHIR validation: bindings', () => {
  it('fails a code outside a required value set (Patient.gender "mle")', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = validate(patient({ gender: 'mle' }), mode);
      expect(result.isValid).toBe(false);
      expect(result.errors).toEqual([
        expect.objectContaining({ field: 'Patient.gender', code: 'VALUE_NOT_IN_VALUE_SET', severity: 'error' }),
      ]);
      expect(result.errors[0].message).toMatch(/administrative-gender; allowed: male, female, other, unknown/);
    }
  });

  it('checks required bindings on Coding and CodeableConcept by system and code', () => {
    const condition = {
      resourceType: 'Condition',
      subject: { reference: 'Patient/1' },
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'finished' }] },
    };
    // Both, as HL7's validator says: the code is outside the bound set, and not a code of its (complete) code system.
    expect(codes(validate(condition).errors)).toEqual([
      'VALUE_NOT_IN_VALUE_SET Condition.clinicalStatus',
      'CODE_NOT_IN_CODE_SYSTEM Condition.clinicalStatus.coding[0].code',
    ]);
    const fixed = { ...condition, clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] } };
    expect(validate(fixed).errors).toEqual([]);
  });

  it('checks bindings of nested elements, e.g. Bundle entries and contained resources', () => {
    const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:7f3c1d2e-0000-4000-8000-000000000001', resource: patient({ gender: 'M' }) }] };
    expect(codes(validate(bundle).errors)).toEqual(['VALUE_NOT_IN_VALUE_SET Bundle.entry[0].resource.gender']);
  });

  it('warns (never fails) a code outside an extensible value set', () => {
    const resource = patient({ maritalStatus: { coding: [{ system: 'http://example.org/marital', code: 'X' }] } });
    const result = validate(resource);
    expect(result.isValid).toBe(true);
    expect(codes(result.warnings)).toEqual(['VALUE_NOT_IN_VALUE_SET Patient.maritalStatus']);
  });
});

describe('FHIR validation: references and Bundle rules', () => {
  it('flags a reference to a resource type the element does not allow', () => {
    const result = validate(patient({ managingOrganization: { reference: 'Practitioner/1' } }));
    expect(codes(result.errors)).toEqual(['INVALID_REFERENCE Patient.managingOrganization.reference']);
    expect(validate(patient({ managingOrganization: { reference: 'https://example.org/fhir/Organization/1' } })).errors).toEqual([]);
  });

  it('requires entry.request in a transaction and refuses it in a collection', () => {
    const entry = { fullUrl: 'urn:uuid:7f3c1d2e-0000-4000-8000-000000000001', resource: patient() };
    expect(codes(validate({ resourceType: 'Bundle', type: 'transaction', entry: [entry] }).errors)).toEqual([
      'REQUIRED_FIELD_MISSING Bundle.entry[0].request',
    ]);
    const collection = { resourceType: 'Bundle', type: 'collection', entry: [{ ...entry, request: { method: 'POST', url: 'Patient' } }] };
    expect(codes(validate(collection).errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[0].request']);
  });

  it('requires entry.response in a batch-response', () => {
    const result = validate({ resourceType: 'Bundle', type: 'batch-response', entry: [{ resource: patient() }] });
    expect(codes(result.errors)).toEqual(['REQUIRED_FIELD_MISSING Bundle.entry[0].response']);
  });

  it('flags duplicate fullUrls, and warns about an unresolved urn:uuid reference outside a document\'s Composition', () => {
    const url = 'urn:uuid:7f3c1d2e-0000-4000-8000-000000000001';
    const result = validate({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { fullUrl: url, resource: patient(), request: { method: 'POST', url: 'Patient' } },
        { fullUrl: url, resource: patient(), request: { method: 'POST', url: 'Patient' } },
        {
          fullUrl: 'urn:uuid:7f3c1d2e-0000-4000-8000-000000000002',
          resource: { resourceType: 'Observation', status: 'final', code: { text: 'x' }, subject: { reference: 'urn:uuid:7f3c1d2e-0000-4000-8000-00000000dead' } },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    });
    // R4 (and HL7's validator): a urn: no entry carries may name a resource the sender keeps apart.
    expect(codes(result.errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[1].fullUrl']);
    expect(codes(result.warnings)).toContain('INVALID_REFERENCE Bundle.entry[2].resource.subject.reference');
    // A document's Composition is its table of contents: what it names must be in the Bundle.
    const document = validate({
      resourceType: 'Bundle',
      identifier: { system: 'urn:ietf:rfc:3986', value: 'urn:uuid:7f3c1d2e-0000-4000-8000-0000000000d0' },
      type: 'document',
      timestamp: '2013-05-28T22:12:21Z',
      entry: [
        {
          fullUrl: 'urn:uuid:7f3c1d2e-0000-4000-8000-000000000003',
          resource: {
            resourceType: 'Composition',
            status: 'final',
            type: { coding: [{ system: 'http://loinc.org', code: '28655-9' }] },
            subject: { reference: 'urn:uuid:7f3c1d2e-0000-4000-8000-00000000dead' },
            date: '2013-02-01T12:30:02Z',
            author: [{ display: 'Dr. Careful' }],
            title: 'Discharge Summary',
          },
        },
      ],
    });
    expect(codes(document.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.subject.reference']);
  });

  it('warns about relative references that do not resolve in a document-like Bundle, and about searchset entries without search', () => {
    const collection = validate({ resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'https://example.org/fhir/Patient/1', resource: patient({ id: '1', managingOrganization: { reference: 'Organization/9' } }) }] });
    expect(codes(collection.warnings)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.managingOrganization.reference']);
    const searchset = validate({ resourceType: 'Bundle', type: 'searchset', entry: [{ fullUrl: 'https://example.org/fhir/Patient/1', resource: patient({ id: '1' }) }] });
    expect(codes(searchset.warnings)).toEqual(['RECOMMENDED_FIELD_EMPTY Bundle.entry[0].search']);
  });

  it('names an unknown nested resource type instead of failing', () => {
    const result = validate({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'Nonsense' } }] });
    expect(result.isValid).toBe(false);
    expect(codes(result.errors)).toContain('NOT_FHIR_RESOURCE Bundle.entry[0].resource');
  });
});

describe('FHIR validation: requests', () => {
  it('accepts R4 aliases and refuses other versions with UNSUPPORTED_VERSION', () => {
    expect(testAdapter().validate(json(patient()), { mode: 'strict', version: 'R4' }).isValid).toBe(true);
    expect(() => testAdapter().validate(json(patient()), { mode: 'strict', version: '5.0.0' })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_VERSION', status: 400 }),
    );
  });

  it('describes a path from the element definitions', () => {
    expect(testAdapter().describe('Patient.gender')).toMatchObject({
      name: 'Patient.gender',
      dataType: 'code',
      optionality: '0..1',
      table: 'http://hl7.org/fhir/ValueSet/administrative-gender (required)',
    });
    expect(testAdapter().describe('Patient.name[0].given')).toMatchObject({ name: 'HumanName.given', repeatable: true, optionality: '0..*' });
    expect(testAdapter().describe('Observation.valueQuantity')).toMatchObject({ name: 'Observation.value[x]', dataType: 'Quantity' });
    expect(testAdapter().describe('Patient.nope')).toBeUndefined();
  });
});
