import { describe, expect, it } from 'vitest';
import { createIgnoreMatcher } from '../../plugins/fhir-standard/fhir-diff.ts';
import { json, patient, testAdapter } from './fhir-fixtures.ts';

const diff = (left: unknown, right: unknown, ignoredFields: string[] = []) =>
  testAdapter().diff(typeof left === 'string' ? left : json(left), typeof right === 'string' ? right : json(right), { ignoredFields });

describe('FHIR diff', () => {
  it('finds nothing between equal resources', () => {
    expect(diff(patient(), patient())).toEqual({ differences: [], totalDifferences: 0, totals: { modified: 0, added: 0, removed: 0 }, truncated: false, ignoredFields: [], unmatchedIgnoredFields: [] });
  });

  it('reports modified, added and removed values by FHIR path', () => {
    const left = patient({ telecom: [{ system: 'phone', value: '555-0100' }] });
    const right = patient({ name: [{ family: 'Testperson', given: ['Alex', 'K'] }], active: true });
    delete right.birthDate;
    const result = diff(left, right);
    expect(result.differences).toEqual([
      { field: 'Patient.name[0].given[1]', leftValue: 'J', rightValue: 'K', changeType: 'modified' },
      { field: 'Patient.birthDate', leftValue: '1980-02-29', rightValue: '', changeType: 'removed' },
      { field: 'Patient.telecom', leftValue: '[{"system":"phone","value":"555-0100"}]', rightValue: '', changeType: 'removed' },
      { field: 'Patient.active', leftValue: '', rightValue: 'true', changeType: 'added' },
    ]);
    expect(result.totalDifferences).toBe(4);
  });

  it('aligns array items by identifier when every item has one', () => {
    const a = { system: 'urn:a', value: '1' };
    const b = { system: 'urn:b', value: '2' };
    const left = { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:1', resource: patient() }, { fullUrl: 'urn:uuid:2', resource: patient({ gender: 'male' }) }] };
    const right = { ...left, entry: [left.entry[1], { ...left.entry[0], resource: patient({ gender: 'other' }) }] };
    expect(diff(left, right).differences).toEqual([
      { field: 'Bundle.entry[0].resource.gender', leftValue: 'female', rightValue: 'other', changeType: 'modified' },
    ]);
    const byIdentifier = diff({ resourceType: 'Patient', contact: [{ identifier: a }, { identifier: b }] }, { resourceType: 'Patient', contact: [{ identifier: b }] });
    expect(byIdentifier.differences).toEqual([
      { field: 'Patient.contact[0]', leftValue: JSON.stringify({ identifier: a }), rightValue: '', changeType: 'removed' },
    ]);
  });

  it('aligns by index when items carry no id', () => {
    const result = diff(patient(), patient({ name: [{ family: 'Other' }, { family: 'Testperson', given: ['Alex', 'J'] }] }));
    expect(result.differences.map((d) => `${d.changeType} ${d.field}`)).toEqual([
      'modified Patient.name[0].family',
      'removed Patient.name[0].given',
      'added Patient.name[1]',
    ]);
  });

  it('ignores paths and wildcards, including whole subtrees', () => {
    const left = patient({ meta: { lastUpdated: '2024-01-01T00:00:00Z', versionId: '1' } });
    const right = patient({ id: 'p2', meta: { lastUpdated: '2024-02-01T00:00:00Z', versionId: '2' } });
    expect(diff(left, right).totalDifferences).toBe(3);
    expect(diff(left, right, ['meta.lastUpdated', 'Patient.id']).differences.map((d) => d.field)).toEqual(['Patient.meta.versionId']);
    const ignored = diff(left, right, ['*.meta', 'Patient.id']);
    expect(ignored).toEqual({ differences: [], totalDifferences: 0, totals: { modified: 0, added: 0, removed: 0 }, truncated: false, ignoredFields: ['*.meta', 'Patient.id'], unmatchedIgnoredFields: [] });
  });

  it('matches ignore patterns by segment, with ** and explicit indexes', () => {
    const ignore = createIgnoreMatcher(['meta.lastUpdated', 'Bundle.**.id', 'name[1]']);
    expect(ignore('Bundle.entry[3].resource.meta.lastUpdated')).toBe(true);
    expect(ignore('Patient.metadata.lastUpdated')).toBe(false);
    expect(ignore('Bundle.entry[0].resource.id')).toBe(true);
    expect(ignore('Patient.name[1].family')).toBe(true);
    expect(ignore('Patient.name[0].family')).toBe(false);
  });

  it('reports resources of different types as one top-level difference', () => {
    expect(diff(patient(), { resourceType: 'Observation', status: 'final' }).differences).toEqual([
      { field: 'resourceType', leftValue: 'Patient', rightValue: 'Observation', changeType: 'modified' },
    ]);
  });

  it('compares XML with JSON of the same resource as equal', () => {
    const xml = '<Patient xmlns="http://hl7.org/fhir"><id value="p1"/><gender value="female"/></Patient>';
    expect(diff(xml, { resourceType: 'Patient', id: 'p1', gender: 'female' }).totalDifferences).toBe(0);
  });

  it('refuses an unparseable side with a 400 naming it', () => {
    expect(() => diff('{"nope":1}', patient())).toThrow(expect.objectContaining({ code: 'MESSAGE_UNPARSEABLE', status: 400, message: expect.stringMatching(/^The left message/) }));
    expect(() => diff(patient(), 'garbage')).toThrow(expect.objectContaining({ message: expect.stringMatching(/^The right message/) }));
  });
});
