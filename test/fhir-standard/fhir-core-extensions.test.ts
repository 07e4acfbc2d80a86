/**
 * Extensions FHIR R4 defines, through the real bridge: each is checked against its definition (context, value type,
 * the parts of a complex extension), an unknown one in FHIR's own namespace is an error, and every extension's url
 * must be absolute. An extension of another namespace is not checked but named by an EXTENSION_UNKNOWN warning (an
 * error in both modes for a modifierExtension), once per URL per resource.
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation } from '../helpers/bridge-validation.ts';

const bridge = bridgeValidation();

async function errorsOf(resource: unknown): Promise<string[]> {
  const data = await bridge.validate({ messageContent: resource, standard: 'fhir', mode: 'strict' });
  return data.errors.map((issue) => `${issue.code} ${issue.field}`);
}

const CORE = 'http://hl7.org/fhir/StructureDefinition/';

describe('core extensions', () => {
  it('accepts a core extension used as defined', async () => {
    expect(await errorsOf({ resourceType: 'Patient', extension: [{ url: `${CORE}patient-birthPlace`, valueAddress: { city: 'Paris' } }] })).toEqual([]);
    expect(
      await errorsOf({ resourceType: 'Patient', extension: [{ url: `${CORE}patient-nationality`, extension: [{ url: 'code', valueCodeableConcept: { text: 'FR' } }] }] }),
    ).toEqual([]);
  });

  it('warns about an unknown extension of another namespace in both modes, and errs on an unknown core one in strict', async () => {
    const shoeSize = (url: string) => ({ resourceType: 'Patient', extension: [{ url, valueDecimal: 42 }], address: [{ extension: [{ url: 'http://example.org/fhir/StructureDefinition/geo', valueString: 'x' }], city: 'Paris' }] });
    for (const mode of ['strict', 'compatibility']) {
      const data = await bridge.validate({ messageContent: shoeSize('http://example.org/fhir/StructureDefinition/shoe-size'), standard: 'fhir', mode });
      expect(data.errors, mode).toEqual([]);
      expect(data.warnings.map((issue) => `${issue.severity} ${issue.code} ${issue.field}`), mode).toEqual([
        'warning EXTENSION_UNKNOWN Patient.extension[0].url',
        'warning EXTENSION_UNKNOWN Patient.address[0].extension[0].url',
      ]);
      expect(data.warnings[0]?.message).toContain('http://example.org/fhir/StructureDefinition/shoe-size');
    }
    const core = await bridge.validate({ messageContent: shoeSize(`${CORE}patient-shoeSize`), standard: 'fhir', mode: 'strict' });
    expect(core.errors.map((issue) => `${issue.code} ${issue.field}`)).toEqual(['UNKNOWN_ELEMENT Patient.extension[0].url']);
  });

  it('errs on an unknown modifier extension of another namespace in both modes', async () => {
    const patient = {
      resourceType: 'Patient',
      modifierExtension: [{ url: 'http://example.org/fhir/StructureDefinition/not-really', valueBoolean: true }],
      extension: [{ url: 'http://example.org/fhir/StructureDefinition/shoe-size', valueDecimal: 42 }],
    };
    for (const mode of ['strict', 'compatibility']) {
      const data = await bridge.validate({ messageContent: patient, standard: 'fhir', mode });
      expect(data.errors.map((issue) => `${issue.code} ${issue.field}`), mode).toEqual(['EXTENSION_UNKNOWN Patient.modifierExtension[0].url']);
      expect(data.errors[0]?.message, mode).toContain('must not be ignored');
      expect(data.warnings.map((issue) => `${issue.code} ${issue.field}`), mode).toEqual(['EXTENSION_UNKNOWN Patient.extension[0].url']);
    }
  });

  it('names an unknown extension once per url and resource, counting the others', async () => {
    const stamp = (url: string) => ({ url, valueString: 'x' });
    const A = 'http://example.org/fhir/StructureDefinition/a';
    const B = 'http://example.org/fhir/StructureDefinition/b';
    const patient = (id: string) => ({
      resourceType: 'Patient',
      id,
      extension: [stamp(A), stamp(B)],
      name: [{ extension: [stamp(A)], family: 'Doe' }, { extension: [stamp(A)], family: 'Roe' }],
    });
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:uuid:0c3b1e4a-52a5-4b6e-9a4f-2f0b7b1f0a01', resource: patient('p1') },
        { fullUrl: 'urn:uuid:0c3b1e4a-52a5-4b6e-9a4f-2f0b7b1f0a02', resource: patient('p2') },
      ],
    };
    for (const mode of ['strict', 'compatibility']) {
      const data = await bridge.validate({ messageContent: bundle, standard: 'fhir', mode });
      const unknown = data.warnings.filter((issue) => issue.code === 'EXTENSION_UNKNOWN');
      expect(unknown.map((issue) => issue.field), mode).toEqual([
        'Bundle.entry[0].resource.extension[0].url',
        'Bundle.entry[0].resource.extension[1].url',
        'Bundle.entry[1].resource.extension[0].url',
        'Bundle.entry[1].resource.extension[1].url',
      ]);
      expect(unknown[0]?.message, mode).toMatch(/\/a, .*\(and 2 more in this resource\)$/);
      expect(unknown[1]?.message, mode).not.toContain('more in this resource');
      expect(unknown[2]?.message, mode).toContain('(and 2 more in this resource)');
    }
  });

  it('refuses a relative url, an unknown core extension, a wrong value type and a wrong place', async () => {
    expect(await errorsOf({ resourceType: 'Patient', extension: [{ url: 'shoe-size', valueString: '42' }] })).toEqual(['INVALID_DATA_TYPE Patient.extension[0].url']);
    expect(await errorsOf({ resourceType: 'Patient', extension: [{ url: `${CORE}patient-shoeSize`, valueString: '42' }] })).toEqual(['UNKNOWN_ELEMENT Patient.extension[0].url']);
    expect(await errorsOf({ resourceType: 'Patient', extension: [{ url: `${CORE}patient-birthPlace`, valueString: 'Paris' }] })).toEqual([
      'INVALID_DATA_TYPE Patient.extension[0].valueString',
    ]);
    const misplaced = { resourceType: 'Observation', status: 'final', code: { text: 'Weight' }, extension: [{ url: `${CORE}patient-birthPlace`, valueAddress: { city: 'Paris' } }] };
    expect(await errorsOf(misplaced)).toEqual(['CONSTRAINT_FAILED Observation.extension[0]']);
  });

  it('checks the parts of a complex extension', async () => {
    const nationality = {
      resourceType: 'Patient',
      extension: [{ url: `${CORE}patient-nationality`, extension: [{ url: 'citizenship', valueString: 'FR' }, { url: 'code', valueString: 'FR' }, { url: 'code', valueCodeableConcept: { text: 'BE' } }] }],
    };
    expect((await errorsOf(nationality)).sort()).toEqual([
      'INVALID_DATA_TYPE Patient.extension[0].extension[1].valueString',
      'TOO_MANY_REPETITIONS Patient.extension[0]',
      'UNKNOWN_ELEMENT Patient.extension[0].extension[0].url',
    ]);
  });
});

describe('cross-version extensions (versions.html#extensions)', () => {
  const animal = (parts: string[]) => ({
    resourceType: 'Patient',
    extension: [{ url: 'http://hl7.org/fhir/1.0/StructureDefinition/extension-Patient.animal', extension: parts.map((url) => ({ url, valueCodeableConcept: { text: 'Dog' } })) }],
  });

  it('accepts an element of the named version, a backbone one with parts named after its children', async () => {
    expect(await errorsOf(animal(['species', 'breed']))).toEqual([]);
    const value = { resourceType: 'Observation', status: 'final', code: { text: 'Weight' }, extension: [{ url: 'http://hl7.org/fhir/3.0/StructureDefinition/extension-Observation.value', valueString: 'heavy' }] };
    expect(await errorsOf(value)).toEqual([]);
  });

  it('refuses a part that is no child element, an element the version lacks, and a version without such extensions', async () => {
    expect(await errorsOf(animal(['species', 'x-breed']))).toEqual(['UNKNOWN_ELEMENT Patient.extension[0].extension[1].url']);
    const missing = { resourceType: 'Patient', extension: [{ url: 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Patient.animal', valueString: 'dog' }] };
    expect(await errorsOf(missing)).toEqual(['UNKNOWN_ELEMENT Patient.extension[0].url']);
    const version = { resourceType: 'Patient', extension: [{ url: 'http://hl7.org/fhir/2.0/StructureDefinition/extension-Patient.animal', valueString: 'dog' }] };
    expect(await errorsOf(version)).toEqual(['UNKNOWN_ELEMENT Patient.extension[0].url']);
  });
});
