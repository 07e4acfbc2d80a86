import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProfilePack } from '../../kernel/standards/profile-packs.ts';
import { createFhirAdapter } from '../../plugins/fhir-standard/fhir-adapter.ts';
import { loadFhirProfiles } from '../../plugins/fhir-standard/fhir-profiles.ts';
import { json, patient, testAdapter } from './fhir-fixtures.ts';

const US_CORE_PATIENT = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
const US_CORE_LAB = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-observation-lab';

function pack(id: string, files: Record<string, string>, standard = 'fhir'): ProfilePack {
  const directory = mkdtempSync(join(tmpdir(), `fhir-pack-${id}-`));
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  });
  return { manifest: { id, version: '1', description: id, standard }, directory, files: paths };
}

describe('FHIR profile packs', () => {
  it('lists the shipped us-core-lite profiles', () => {
    const names = testAdapter().profiles().map((p) => `${p.pack}/${p.name}:${p.messageTypes?.join()}`);
    expect(names).toEqual(['us-core-lite/USCoreLaboratoryResultObservationProfile:Observation', 'us-core-lite/us-core-patient:Patient']);
    expect(testAdapter().profileProblems()).toEqual([]);
  });

  it('applies US Core Patient when meta.profile claims it: required errors, must-support warnings', () => {
    const resource = { resourceType: 'Patient', meta: { profile: [US_CORE_PATIENT] }, identifier: [{ value: '1' }], name: [{ family: 'X' }] };
    const result = testAdapter().validate(json(resource), { mode: 'strict' });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual([
      'REQUIRED_FIELD_MISSING Patient.identifier[0].system',
      'REQUIRED_FIELD_MISSING Patient.gender',
    ]);
    const warned = result.warnings.map((w) => `${w.code} ${w.field}`);
    expect(warned).toContain('RECOMMENDED_FIELD_EMPTY Patient.birthDate');
    expect(result.warnings.find((w) => w.field === 'Patient.birthDate')?.message).toMatch(/must-support in profile us-core-patient/);
    expect(result.summary?.profiles).toEqual(['us-core-patient']);
  });

  it('applies a profile named by the request, by name or canonical URL', () => {
    const complete = patient({ telecom: [{ system: 'phone', value: '555-0100', use: 'home' }], address: [{ line: ['1 Main St'], city: 'A', state: 'MN', postalCode: '55101' }], communication: [{ language: { text: 'English' } }] });
    const byName = testAdapter().validate(json(complete), { mode: 'strict', profile: 'us-core-patient' });
    expect(byName.errors).toEqual([]);
    expect(byName.warnings.map((w) => w.field)).toEqual(['Patient.extension']);
    const missingGender = { ...complete, gender: undefined };
    const byUrl = testAdapter().validate(json(missingGender), { mode: 'compatibility', profile: `${US_CORE_PATIENT}|3.1.1` });
    expect(byUrl.isValid).toBe(true);
    expect(byUrl.warnings.map((w) => `${w.code} ${w.field}`)).toContain('REQUIRED_FIELD_MISSING Patient.gender');
  });

  it('applies a StructureDefinition profile: required elements and the slice pattern', () => {
    const lab = { resourceType: 'Observation', status: 'final', category: [{ text: 'lab' }], code: { text: 'glucose' }, valueString: 'high' };
    const result = testAdapter().validate(json(lab), { mode: 'strict', profile: US_CORE_LAB });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual([
      'REQUIRED_FIELD_MISSING Observation.subject',
      'CONSTRAINT_FAILED Observation.category',
    ]);
    expect(result.warnings.map((w) => `${w.code} ${w.field}`)).toEqual(['RECOMMENDED_FIELD_EMPTY Observation.effective[x]']);
  });

  it('refuses an unknown profile with PROFILE_NOT_FOUND', () => {
    expect(() => testAdapter().validate(json(patient()), { mode: 'strict', profile: 'nope' })).toThrow(
      expect.objectContaining({ code: 'PROFILE_NOT_FOUND', status: 400 }),
    );
  });

  it('warns when meta.profile names a profile no pack provides', () => {
    const result = testAdapter().validate(json(patient({ meta: { profile: ['http://example.org/StructureDefinition/other'] } })), { mode: 'strict' });
    expect(result.warnings.map((w) => w.code)).toEqual(['PROFILE_NOT_LOADED']);
  });

  it('reports a broken profile file by name while the others load; ignores packs of other standards', () => {
    const good = JSON.stringify({ format: 'workbench-fhir-profile', url: 'http://example.org/p', name: 'p', resourceType: 'Patient', required: ['Patient.birthDate'] });
    const broken = pack('mixed', {
      'a-good.json': good,
      'b-broken.json': '{ not json',
      'c-wrong.json': JSON.stringify({ format: 'workbench-fhir-profile', url: 'x', name: 'q' }),
      'd-yaml.yaml': 'format: workbench-fhir-profile\nurl: http://example.org/y\nname: y\nresourceType: Observation\nrequired: [Observation.subject]\n',
    });
    const other = pack('hl7', { 'x.json': '{}' }, 'hl7');
    const { profiles, problems } = loadFhirProfiles([broken, other]);
    expect(profiles.map((p) => p.name)).toEqual(['p', 'y']);
    expect(problems.map((p) => p.file.split('/').pop())).toEqual(['b-broken.json', 'c-wrong.json']);
    expect(problems[1].problem).toMatch(/resourceType/);
    const adapter = createFhirAdapter({ profilePacks: [broken], definitions: testAdapter().definitions });
    expect(adapter.validate(json(patient({ birthDate: undefined })), { mode: 'strict', profile: 'p' }).errors.map((e) => e.code)).toEqual([
      'REQUIRED_FIELD_MISSING',
    ]);
  });
});
