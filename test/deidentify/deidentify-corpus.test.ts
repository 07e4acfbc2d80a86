// De-identification of every message of the shared corpus (skipped with a notice when the corpus is absent): each
// output validates as its input did, no original value of an identifying field is left in that field, and the same
// patient gets the same replacement across files and across service instances sharing a key.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';
import { createStandards, createTestDeidentifier } from './deid-helpers.ts';

const standards = createStandards();
const service = createTestDeidentifier(standards);

const KINDS = [
  ['hl7v2', 'hl7'],
  ['fhir', 'fhir'],
  ['ncpdp', 'ncpdp'],
] as const;

/** HL7 paths (segment, field, component; 0 = whole field) whose every value identifies. */
const HL7_PHI: Array<[string, number, number]> = [
  ['PID', 3, 1],
  ['PID', 5, 1],
  ['PID', 5, 2],
  ['PID', 7, 0],
  ['PID', 11, 1],
  ['PID', 11, 3],
  ['PID', 11, 5],
  ['PID', 13, 1],
  ['PID', 18, 1],
  ['PID', 19, 0],
  ['NK1', 2, 1],
  ['NK1', 2, 2],
  ['NK1', 4, 1],
  ['NK1', 5, 1],
  ['GT1', 3, 1],
  ['IN1', 16, 1],
  ['PV1', 7, 2],
  ['PV1', 19, 1],
];

/** Values of one HL7 path in every message of a text (delimiters from MSH, repetitions included). */
function hl7Values(text: string, segment: string, field: number, component: number): string[] {
  const values: string[] = [];
  let separators = { field: '|', component: '^', repetition: '~' };
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/^[\uFEFF\x0b]+/, '');
    if (line.startsWith('MSH')) separators = { field: line[3]!, component: line[4] ?? '^', repetition: line[5] ?? '~' };
    if (!line.startsWith(segment + separators.field)) continue;
    const value = line.split(separators.field)[field] ?? '';
    for (const repetition of value.split(separators.repetition)) {
      const part = component === 0 ? repetition : (repetition.split(separators.component)[component - 1] ?? '');
      values.push(part.split('&')[0]!.trim());
    }
  }
  return values;
}

/** String values at FHIR paths that identify (names, identifiers, telecom, address, birth date), in document order. */
function fhirValues(node: unknown, key = '', inside = ''): Array<[string, string]> {
  if (Array.isArray(node)) return node.flatMap((item) => fhirValues(item, key, inside));
  if (typeof node === 'string') return inside && ['family', 'given', 'line', 'city', 'postalCode', 'value'].includes(key) ? [[`${inside}.${key}`, node]] : [];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([name, value]) => {
    if (name === 'birthDate') return typeof value === 'string' && value.length > 4 ? [['birthDate', value] as [string, string]] : [];
    if (['name', 'address', 'identifier', 'telecom'].includes(name)) return fhirValues(value, '', name);
    if (inside && ['family', 'given', 'line', 'city', 'postalCode', 'value'].includes(name)) return fhirValues(value, name, inside);
    return fhirValues(value, name, '');
  });
}

/** The lines of an HL7 text other than the people segments (PID, PD1, NK1, GT1, IN1, PV1). */
function otherLines(text: string): string {
  return text.split(/\r\n|\r|\n/).filter((line) => !/^(PID|PD1|NK1|GT1|IN1|PV1)/.test(line)).join('\r');
}

/** Text of SCRIPT elements that identify a patient or prescriber (inside those elements only: a pharmacy is not PHI). */
function scriptValues(whole: string): string[] {
  const text = [...whole.matchAll(/<(?:\w+:)?(Patient|Prescriber)>[\s\S]*?<\/\s*(?:\w+:)?\1>/g)].map((match) => match[0]).join('\n');
  const values: string[] = [];
  for (const tag of ['LastName', 'FirstName', 'AddressLine1', 'PostalCode', 'Number', 'NPI', 'SocialSecurity', 'MedicalRecordIdentificationNumberEHR']) {
    for (const match of text.matchAll(new RegExp(`<(?:\\w+:)?${tag}>([^<]+)<`, 'g'))) values.push(match[1]!.trim());
  }
  const dob = /<(?:\w+:)?DateOfBirth>\s*<(?:\w+:)?Date>([^<]+)</.exec(text);
  if (dob) values.push(dob[1]!);
  return values;
}

/** An NCPDP Telecom claim of the shared corpus carrying a patient birth date (C4), if the corpus has one. */
const ncpdpTelecom =
  corpusDir('ncpdp') === undefined
    ? undefined
    : corpusFiles('ncpdp').find((file) => file.endsWith('.ncpdp') && readFileSync(join(corpusDir('ncpdp')!, file), 'latin1').includes('\x1cC4'));

describe('de-identification of the shared corpus', () => {
  for (const [folder, standard] of KINDS) {
    const files = corpusFiles(folder).filter((name) => !name.endsWith('.md'));
    it.skipIf(corpusDir(folder) === undefined)(`every ${folder} message validates as it did before, in both modes`, () => {
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) {
        const text = readFileSync(join(corpusDir(folder)!, name), 'utf8');
        const result = service.deidentify(text, standard);
        for (const mode of ['strict', 'compatibility'] as const) {
          const before = standards.get(standard)!.validate(text, { mode });
          const after = standards.get(standard)!.validate(result.messageContent, { mode });
          const codes = (issues: Array<{ code: string }>) => [...new Set(issues.map((issue) => issue.code))].sort();
          expect({ name, mode, isValid: after.isValid, codes: codes(after.errors) }).toEqual({ name, mode, isValid: before.isValid, codes: codes(before.errors) });
        }
      }
    });
  }

  it.skipIf(corpusDir('hl7v2') === undefined)('no original value of an identifying HL7 field is left in that field', () => {
    let checked = 0;
    for (const name of corpusFiles('hl7v2')) {
      const text = readFileSync(join(corpusDir('hl7v2')!, name), 'utf8');
      const output = service.deidentify(text, 'hl7').messageContent;
      for (const [segment, field, component] of HL7_PHI) {
        const before = hl7Values(text, segment, field, component);
        const after = hl7Values(output, segment, field, component);
        expect(after.length, `${name} ${segment}.${field}`).toBe(before.length);
        before.forEach((value, index) => {
          if (value.length < 2 || value === '""') return;
          // A placeholder where a date belongs (`DOB` in a template message) is no date of anyone.
          if (segment === 'PID' && field === 7 && !/^\d/.test(value)) return;
          checked++;
          expect(after[index], `${name} ${segment}.${field}.${component}`).not.toBe(value);
          // A patient's family name is nowhere in the message any more, unless the original used the same word
          // elsewhere for something else (MSH-3 naming a system PROSOLV, a RADIOLOGY department).
          // As a whole word: a pseudonym may contain it (JOHN in JOHNSON).
          const word = new RegExp(`(^|[^A-Za-z])${value.replace(/[^A-Za-z0-9]/g, '.')}([^A-Za-z]|$)`);
          const familyName = segment === 'PID' && field === 5 && value.length >= 4 && !otherLines(text).includes(value);
          expect(familyName && word.test(output), `${name}: ${segment}.${field} value ${value} anywhere`).toBe(false);
        });
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it.skipIf(corpusDir('fhir') === undefined)('no original name, identifier, telecom, address or birth date is left in a FHIR resource', () => {
    let checked = 0;
    for (const name of corpusFiles('fhir')) {
      const text = readFileSync(join(corpusDir('fhir')!, name), 'utf8');
      const result = service.deidentify(text, 'fhir');
      if (name.startsWith('MALFORMED_not-a-FHIR')) continue;
      const before = fhirValues(JSON.parse(text.replace(/^\uFEFF/, '')));
      const after = fhirValues(JSON.parse(result.messageContent.replace(/^\uFEFF/, '')));
      expect(after.length, name).toBe(before.length);
      before.forEach(([path, value], index) => {
        if (value.length < 3) return;
        checked++;
        expect(after[index], `${name} ${path}`).not.toEqual([path, value]);
      });
    }
    expect(checked).toBeGreaterThan(50);
  });

  it.skipIf(corpusDir('ncpdp') === undefined)('no original patient or prescriber value is left in an NCPDP message', () => {
    let checked = 0;
    for (const name of corpusFiles('ncpdp').filter((file) => file.endsWith('.xml'))) {
      const text = readFileSync(join(corpusDir('ncpdp')!, name), 'utf8');
      const output = service.deidentify(text, 'ncpdp').messageContent;
      const before = scriptValues(text);
      const after = scriptValues(output);
      expect(after.length, name).toBe(before.length);
      before.forEach((value, index) => {
        checked++;
        expect(after[index], name).not.toBe(value);
      });
    }
    expect(checked).toBeGreaterThan(10);
  });

  it.skipIf(ncpdpTelecom === undefined)('no patient birth date is left in an NCPDP Telecom claim', () => {
    const text = readFileSync(join(corpusDir('ncpdp')!, ncpdpTelecom!), 'latin1');
    const dob = /\x1cC4(\d{8})/.exec(text)![1]!;
    expect(service.deidentify(text, 'ncpdp').messageContent).not.toContain(`\x1cC4${dob}`);
  });

  it.skipIf(corpusDir('hl7v2') === undefined)('the same patient gets the same replacement in every file, and in a new instance with the same key', () => {
    const byPatient = new Map<string, Set<string>>();
    const other = createTestDeidentifier(standards);
    for (const name of corpusFiles('hl7v2')) {
      const text = readFileSync(join(corpusDir('hl7v2')!, name), 'utf8');
      const output = service.deidentify(text, 'hl7').messageContent;
      expect(other.deidentify(text, 'hl7').messageContent).toBe(output);
      const ids = hl7Values(text, 'PID', 3, 1).map((id, index) => `${id}^${hl7Values(text, 'PID', 3, 4)[index]}`);
      const families = hl7Values(text, 'PID', 5, 1);
      const newFamilies = hl7Values(output, 'PID', 5, 1);
      const births = hl7Values(output, 'PID', 7, 0);
      ids.slice(0, 1).forEach((id) => {
        if (!id || !families[0]) return;
        const key = `${id}|${families[0]}`;
        byPatient.set(key, (byPatient.get(key) ?? new Set()).add(`${newFamilies[0]}|${births[0]}`));
      });
    }
    const repeated = [...byPatient.entries()];
    expect(repeated.length).toBeGreaterThan(5);
    for (const [, replacements] of repeated) expect(replacements.size).toBe(1);
    // The same name in two unrelated messages maps to the same pseudonym (a feed still traces).
    const a = service.deidentify('MSH|^~\\&|A|B|C|D|20250101||ADT^A08|1|P|2.5.1\rPID|1||111^^^H^MR||TESTPERSON^ANNA||19700101\r', 'hl7');
    const b = service.deidentify('MSH|^~\\&|X|Y|Z|W|20250202||ADT^A03|2|P|2.5.1\rPID|1||111^^^H^MR||TESTPERSON^ANNA||19700101\r', 'hl7');
    expect(hl7Values(a.messageContent, 'PID', 5, 1)).toEqual(hl7Values(b.messageContent, 'PID', 5, 1));
    expect(hl7Values(a.messageContent, 'PID', 7, 0)).toEqual(hl7Values(b.messageContent, 'PID', 7, 0));
    expect(hl7Values(a.messageContent, 'PID', 3, 1)).toEqual(hl7Values(b.messageContent, 'PID', 3, 1));
    // Another key, another mapping: the pseudonyms are keyed, not a plain hash of the value.
    const rekeyed = createTestDeidentifier(standards, Buffer.alloc(32, 9)).deidentify(a.messageContent.length ? 'MSH|^~\\&|A|B|C|D|20250101||ADT^A08|1|P|2.5.1\rPID|1||111^^^H^MR||TESTPERSON^ANNA||19700101\r' : '', 'hl7');
    expect(rekeyed.messageContent).not.toBe(a.messageContent);
  });
});

describe('Z-segments', () => {
  const message = [
    'MSH|^~\\&|ACMEHIS|ACME|LAB|ACME|20250615120000||ADT^A01^ADT_A01|Z1|P|2.5',
    'PID|1||ZMRN4411^^^ACME^MR||PARKINSON^OPHELIA||19720304|F',
    'ZPI|1|PARKINSON^OPHELIA^JANE|Y|20240102',
    'ZVN|1|Called the patient OPHELIA PARKINSON at home|555123^MORRISON^DELPHINE',
    'ZXX|1|PARKINSON OPHELIA',
  ].join('\r');

  it('replaces the fields of Z-segments a profile pack defines by their data types, and redacts the others', () => {
    const result = service.deidentify(message, 'hl7');
    const lines = result.messageContent.split('\r');
    expect(lines[2]).not.toMatch(/PARKINSON|OPHELIA|20240102/);
    expect(lines[2]!.split('|')[3]).toBe('Y');
    expect(lines[3]).not.toMatch(/PARKINSON|OPHELIA|MORRISON|DELPHINE/);
    expect(result.report.replacements).toContainEqual({ path: 'ZVN.2', kind: 'freeText', count: 1 });
    // Unknown means redacted: a same-shape placeholder, its path named for an analyst to mark safe.
    expect(lines[4]).toMatch(/^ZXX\|\d\|[A-Z]{9} [A-Z]{7}$/);
    expect(lines[4]).not.toMatch(/PARKINSON|OPHELIA/);
    expect(result.report.redacted).toEqual(['ZXX.1', 'ZXX.2']);
  });
});
