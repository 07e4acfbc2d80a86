// The PHI corpus of our own (phi-corpus.ts) through POST /api/deidentify and `workbench deidentify`: identifiers
// planted in free text, coded text, base64, Z-segments, extensions, notes, ids, fullUrls, comments and D.0 fields of
// every standard, and by fast-check at random positions of random text; no planted value survives (compared
// normalised: `ROE, JANE` and `Jane Roe` both count), the output validates as the input did, and the mapping is the
// same across standards and runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorkbench, type TestWorkbench } from '../helpers/test-workbench.ts';
import { runCli } from '../helpers/cli-process.ts';
import { findNeedles } from '../../plugins/deidentify/replacement/needles.ts';
import { ninetyPlusYear } from '../../plugins/deidentify/replacement/date-shift.ts';
import { d0Claim, fhirBundle, fhirXmlPatient, FREE_TEXT_FORMS, hl7Message, PERSON, PLANTED, scriptNewRx } from './phi-corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'wb-phi-corpus-'));
const KEY = '5a'.repeat(32) + '\n';
writeFileSync(join(dir, 'deidentify.key'), KEY, { mode: 0o600 });

let server: TestWorkbench;
beforeAll(async () => {
  server = await startTestWorkbench({ config: { plugins: { deidentify: { keyFile: join(dir, 'deidentify.key') } } } });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const STANDARDS = [
  ['HL7 v2', 'hl7', hl7Message],
  ['FHIR JSON', 'fhir', fhirBundle],
  ['FHIR XML', 'fhir', fhirXmlPatient],
  ['NCPDP SCRIPT', 'ncpdp', scriptNewRx],
  ['NCPDP D.0', 'ncpdp', d0Claim],
] as const;

interface Deidentified {
  messageContent: string;
  report: { redacted: string[]; replacements: Array<{ path: string; kind: string }> };
}

async function deidentify(messageContent: string, standard: string): Promise<Deidentified> {
  const response = await server.call('bridge', { method: 'POST', path: '/api/deidentify', body: { messageContent, standard } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json.data;
}

async function validation(messageContent: string, standard: string): Promise<{ isValid: boolean; codes: string[] }> {
  const response = await server.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent, standard } });
  expect(response.status).toBe(200);
  const { isValid, errors } = response.json.data as { isValid: boolean; errors: Array<{ code: string }> };
  return { isValid, codes: [...new Set(errors.map((error) => error.code))].sort() };
}

/** The planted values still found in `text` (whole words, case- and punctuation-insensitive), each with its place. */
function survivors(text: string, planted: readonly string[] = PLANTED): string[] {
  const decoded = text.replace(/[A-Za-z0-9+/]{16,}={0,2}/g, (run) => `${run} ${Buffer.from(run, 'base64').toString('latin1')}`);
  return findNeedles(decoded, planted).map(({ start, end }) => decoded.slice(Math.max(0, start - 30), end + 10));
}

describe('the PHI corpus through POST /api/deidentify', () => {
  for (const [name, standard, build] of STANDARDS) {
    it(`${name}: no planted identifier survives anywhere, and the output validates as the input did`, async () => {
      const input = build(FREE_TEXT_FORMS.join('. '));
      expect(survivors(input).length).toBeGreaterThan(5);
      const result = await deidentify(input, standard);
      expect(survivors(result.messageContent)).toEqual([]);
      expect(await validation(result.messageContent, standard)).toEqual(await validation(input, standard));
      // The same input gives the same output (the mapping is keyed, not random).
      expect((await deidentify(input, standard)).messageContent).toBe(result.messageContent);
    });
  }

  it('redacts what it cannot classify and names each path', async () => {
    const hl7 = await deidentify(hl7Message('nothing here'), 'hl7');
    expect(hl7.report.redacted).toEqual(expect.arrayContaining(['ZPI.5', 'ZPI.6', 'ZXX.1', 'ZXX.2', 'ZXX.3']));
    const fhir = await deidentify(fhirBundle('nothing here'), 'fhir');
    expect(fhir.report.redacted.some((path) => path.includes('extension(http://vendor.example/fhir/note)'))).toBe(true);
  });

  it('keeps Safe Harbor: one date shift per patient across standards, 90+ birth years, three-digit ZIPs, one pseudonym per value', async () => {
    const hl7 = (await deidentify(hl7Message('x'), 'hl7')).messageContent;
    const fhir = JSON.parse((await deidentify(fhirBundle('x'), 'fhir')).messageContent);
    const xml = (await deidentify(fhirXmlPatient('x'), 'fhir')).messageContent;
    const script = (await deidentify(scriptNewRx('x'), 'ncpdp')).messageContent;
    const d0 = (await deidentify(d0Claim('x'), 'ncpdp')).messageContent;
    const pid = hl7.split('\r').find((line) => line.startsWith('PID'))!.split('|');
    const patient = fhir.entry[0].resource;
    const birth = patient.birthDate.replace(/-/g, '');
    expect(birth).not.toBe(PERSON.birthHl7);
    expect(pid[7]).toBe(birth);
    expect(xml).toContain(`<birthDate value="${patient.birthDate}"/>`);
    expect(script).toContain(`<Date>${patient.birthDate}</Date>`);
    expect(d0).toContain(`\x1cC4${birth}`);
    // meta.lastUpdated moves with the other dates; D.0's date written and header date of service too.
    expect(patient.meta.lastUpdated).not.toBe('2025-06-15T12:00:00Z');
    expect(d0).not.toContain('20250615');
    expect(d0).not.toContain('DE20250610');
    // One pseudonym per value: the MRN with the MR type code in HL7 and without a type in FHIR.
    expect(pid[3]!.split('^')[0]).toBe(patient.identifier[0].value);
    expect(pid[5]!.split('^')[0]).toBe(patient.name[0].family.toUpperCase());
    // ZIP to three digits.
    expect(patient.address[0].postalCode).toBe('27400');
    const restricted = await deidentify(hl7Message('x').replace(`^NC^${PERSON.zip}`, '^NH^03601'), 'hl7');
    expect(restricted.messageContent).toContain('^NH^00000');
    // A patient older than 89 is moved into the single 90-or-older year.
    const old = await deidentify(hl7Message('x').replace(`||${PERSON.birthHl7}|F`, '||19250301|F'), 'hl7');
    expect(old.messageContent).toContain(`||${ninetyPlusYear()}0101|F`);
    const oldFhir = JSON.parse((await deidentify(fhirBundle('x').replace(PERSON.birthIso, '1925-03-01'), 'fhir')).messageContent);
    expect(oldFhir.entry[0].resource.birthDate).toBe(`${ninetyPlusYear()}-01-01`);
  });
});

describe('planted identifiers at random places (fast-check, through HTTP)', () => {
  const word = fc.constantFrom('patient', 'reports', 'mild', 'pain', 'since', 'Tuesday', 'and', 'was', 'given', 'ibuprofen', 'follow', 'up', 'in', 'two', 'weeks', 'BP', '120/80', 'stable', 'called', 'about', 'results');
  const textWithPlant = fc
    .tuple(fc.array(word, { minLength: 0, maxLength: 25 }), fc.nat(), fc.constantFrom(...FREE_TEXT_FORMS), fc.constantFrom(' ', ', ', '; ', ' - ', '. '))
    .map(([words, at, plant, glue]) => {
      const position = at % (words.length + 1);
      return [...words.slice(0, position), plant, ...words.slice(position)].join(glue);
    });

  for (const [name, standard, build] of STANDARDS) {
    it(`${name}: no planted value survives, the output validates as the input did`, async () => {
      await fc.assert(
        fc.asyncProperty(textWithPlant, async (text) => {
          const input = build(text);
          const result = await deidentify(input, standard);
          expect(survivors(result.messageContent)).toEqual([]);
          expect(await validation(result.messageContent, standard)).toEqual(await validation(input, standard));
        }),
        { numRuns: 12 },
      );
    }, 120_000);
  }
});

describe('workbench deidentify on the PHI corpus', () => {
  it('writes copies in which no planted value survives, the same as the HTTP answer', async () => {
    const input = join(dir, 'in');
    mkdirSync(input, { recursive: true });
    const data = join(dir, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'deidentify.key'), KEY, { mode: 0o600 });
    const text = FREE_TEXT_FORMS.join('. ');
    const files: Array<[string, string, string]> = [
      ['a.hl7', hl7Message(text), 'hl7'],
      ['b.json', fhirBundle(text), 'fhir'],
      ['c.xml', scriptNewRx(text), 'ncpdp'],
    ];
    for (const [file, content] of files) writeFileSync(join(input, file), content);
    const run = runCli(data, 'deidentify', input, '--out', join(dir, 'out'));
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    for (const [file, content, standard] of files) {
      const written = readFileSync(join(dir, 'out', 'in', file), 'utf8');
      expect(survivors(written)).toEqual([]);
      expect(written).toBe((await deidentify(content, standard)).messageContent);
    }
  });
});
