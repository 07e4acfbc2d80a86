import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { validateHl7 } from '../../plugins/hl7-standard/validation/hl7-validator.ts';

const shippedRoot = resolve(import.meta.dirname, '..', '..', 'profiles');
const shipped = loadHl7Profiles(discoverProfilePacks([shippedRoot]).packs);

const ADT = [
  'MSH|^~\\&|ACMEHIS|FAC|RECV|RFAC|20240101120000||ADT^A01^ADT_A01|CTRL1|P|2.5|||||USA',
  'EVN|A01|20240101120000||||20240101115500',
  'PID|1||111^^^HOSP^MR||DOE^JANE||19800101|F|||1 MAIN ST^^TOWN^OH^44000|||||||ACC1',
  'PV1|1|I|WARD^101^A||||||||||||||||V1|||||||||||||||||||||||||20240101110000',
].join('\r');

function pairs(result: ValidationResult, severity: 'errors' | 'warnings'): string[] {
  return result[severity].map((i) => `${i.code} ${i.field}`);
}

const temp = mkdtempSync(join(tmpdir(), 'hl7-profiles-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function pack(id: string, files: Record<string, string>, standard = 'hl7'): void {
  const dir = join(temp, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'profile-pack.json'), JSON.stringify({ id, version: '1.0.0', description: `${id} pack`, standard }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

describe('shipped profile packs', () => {
  it('load without problems, with unique names and their packs', () => {
    expect(shipped.problems).toEqual([]);
    const names = shipped.list().map((p) => `${p.name}@${p.pack}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'cdc-elr-oru-r01@public-health-elr',
        'cdc-iz-vxu-v04@cdc-immunization',
        'ihe-pam-adt-encounter@ihe-pam-adt',
        'ihe-pam-adt-merge@ihe-pam-adt',
        'acme-adt@acme-adt-vendor',
      ]),
    );
    expect(shipped.list().every((p) => p.standard === 'hl7')).toBe(true);
  });

  it('merge an extends chain: the child inherits the parent rules and overrides them', () => {
    const acme = shipped.get('acme-adt');
    expect(acme?.chain).toEqual(['ihe-pam-adt-encounter', 'acme-adt']);
    expect(acme?.messageTypes).toEqual(['ADT^A01', 'ADT^A03', 'ADT^A04', 'ADT^A08']);
    expect(acme?.fields.get('PID.5')).toEqual({ usage: 'R' });
    expect(acme?.fields.get('MSH.3')).toEqual({ usage: 'R', fixed: 'ACMEHIS' });
    expect(shipped.get('ihe-pam-adt-merge')?.segments.get('MRG')).toEqual({ usage: 'R', min: 1 });
  });
});

describe('applying a profile', () => {
  it('accepts a conforming message and reports RE fields left empty as warnings', () => {
    const result = validateHl7(ADT, { mode: 'strict', profile: shipped.get('ihe-pam-adt-encounter') });
    expect(result.errors).toEqual([]);
    expect(pairs(result, 'warnings')).toEqual([]);
    const sparse = validateHl7(ADT.replace('|1 MAIN ST^^TOWN^OH^44000|', '||'), { mode: 'strict', profile: shipped.get('ihe-pam-adt-encounter') });
    expect(sparse.isValid).toBe(true);
    expect(sparse.warnings).toEqual([
      {
        field: 'PID.11',
        code: 'RECOMMENDED_FIELD_EMPTY',
        severity: 'warning',
        message: 'PID.11 (Patient Address) should be sent when known (profile ihe-pam-adt-encounter, usage RE) but is empty.',
      },
    ]);
    expect(result.summary?.profile).toBe('ihe-pam-adt-encounter');
  });

  it('reports R fields, fixed values, value sets and required segments', () => {
    const broken = ADT.replace('|ACMEHIS|', '|OTHER|').replace('|19800101|F|', '||X|').replace(/\rEVN[^\r]*/, '');
    const result = validateHl7(broken, { mode: 'compatibility', profile: shipped.get('acme-adt') });
    expect(pairs(result, 'errors')).toEqual(['SEGMENT_MISSING EVN', 'CONSTRAINT_FAILED MSH.3']);
    expect(pairs(result, 'warnings')).toEqual(['RECOMMENDED_FIELD_EMPTY PID.7']);
    const noAccount = validateHl7(ADT.replace('ACC1', ''), { mode: 'compatibility', profile: shipped.get('acme-adt') });
    expect(pairs(noAccount, 'errors')).toEqual(['REQUIRED_FIELD_MISSING PID.18']);
    expect(result.errors.find((e) => e.code === 'CONSTRAINT_FAILED')?.message).toBe(
      'MSH.3 (Sending Application) must be "ACMEHIS" under profile acme-adt but is "OTHER".',
    );
  });

  it('defines Z-segments: known to strict mode, their fields checked', () => {
    const withZ = `${ADT}\rZPI|1|Jo^Doe|Y|20240230`;
    const plain = validateHl7(withZ, { mode: 'strict' });
    expect(pairs(plain, 'errors')).toEqual(['SEGMENT_UNEXPECTED ZPI']);
    const profiled = validateHl7(withZ, { mode: 'strict', profile: shipped.get('acme-adt') });
    expect(pairs(profiled, 'errors')).toEqual(['INVALID_DATE ZPI.4']);
    const missingId = validateHl7(`${ADT}\rZPI||Jo^Doe|maybe`, { mode: 'strict', profile: shipped.get('acme-adt') });
    expect(pairs(missingId, 'errors')).toEqual(['REQUIRED_FIELD_MISSING ZPI.1', 'FIELD_TOO_LONG ZPI.3', 'VALUE_NOT_IN_VALUE_SET ZPI.3']);
  });

  it('refuses a message type the profile is not for', () => {
    const result = validateHl7(ADT.replace('ADT^A01^ADT_A01', 'ADT^A40^ADT_A39'), { mode: 'compatibility', profile: shipped.get('ihe-pam-adt-encounter') });
    expect(pairs(result, 'errors')).toContain('CONSTRAINT_FAILED MSH.9');
  });

  it('reports X (not supported) fields that carry a value', () => {
    pack('x-usage', { 'x.json': JSON.stringify({ name: 'no-ssn', fields: { 'PID.19': { usage: 'X' } } }) });
    const set = loadHl7Profiles(discoverProfilePacks([temp]).packs);
    const result = validateHl7(ADT.replace('||ACC1', '||ACC1|999-00-1234'), { mode: 'compatibility', profile: set.get('no-ssn') });
    expect(pairs(result, 'errors')).toEqual(['WITHDRAWN_FIELD_PRESENT PID.19']);
  });
});

describe('loading broken profile files', () => {
  it('reports each broken file by name and problem, and still loads the others', () => {
    pack('good-pack', {
      'good.yaml': 'name: good-one\nmessageTypes: ["ADT^A01"]\nfields:\n  PID.7: { usage: R }\n',
      'also-good.yaml': 'name: also-good\nmessageTypes: ["ADT^A04"]\nfields:\n  PID.8: { usage: RE }\n',
    });
    pack('broken-pack', {
      'not-json.json': '{ "name": ',
      'bad-shape.json': JSON.stringify({ name: 'Bad Name', fields: { 'PID-5': { usage: 'MAYBE' } } }),
      'orphan.json': JSON.stringify({ name: 'orphan', extends: 'nobody' }),
      'dup.json': JSON.stringify({ name: 'good-one' }),
    });
    pack('fhir-pack', { 'ignored.json': '{ not even json' }, 'fhir');
    const set = loadHl7Profiles(discoverProfilePacks([temp]).packs);
    // The good pack's own file loads from YAML...
    expect(set.get('also-good')?.pack).toBe('good-pack');
    expect(set.get('also-good')?.fields.get('PID.8')).toMatchObject({ usage: 'RE' });
    // ...while "good-one" is the broken pack's dup.json (loaded first), not good.yaml.
    expect(set.get('good-one')?.pack).toBe('broken-pack');
    expect(set.get('good-one')?.fields.has('PID.7')).toBe(false);
    const problems = new Map(set.problems.map((p) => [p.file.split(/[\\/]/).pop(), p.problem]));
    expect(problems.get('not-json.json')).toMatch(/cannot be read as JSON/);
    expect(problems.get('bad-shape.json')).toMatch(/not a valid HL7 profile: name: .*fields/);
    expect(problems.get('orphan.json')).toBe('extends "nobody", which is not a loaded HL7 profile');
    // Packs load in name order, so the later file with the same name (good.yaml) is the one refused.
    expect(problems.get('good.yaml')).toMatch(/^uses the profile name "good-one", which .*dup\.json already uses$/);
    expect(problems.has('ignored.json')).toBe(false);
  });

  it('refuses an extends loop', () => {
    pack('loop-pack', {
      'a.json': JSON.stringify({ name: 'loop-a', extends: 'loop-b' }),
      'b.json': JSON.stringify({ name: 'loop-b', extends: 'loop-a' }),
    });
    const set = loadHl7Profiles(discoverProfilePacks([temp]).packs);
    expect(set.get('loop-a')).toBeUndefined();
    expect(set.problems.some((p) => /leads back to itself/.test(p.problem))).toBe(true);
  });
});
