/**
 * Rules of single resource types and of canonical URLs, through the real bridge, each from the R4 specification's own
 * text with a valid and an invalid form: a SearchParameter derived from a core one keeps its type and bases, its
 * expression starts from its bases; a CapabilityStatement's search parameter has the type of its definition; a
 * canonical is absolute or a `#fragment`; a Questionnaire item is not enabled by its own inner items; a
 * StructureDefinition's differential names choice types that exist and profiles of the type they constrain; core
 * extensions where R4's own definitions put them (contentReference elements, ElementDefinition.type).
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation } from '../helpers/bridge-validation.ts';

const bridge = bridgeValidation();

async function errorsOf(resource: unknown): Promise<string[]> {
  const data = await bridge.validate({ messageContent: resource, standard: 'fhir', mode: 'strict' });
  return data.errors.map((issue) => `${issue.code} ${issue.field}`);
}

const CORE = 'http://hl7.org/fhir/StructureDefinition/';

/** A SearchParameter as searchparameter.html shows one, derived from the core Organization-name (a string on Organization). */
function searchParameter(overrides: Record<string, unknown>) {
  return {
    resourceType: 'SearchParameter',
    url: 'http://example.org/fhir/SearchParameter/organization-name',
    name: 'OrganizationName',
    status: 'active',
    description: 'Organizations by name or alias',
    code: 'name',
    base: ['Organization'],
    type: 'string',
    expression: 'Organization.name | Organization.alias',
    derivedFrom: 'http://hl7.org/fhir/SearchParameter/Organization-name',
    ...overrides,
  };
}

describe('SearchParameter', () => {
  it('accepts a parameter derived from a core one with its type and base, and refuses another type', async () => {
    expect(await errorsOf(searchParameter({}))).toEqual([]);
    expect(await errorsOf(searchParameter({ type: 'token' }))).toEqual(['CONSTRAINT_FAILED SearchParameter.type']);
  });

  it('refuses a base the core parameter does not apply to, and an expression rooted outside the bases', async () => {
    expect(await errorsOf(searchParameter({ base: ['Patient'] }))).toEqual([
      'CONSTRAINT_FAILED SearchParameter.expression',
      'CONSTRAINT_FAILED SearchParameter.expression',
      'CONSTRAINT_FAILED SearchParameter.base[0]',
    ]);
    const own = searchParameter({ derivedFrom: undefined, base: ['Patient'], expression: 'Patient.name | (Patient.telecom.where(system = \'email\'))' });
    expect(await errorsOf(own)).toEqual([]);
    expect(await errorsOf({ ...own, expression: 'Patient.name | Practitioner.name' })).toEqual(['CONSTRAINT_FAILED SearchParameter.expression']);
  });
});

describe('CapabilityStatement', () => {
  const statement = (type: string) => ({
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2024-01-01',
    kind: 'instance',
    fhirVersion: '4.0.1',
    format: ['json'],
    implementation: { description: 'Test server' },
    rest: [{ mode: 'server', resource: [{ type: 'AllergyIntolerance', searchParam: [{ name: 'clinical-status', definition: 'http://hl7.org/fhir/SearchParameter/AllergyIntolerance-clinical-status', type }] }] }],
  });

  it('wants the type of a search parameter to be the type of the SearchParameter it names', async () => {
    expect(await errorsOf(statement('token'))).toEqual([]);
    expect(await errorsOf(statement('date'))).toEqual(['CONSTRAINT_FAILED CapabilityStatement.rest[0].resource[0].searchParam[0].type']);
  });

  it('leaves server-wide search parameters to the server, as R4\'s base CapabilityStatement types _source (uri) token', async () => {
    const source = { name: '_source', definition: 'http://hl7.org/fhir/SearchParameter/Resource-source', type: 'token' };
    const base = statement('token');
    const serverWide = { ...base, rest: [{ ...base.rest[0], searchParam: [source] }] };
    expect(await errorsOf(serverWide)).toEqual([]);
    const perResource = { ...base, rest: [{ mode: 'server', resource: [{ type: 'Patient', searchParam: [source] }] }] };
    expect(await errorsOf(perResource)).toEqual(['CONSTRAINT_FAILED CapabilityStatement.rest[0].resource[0].searchParam[0].type']);
  });
});

describe('canonical URLs', () => {
  const measure = (library: string) => ({ resourceType: 'Measure', status: 'draft', library: [library] });

  it('accepts an absolute canonical or a #fragment, and refuses a relative one (references.html#canonical)', async () => {
    expect(await errorsOf(measure('http://example.org/fhir/Library/cms146'))).toEqual([]);
    expect(await errorsOf({ ...measure('#lib'), contained: [{ resourceType: 'Library', id: 'lib', status: 'draft', type: { text: 'logic-library' } }] })).toEqual([]);
    expect(await errorsOf(measure('Library/library-cms146-example'))).toEqual(['INVALID_DATA_TYPE Measure.library[0]']);
  });
});

describe('Questionnaire enableWhen', () => {
  const questionnaire = (question: string) => ({
    resourceType: 'Questionnaire',
    status: 'draft',
    item: [
      { linkId: 'smoker', text: 'Do you smoke?', type: 'boolean' },
      {
        linkId: 'smoking',
        text: 'Smoking',
        type: 'group',
        enableWhen: [{ question, operator: '=', answerBoolean: true }],
        item: [{ linkId: 'per-day', text: 'Cigarettes per day', type: 'integer' }],
      },
    ],
  });

  it('accepts an item enabled by another question, and refuses one enabled by its own inner item', async () => {
    expect(await errorsOf(questionnaire('smoker'))).toEqual([]);
    expect(await errorsOf(questionnaire('per-day'))).toEqual(['CONSTRAINT_FAILED Questionnaire.item[1].enableWhen[0].question']);
  });
});

describe('StructureDefinition differential', () => {
  const profile = (element: Record<string, unknown>) => ({
    resourceType: 'StructureDefinition',
    url: 'http://example.org/fhir/StructureDefinition/weight',
    name: 'Weight',
    status: 'draft',
    kind: 'resource',
    abstract: false,
    type: 'Observation',
    baseDefinition: `${CORE}Observation`,
    derivation: 'constraint',
    differential: { element: [{ id: 'Observation.value[x]', ...element }] },
  });

  it('names a choice by value[x] or by one of its types, and nothing else', async () => {
    expect(await errorsOf(profile({ path: 'Observation.value[x]' }))).toEqual([]);
    expect(await errorsOf(profile({ path: 'Observation.valueQuantity' }))).toEqual([]);
    expect(await errorsOf(profile({ path: 'Observation.valueBla' }))).toEqual(['CONSTRAINT_FAILED StructureDefinition.differential.element[0].path']);
  });

  it('profiles a type with a profile of that type: SimpleQuantity on Quantity, not the type Count', async () => {
    expect(await errorsOf(profile({ path: 'Observation.valueQuantity', type: [{ code: 'Quantity', profile: [`${CORE}SimpleQuantity`] }] }))).toEqual([]);
    expect(await errorsOf(profile({ path: 'Observation.valueQuantity', type: [{ code: 'Quantity', profile: [`${CORE}Count`] }] }))).toEqual([
      'CONSTRAINT_FAILED StructureDefinition.differential.element[0].type[0].profile[0]',
    ]);
  });
});

describe('core extensions where R4 itself puts them', () => {
  it('accepts structuredefinition-fhir-type on ElementDefinition.type, as every R4 snapshot has it', async () => {
    const element = { id: 'Extension.url', path: 'Extension.url', type: [{ extension: [{ url: `${CORE}structuredefinition-fhir-type`, valueUrl: 'uri' }], code: 'http://hl7.org/fhirpath/System.String' }] };
    const definition = {
      resourceType: 'StructureDefinition',
      url: 'http://example.org/fhir/StructureDefinition/shoe-size',
      name: 'ShoeSize',
      status: 'draft',
      kind: 'complex-type',
      abstract: false,
      context: [{ type: 'element', expression: 'Patient' }],
      type: 'Extension',
      baseDefinition: `${CORE}Extension`,
      derivation: 'constraint',
      differential: { element: [{ id: 'Extension', path: 'Extension' }, element] },
    };
    expect(await errorsOf(definition)).toEqual([]);
    // Where neither the context nor R4's own definitions put it, it is still refused.
    const onPatient = { resourceType: 'Patient', extension: [{ url: `${CORE}structuredefinition-fhir-type`, valueUrl: 'uri' }] };
    expect(await errorsOf(onPatient)).toEqual(['CONSTRAINT_FAILED Patient.extension[0]']);
  });

  it('accepts an extension of OperationDefinition.parameter on a part, which reuses that element', async () => {
    const allowed = { url: `${CORE}operationdefinition-allowed-type`, valueUri: 'Patient' };
    const operation = {
      resourceType: 'OperationDefinition',
      url: 'http://example.org/fhir/OperationDefinition/merge',
      name: 'Merge',
      status: 'draft',
      kind: 'operation',
      code: 'merge',
      system: false,
      type: true,
      instance: false,
      parameter: [{ name: 'return', use: 'out', min: 0, max: '1', part: [{ extension: [allowed], name: 'result', use: 'out', min: 0, max: '1', type: 'Resource' }] }],
    };
    expect(await errorsOf(operation)).toEqual([]);
  });
});
