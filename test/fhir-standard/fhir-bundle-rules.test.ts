/**
 * Bundle rules of R4 (bundle.html and the Bundle invariants) through the real bridge, valid and invalid: fullUrl
 * absolute and agreeing with the entry's resource, bdl-7 counting meta.versionId, references inside a Bundle and to
 * contained resources resolving to a target of an allowed type, and the document (bdl-9/10/11) and message (bdl-12)
 * rules, every one of them reported where several fail at once.
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation, type ValidationFinding } from '../helpers/bridge-validation.ts';

const bridge = bridgeValidation();

function validate(resource: unknown, mode: 'strict' | 'compatibility' = 'strict') {
  return bridge.validate({ messageContent: resource, standard: 'fhir', mode });
}

const listed = (issues: ValidationFinding[]): string[] => issues.map((i) => `${i.code} ${i.field}`).sort();

const uuid = (n: number) => `urn:uuid:${String(n).padStart(8, '0')}-7d1c-4c7e-9a52-5f0a2e1b3c4d`;
const NARRATIVE = { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Discharge summary</div>' };

/** A document Bundle as R4 bundle.html describes it: identifier, timestamp, a Composition first, its references inside. */
function documentBundle(overrides: Record<string, unknown> = {}, entries?: unknown[]) {
  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:ietf:rfc:3986', value: 'urn:uuid:0c3151bd-1cbf-4d64-b04d-cd9187a4c6e0' },
    type: 'document',
    timestamp: '2013-05-28T22:12:21Z',
    entry: entries ?? [
      {
        fullUrl: uuid(1),
        resource: {
          resourceType: 'Composition',
          text: NARRATIVE,
          status: 'final',
          type: { coding: [{ system: 'http://loinc.org', code: '28655-9' }] },
          subject: { reference: uuid(2) },
          date: '2013-02-01T12:30:02Z',
          author: [{ reference: uuid(3) }],
          title: 'Discharge Summary',
        },
      },
      { fullUrl: uuid(2), resource: { resourceType: 'Patient', text: NARRATIVE, name: [{ family: 'Chalmers' }] } },
      { fullUrl: uuid(3), resource: { resourceType: 'Practitioner', text: NARRATIVE, name: [{ family: 'Careful' }] } },
    ],
    ...overrides,
  };
}

describe('fullUrl', () => {
  it('accepts absolute RESTful URLs, urn:uuid: and urn:oid:, each agreeing with its resource', async () => {
    const result = await validate({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'http://example.org/fhir/Patient/123', resource: { resourceType: 'Patient', id: '123' } },
        { fullUrl: uuid(4), resource: { resourceType: 'Patient', id: 'a-local-id' } },
        { fullUrl: 'urn:oid:1.2.840.113619.21.1.2', resource: { resourceType: 'Patient' } },
      ],
    });
    expect(listed(result.errors)).toEqual([]);
  });

  it('refuses a relative fullUrl, an invalid urn:uuid:, and a RESTful fullUrl that names another type or id', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'Patient/123', resource: { resourceType: 'Patient', id: '123' } },
        { fullUrl: 'urn:uuid:1', resource: { resourceType: 'Patient' } },
        { fullUrl: 'http://example.org/fhir/Patient/pat12', resource: { resourceType: 'Patient', id: 'pat2' } },
        { fullUrl: 'http://example.org/fhir/Practitioner/7', resource: { resourceType: 'Organization', id: '7', name: 'Acme' } },
      ],
    };
    const strict = await validate(bundle);
    expect(listed(strict.errors)).toEqual([
      'BUNDLE_RULE_VIOLATED Bundle.entry[0].fullUrl',
      'BUNDLE_RULE_VIOLATED Bundle.entry[2].fullUrl',
      'BUNDLE_RULE_VIOLATED Bundle.entry[3].fullUrl',
      'INVALID_DATA_TYPE Bundle.entry[1].fullUrl',
    ]);
    const mismatch = strict.errors.find((e) => e.field === 'Bundle.entry[2].fullUrl');
    expect(mismatch?.expected).toBe('a fullUrl ending in Patient/pat2');
    expect(mismatch?.actual).toContain('pat12');
    expect(strict.errors.find((e) => e.field === 'Bundle.entry[3].fullUrl')?.message).toContain('names a Practitioner, but the entry holds an Organization');
    const compatibility = await validate(bundle, 'compatibility');
    expect(compatibility.errors).toEqual([]);
    expect(compatibility.warnings).toHaveLength(4);
  });

  it('refuses a version-specific fullUrl (bdl-8)', async () => {
    const result = await validate({ resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'http://example.org/fhir/Patient/1/_history/2', resource: { resourceType: 'Patient', id: '1' } }] });
    expect(listed(result.errors)).toEqual(['CONSTRAINT_FAILED Bundle.entry[0]']);
    expect(result.errors[0]?.message).toContain('bdl-8');
  });
});

describe('bdl-7: fullUrl unique, per version', () => {
  const entry = (versionId: string) => ({ fullUrl: 'http://example.org/fhir/Patient/1', resource: { resourceType: 'Patient', id: '1', meta: { versionId } } });

  it('allows two versions of one resource, and repeats of any kind in a history Bundle', async () => {
    expect((await validate({ resourceType: 'Bundle', type: 'collection', entry: [entry('1'), entry('2')] })).errors).toEqual([]);
    const history = { resourceType: 'Bundle', type: 'history', entry: [1, 2].map(() => ({ ...entry('1'), request: { method: 'PUT', url: 'Patient/1' }, response: { status: '200' } })) };
    expect((await validate(history)).errors).toEqual([]);
  });

  it('refuses the same fullUrl twice with the same version, or without versions', async () => {
    const same = await validate({ resourceType: 'Bundle', type: 'collection', entry: [entry('1'), entry('1')] });
    expect(listed(same.errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[1].fullUrl']);
    const plain = { fullUrl: uuid(5), resource: { resourceType: 'Patient' } };
    expect(listed((await validate({ resourceType: 'Bundle', type: 'collection', entry: [plain, plain] })).errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[1].fullUrl']);
  });
});

describe('bdl-3 and bdl-4: request and response by Bundle type', () => {
  const patient = (n: number) => ({ fullUrl: uuid(n), resource: { resourceType: 'Patient' } });

  it('requires request in a transaction and response in a transaction-response', async () => {
    const transaction = await validate({ resourceType: 'Bundle', type: 'transaction', entry: [patient(1)] });
    expect(listed(transaction.errors)).toEqual(['REQUIRED_FIELD_MISSING Bundle.entry[0].request']);
    expect(transaction.errors[0]?.message).toContain('(bdl-3)');
    const answer = await validate({ resourceType: 'Bundle', type: 'transaction-response', entry: [patient(2)] });
    expect(listed(answer.errors)).toEqual(['REQUIRED_FIELD_MISSING Bundle.entry[0].response']);
    expect(answer.errors[0]?.message).toContain('(bdl-4)');
  });

  it('refuses request and response where the Bundle type has none, naming where they belong', async () => {
    const entry = { ...patient(3), request: { method: 'POST', url: 'Patient' }, response: { status: '201' } };
    const collection = await validate({ resourceType: 'Bundle', type: 'collection', entry: [entry] });
    expect(listed(collection.errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[0].request', 'BUNDLE_RULE_VIOLATED Bundle.entry[0].response']);
    const messages = collection.errors.map((finding) => finding.message).join(' ');
    expect(messages).toContain('only allowed in batch, transaction and history Bundles, not in a collection Bundle (bdl-3)');
    expect(messages).toContain('only allowed in batch-response, transaction-response and history Bundles, not in a collection Bundle (bdl-4)');
  });
});

describe('references resolve to a target of an allowed type', () => {
  it('refuses a Practitioner reference whose urn:uuid: entry holds an Organization', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: uuid(10), resource: { resourceType: 'Organization', name: 'Acme Clinic' } },
        { fullUrl: uuid(11), resource: { resourceType: 'PractitionerRole', practitioner: { reference: uuid(10) }, organization: { reference: uuid(10) } } },
      ],
    };
    const result = await validate(bundle);
    expect(listed(result.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[1].resource.practitioner.reference']);
    expect(result.errors[0]?.message).toContain('refers to Bundle.entry[0], an Organization, but may only refer to Practitioner');
    expect(result.errors[0]?.expected).toBe('a reference to Practitioner');
    expect(result.errors[0]?.actual).toBe('Organization');
  });

  it('resolves a relative reference against the referring entry base, and an absolute one by fullUrl', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'http://example.org/fhir/Organization/9', resource: { resourceType: 'Organization', id: '9', name: 'Acme' } },
        { fullUrl: 'http://example.org/fhir/Patient/1', resource: { resourceType: 'Patient', id: '1', managingOrganization: { reference: 'Organization/9' } } },
        { fullUrl: 'http://example.org/fhir/PractitionerRole/2', resource: { resourceType: 'PractitionerRole', id: '2', practitioner: { reference: 'http://example.org/fhir/Organization/9' } } },
      ],
    };
    const result = await validate(bundle);
    // The absolute reference names its type: the element check reports it, once.
    expect(listed(result.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[2].resource.practitioner.reference']);
    expect(result.warnings).toEqual([]);
  });

  it('warns of an unresolved urn:uuid: reference and of a relative one a collection does not hold', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ fullUrl: 'http://example.org/fhir/Patient/1', resource: { resourceType: 'Patient', id: '1', managingOrganization: { reference: 'Organization/404' }, generalPractitioner: [{ reference: uuid(99) }] } }],
    };
    const result = await validate(bundle);
    expect(listed(result.errors)).toEqual([]);
    expect(listed(result.warnings)).toEqual([
      'INVALID_REFERENCE Bundle.entry[0].resource.generalPractitioner[0].reference',
      'INVALID_REFERENCE Bundle.entry[0].resource.managingOrganization.reference',
    ]);
  });

  it('refuses an unresolved urn:uuid: in a document\'s Composition and in a message\'s focus, which must be inside', async () => {
    const lost = documentBundle();
    (lost.entry as Array<{ resource: Record<string, unknown> }>)[0]!.resource.subject = { reference: uuid(98) };
    expect(listed((await validate(lost)).errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.subject.reference']);
    const header = { resourceType: 'MessageHeader', eventCoding: { system: 'http://example.org/fhir/message-events', code: 'admin-notify' }, source: { endpoint: 'llp:10.11.12.13:5432' }, focus: [{ reference: uuid(97) }] };
    const message = await validate({ resourceType: 'Bundle', type: 'message', timestamp: '2012-10-15T12:00:00Z', entry: [{ fullUrl: uuid(30), resource: header }] });
    expect(listed(message.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.focus[0].reference']);
  });

  it('resolves Type/id from a urn:uuid: entry to the entry whose fullUrl is urn:uuid:<id>, which must hold a Type', async () => {
    const id = uuid(12).slice('urn:uuid:'.length);
    const bundle = (target: Record<string, unknown>) => ({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: uuid(13), resource: { resourceType: 'Patient', generalPractitioner: [{ reference: `Practitioner/${id}` }] } },
        { fullUrl: uuid(12), resource: target },
      ],
    });
    const right = await validate(bundle({ resourceType: 'Practitioner', name: [{ family: 'Careful' }] }));
    expect(listed(right.errors)).toEqual([]);
    expect(right.warnings).toEqual([]);
    const wrong = await validate(bundle({ resourceType: 'Organization', name: 'Acme' }));
    expect(listed(wrong.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.generalPractitioner[0].reference']);
    expect(wrong.errors[0]?.message).toContain('names a Practitioner, but resolves to Bundle.entry[1], an Organization');
  });

  it('checks the type of a contained target (#id), in a resource and in a Bundle entry', async () => {
    const encounter = (contained: Record<string, unknown>) => ({
      resourceType: 'Encounter',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      contained: [{ id: 'p1', ...contained }],
      participant: [{ individual: { reference: '#p1' } }],
    });
    expect((await validate(encounter({ resourceType: 'Practitioner' }))).errors).toEqual([]);
    const wrong = await validate(encounter({ resourceType: 'Organization', name: 'Acme' }));
    expect(listed(wrong.errors)).toEqual(['INVALID_REFERENCE Encounter.participant[0].individual.reference']);
    expect(wrong.errors[0]?.message).toContain('the contained resource #p1, an Organization');
    const inBundle = await validate({ resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: uuid(20), resource: encounter({ resourceType: 'Organization', name: 'Acme' }) }] });
    expect(listed(inBundle.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.participant[0].individual.reference']);
  });
});

describe('document and message Bundles', () => {
  it('accepts a document as bundle.html describes it', async () => {
    const result = await validate(documentBundle());
    expect(result.errors).toEqual([]);
  });

  it('reports every document rule that fails, each where it fails (bdl-9, bdl-10, bdl-11)', async () => {
    const patientFirst = documentBundle({ identifier: undefined, timestamp: undefined }, [{ fullUrl: uuid(2), resource: { resourceType: 'Patient', text: NARRATIVE } }]);
    const result = await validate(patientFirst);
    expect(listed(result.errors)).toEqual(['CONSTRAINT_FAILED Bundle.entry[0].resource', 'CONSTRAINT_FAILED Bundle.identifier', 'CONSTRAINT_FAILED Bundle.timestamp']);
    expect(result.errors.map((e) => /invariant (bdl-\d+)/.exec(e.message)?.[1]).sort()).toEqual(['bdl-10', 'bdl-11', 'bdl-9']);
    expect(result.errors.find((e) => e.message.includes('bdl-11'))?.actual).toBe('Patient');
  });

  it('refuses a document whose Composition author points at a Location (a target type it does not allow)', async () => {
    const bundle = documentBundle();
    (bundle.entry as Array<{ resource: Record<string, unknown> }>)[2]!.resource = { resourceType: 'Location', name: 'Ward 3' };
    expect(listed((await validate(bundle)).errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.author[0].reference']);
  });

  it('wants a MessageHeader first in a message (bdl-12)', async () => {
    const header = { resourceType: 'MessageHeader', eventCoding: { system: 'http://example.org/fhir/message-events', code: 'admin-notify' }, source: { endpoint: 'llp:10.11.12.13:5432' }, focus: [{ reference: uuid(31) }] };
    const patient = { resourceType: 'Patient', name: [{ family: 'Chalmers' }] };
    const good = await validate({ resourceType: 'Bundle', type: 'message', timestamp: '2012-10-15T12:00:00Z', entry: [{ fullUrl: uuid(30), resource: header }, { fullUrl: uuid(31), resource: patient }] });
    expect(good.errors).toEqual([]);
    const bad = await validate({ resourceType: 'Bundle', type: 'message', timestamp: '2012-10-15T12:00:00Z', entry: [{ fullUrl: uuid(31), resource: patient }, { fullUrl: uuid(30), resource: header }] });
    expect(listed(bad.errors)).toEqual(['CONSTRAINT_FAILED Bundle.entry[0].resource']);
    expect(bad.errors[0]?.message).toContain('bdl-12');
  });

  it('reports bdl-1 and bdl-2 together outside a searchset', async () => {
    const result = await validate({ resourceType: 'Bundle', type: 'collection', total: 1, entry: [{ fullUrl: uuid(40), resource: { resourceType: 'Patient' }, search: { mode: 'match' } }] });
    expect(listed(result.errors)).toEqual(['CONSTRAINT_FAILED Bundle.entry[0].search', 'CONSTRAINT_FAILED Bundle.total']);
  });
});

describe('references resolved as HL7 resolves them (R4 bundle.html, "Resolving references in Bundles")', () => {
  const composition = (author: string, extra: Record<string, unknown> = {}) => ({
    resourceType: 'Composition',
    text: NARRATIVE,
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '28655-9' }] },
    date: '2013-02-01T12:30:02Z',
    author: [{ reference: author }],
    title: 'Discharge Summary',
    ...extra,
  });
  const organization = (id?: string) => ({ resourceType: 'Organization', text: NARRATIVE, ...(id ? { id } : {}), name: 'Clinic' });

  it('resolves a Composition\'s relative reference against its RESTful base, not by Type/id from a urn:uuid: fullUrl', async () => {
    const restful = await validate(documentBundle({}, [
      { fullUrl: 'http://example.org/fhir/Composition/1', resource: composition('Organization/666', { id: '1' }) },
      { fullUrl: 'http://example.org/fhir/Organization/666', resource: organization('666') },
    ]));
    expect(listed(restful.errors)).toEqual([]);
    const urn = await validate(documentBundle({}, [
      { fullUrl: uuid(1), resource: composition('Organization/666') },
      { fullUrl: uuid(2), resource: organization('666') },
    ]));
    expect(listed(urn.errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.author[0].reference']);
  });

  it('requires the id a RESTful fullUrl names', async () => {
    const result = await validate(documentBundle({}, [
      { fullUrl: 'http://example.org/fhir/Composition/1', resource: composition('Organization/666', { id: '1' }) },
      { fullUrl: 'http://example.org/fhir/Organization/666', resource: organization() },
    ]));
    expect(listed(result.errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[1].fullUrl']);
  });

  it('reports a Type/id reference that resolves to an entry of another type', async () => {
    const bundle = (type: string) => ({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'http://example.org/fhir/Patient/1', resource: { resourceType: 'Patient', id: '1', generalPractitioner: [{ reference: `${type}/5` }] } },
        { fullUrl: `http://example.org/fhir/${type}/5`, resource: type === 'Practitioner' ? { resourceType: 'Practitioner', id: '5' } : organization('5') },
      ],
    });
    expect(listed((await validate(bundle('Practitioner'))).errors)).toEqual([]);
    const wrong = await validate({ ...bundle('Practitioner'), entry: [bundle('Practitioner').entry[0], { fullUrl: 'http://example.org/fhir/Practitioner/5', resource: organization('5') }] });
    expect(listed(wrong.errors)).toContain('INVALID_REFERENCE Bundle.entry[0].resource.generalPractitioner[0].reference');
  });

  it('reports a reference without version that matches several versions of one resource', async () => {
    const observation = (versionId: string) => ({
      fullUrl: 'http://example.org/fhir/Observation/o',
      resource: { resourceType: 'Observation', id: 'o', meta: { versionId }, text: NARRATIVE, status: 'final', code: { text: 'weight' } },
    });
    const bundle = (reference: string) => documentBundle({}, [
      { fullUrl: 'http://example.org/fhir/Composition/1', resource: composition('Organization/666', { id: '1', section: [{ title: 'Results', text: NARRATIVE, entry: [{ reference }] }] }) },
      { fullUrl: 'http://example.org/fhir/Organization/666', resource: organization('666') },
      observation('1'),
      observation('2'),
    ]);
    expect(listed((await validate(bundle('Observation/o/_history/2'))).errors)).toEqual([]);
    expect(listed((await validate(bundle('Observation/o'))).errors)).toEqual(['INVALID_REFERENCE Bundle.entry[0].resource.section[0].entry[0].reference']);
  });
});

describe('Bundle.link', () => {
  it('allows one self link, not two', async () => {
    const bundle = (relations: string[]) => ({ resourceType: 'Bundle', type: 'searchset', link: relations.map((relation, i) => ({ relation, url: `http://example.org/fhir/Patient?page=${i}` })) });
    expect(listed((await validate(bundle(['self', 'next']))).errors)).toEqual([]);
    expect(listed((await validate(bundle(['self', 'self']))).errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.link[1].relation']);
  });
});

describe('searchset entries by search.mode (bundle.html, search.html)', () => {
  const searchset = (entries: unknown[]) => ({ resourceType: 'Bundle', type: 'searchset', link: [{ relation: 'self', url: 'http://example.org/fhir/Patient?name=peter' }], entry: entries });
  const match = (resource: Record<string, unknown>, mode = 'match') => ({ fullUrl: `http://example.org/fhir/${String(resource.resourceType)}/${String(resource.id ?? 'x')}`, resource, search: { mode } });

  it('accepts matches of the type searched for with ids, and an OperationOutcome as outcome', async () => {
    const result = await validate(searchset([match({ resourceType: 'Patient', id: 'p1' }), { resource: { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational' }] }, search: { mode: 'outcome' } }]));
    expect(listed(result.errors)).toEqual([]);
  });

  it('refuses a match without id or of another type, and an outcome that is not an OperationOutcome', async () => {
    const result = await validate(searchset([
      { fullUrl: uuid(50), resource: { resourceType: 'Patient' }, search: { mode: 'match' } },
      match({ resourceType: 'Observation', id: 'o1', status: 'final', code: { text: 'Weight' } }),
      { fullUrl: uuid(51), resource: { resourceType: 'Patient', id: 'p2' }, search: { mode: 'outcome' } },
    ]));
    expect(listed(result.errors)).toEqual(['BUNDLE_RULE_VIOLATED Bundle.entry[1].resource', 'BUNDLE_RULE_VIOLATED Bundle.entry[2].resource', 'REQUIRED_FIELD_MISSING Bundle.entry[0].resource.id']);
  });
});
