/**
 * URIs R4 requires to be absolute, through the real bridge: those whose definition says "An absolute URI"
 * (ValueSet.url, CodeSystem.url, StructureDefinition.url, ValueSet.compose.include.system...) and Coding.system.
 * A relative one is an error in strict mode and a warning in compatibility mode; the R4 examples' forms pass.
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation } from '../helpers/bridge-validation.ts';

const bridge = bridgeValidation();

function validate(resource: unknown, mode: 'strict' | 'compatibility' = 'strict') {
  return bridge.validate({ messageContent: resource, standard: 'fhir', mode });
}

const NARRATIVE = { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">LOINC codes for cholesterol</div>' };

/** After R4's valueset-example (example-extensional), with its URLs replaceable. */
function valueSet(url: string, system: string) {
  return { resourceType: 'ValueSet', text: NARRATIVE, url, name: 'LOINCCodesForCholesterolInSerumPlasma', status: 'draft', compose: { include: [{ system, concept: [{ code: '14647-2' }] }] } };
}

describe('URIs that must be absolute', () => {
  it('accepts the R4 example value set, and urn:uuid: and urn:oid: identifiers', async () => {
    expect((await validate(valueSet('http://hl7.org/fhir/ValueSet/example-extensional', 'http://loinc.org'))).errors).toEqual([]);
    expect((await validate(valueSet('urn:uuid:5a1c3f42-0c6b-4b6e-8f52-2d4e1a9b7c30', 'urn:oid:2.16.840.1.113883.6.1'))).errors).toEqual([]);
  });

  it('refuses a relative ValueSet.url and compose.include.system, naming what was expected', async () => {
    const bundle = valueSet('ValueSet/example-extensional', 'loinc');
    const strict = await validate(bundle);
    expect(strict.errors.map((e) => `${e.code} ${e.field}`).sort()).toEqual(['INVALID_DATA_TYPE ValueSet.compose.include[0].system', 'INVALID_DATA_TYPE ValueSet.url']);
    expect(strict.errors[0]?.expected).toContain('an absolute URI');
    expect(strict.errors.map((e) => e.actual).sort()).toEqual(['ValueSet/example-extensional', 'loinc']);
    const compatibility = await validate(bundle, 'compatibility');
    expect(compatibility.errors).toEqual([]);
    expect(compatibility.warnings.map((w) => w.field).sort()).toEqual(['ValueSet.compose.include[0].system', 'ValueSet.url']);
  });

  it('refuses a relative CodeSystem.url and StructureDefinition.url', async () => {
    const codeSystem = await validate({ resourceType: 'CodeSystem', text: NARRATIVE, url: 'local-codes', status: 'draft', content: 'complete' });
    expect(codeSystem.errors.map((e) => e.field)).toEqual(['CodeSystem.url']);
    const profile = await validate({
      resourceType: 'StructureDefinition',
      text: NARRATIVE,
      url: 'MyPatient',
      name: 'MyPatient',
      status: 'draft',
      kind: 'resource',
      abstract: false,
      type: 'Patient',
      baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
      derivation: 'constraint',
      differential: { element: [{ id: 'Patient', path: 'Patient' }] },
    });
    expect(profile.errors.filter((e) => e.code === 'INVALID_DATA_TYPE').map((e) => e.field)).toEqual(['StructureDefinition.url']);
  });

  it('refuses a relative Coding.system wherever a Coding sits', async () => {
    const result = await validate({ resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'local-lab', code: 'GLU' }] } });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual(['INVALID_DATA_TYPE Observation.code.coding[0].system']);
    expect(result.errors[0]?.message).toContain('(Coding.system) "local-lab" is a relative uri');
  });
});
