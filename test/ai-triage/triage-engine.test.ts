// The offline triage engine on the shared corpus (skipped with a notice when absent) and on the real-world causes the
// knowledge base names: expected categories and fields, the validator's own findings passed back as strings, and
// unreadable content triaged as a parse failure.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { corpusDir, corpusFiles } from '../helpers/shared-corpus.ts';
import { parseFindingText } from '../../plugins/ai-triage/triage/triage-engine.ts';
import { detectSignals } from '../../plugins/ai-triage/triage/message-signals.ts';
import { createTriage } from './triage-helpers.ts';

const { engine, standards, base } = createTriage();

/** Corpus files whose trouble is known, with the category and a field triage must name. */
const EXPECTED: Array<[folder: 'hl7v2' | 'fhir' | 'ncpdp', file: string, category: string, field: string | null]> = [
  ['hl7v2', 'MALFORMED_missing-MSH9_v2.5.1__cdc-ti.hl7', 'structure', 'MSH.9'],
  ['hl7v2', 'MALFORMED_missing-MSH2-encoding-chars_v2.5.1__cdc-ti.hl7', 'encoding-delimiters', null],
  ['hl7v2', 'MALFORMED_missing-MSH10_v2.5.1__cdc-ti.hl7', 'missing-data', 'MSH.10'],
  ['hl7v2', 'MALFORMED_ORM_O01_v2.5.1_OBX5-not-numeric__cdc-ti.hl7', 'data-type', 'OBX.5'],
  ['hl7v2', 'ADT_A01_v2.5.1__fhirconverter_ADT01-28.hl7', 'encoding-delimiters', null],
  ['fhir', 'MALFORMED_not-a-FHIR-resource_custom-patient-JSON__fhirconverter_ExamplePatient.json', 'structure', null],
  ['ncpdp', 'MALFORMED_SCRIPT_NewRx_2021071__mcode-pims_data.xml', 'parse-failure', null],
];

const ADT = (pid: string, extra = '') =>
  ['MSH|^~\\&|REG|HOSP|LAB|HOSP|20250615120000+0000||ADT^A01^ADT_A01|MSG1|P|2.5.1', 'EVN||20250615120000+0000', pid, 'PV1|1|I|2000^2012^01', extra]
    .filter(Boolean)
    .join('\r');

describe('triage of the shared corpus', () => {
  for (const [folder, file, category, field] of EXPECTED) {
    it.skipIf(corpusDir(folder) === undefined)(`${file}: ${category}${field ? ` at ${field}` : ''}`, async () => {
      const content = readFileSync(join(corpusDir(folder)!, file), 'utf8');
      const result = await engine.triage({ content });
      expect(result.category).toBe(category);
      expect(result.engine).toBe('rules');
      // a case naming no field asks for none in particular
      expect(field ? result.affectedFields.map((item) => item.path) : [field]).toContain(field);
      expect(result.suggestedFixes.length).toBeGreaterThan(0);
      expect(result.suggestedFixes[0]!.order).toBe(1);
      expect(result.confidence).toBeGreaterThan(0);
      expect(result.confidence).toBeLessThanOrEqual(1);
    });
  }

  it.skipIf(corpusDir('hl7v2') === undefined)("triages the validator's own findings, sent back as strings, to the same category", async () => {
    let compared = 0;
    for (const file of corpusFiles('hl7v2')) {
      const content = readFileSync(join(corpusDir('hl7v2')!, file), 'utf8');
      const validation = standards.get('hl7')!.validate(content, { mode: 'compatibility' });
      if (validation.errors.length === 0) continue;
      const strings = validation.errors.map((issue) => `${issue.field} ${issue.code}: ${issue.message}`);
      const fromStrings = await engine.triage({ content, validationErrors: strings });
      const own = await engine.triage({ content });
      expect({ file, category: fromStrings.category, entry: fromStrings.knowledgeEntry }).toEqual({ file, category: own.category, entry: own.knowledgeEntry });
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it.skipIf(corpusDir('hl7v2') === undefined)('answers every corpus message with a category, fixes and no value of the message', async () => {
    const files = corpusFiles('hl7v2');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const content = readFileSync(join(corpusDir('hl7v2')!, file), 'utf8');
      const result = await engine.triage({ content });
      expect(result.suggestedFixes.length, file).toBeGreaterThan(0);
      const pid = content.split(/\r\n|\r|\n/).find((line) => line.startsWith('PID|'));
      const family = pid?.split('|')[5]?.split('^')[0] ?? '';
      // a family name under four letters is too short to tell from other text
      expect(JSON.stringify(result), file).not.toContain(family.length >= 4 ? family : '\u0000');
    }
  });
});

describe('triage of real-world causes', () => {
  const cases: Array<[name: string, content: string, category: string, field: string | null, signal?: string]> = [
    ['a feed that stopped sending PID-5', ADT('PID|1||PATID1234^^^HOSP^MR||||19610615|M'), 'missing-data', 'PID.5', 'pid5-empty'],
    ['a local code where an HL7 table is required', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M||||||||||||||||||||||X'), 'wrong-code', 'PID.30'],
    ['fractional seconds without the dot', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M').replace('EVN||20250615120000+0000', 'EVN||20250615120000637'), 'date-time-format', 'EVN.2', 'fraction-without-dot'],
    ['LF instead of CR', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M').replace(/\r/g, '\n'), 'encoding-delimiters', null, 'lf-terminators'],
    ['MLLP framing left in a file', `\x0b${ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M')}\x1c\r`, 'encoding-delimiters', null, 'mllp-framing'],
    ['MSH-2 damaged by escaping', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M').replace('^~\\&', '^~\\&amp;'), 'encoding-delimiters', null, 'msh2-escaped'],
    ['a Z-segment after an upgrade', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M', 'ZPI|1|NEWFIELD'), 'version-mismatch', null, 'z-segment'],
    ['timestamps without a zone', ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M').replace(/\+0000/g, ''), 'date-time-format', null, 'timestamp-no-zone'],
  ];
  for (const [name, content, category, field, signal] of cases) {
    it(name, async () => {
      const result = await engine.triage({ content });
      expect(result.category).toBe(category);
      const named = result.affectedFields.some((item) => item.path === field || item.path.startsWith(`${field}.`));
      expect(field === null || named, JSON.stringify(result.affectedFields)).toBe(true);
      expect(signal === undefined || result.signals.includes(signal), JSON.stringify(result.signals)).toBe(true);
      expect(result.rootCause.length).toBeGreaterThan(10);
      expect(result.suggestedFixes.every((fix) => fix.field.length > 0 && ['sender', 'receiver'].includes(fix.side))).toBe(true);
    });
  }

  it('triages unreadable content as a parse failure', async () => {
    for (const content of ['', 'hello world', '{"not": "fhir"', '\x00\x01\x02']) {
      const result = await engine.triage({ content, validationErrors: ['PID.5 REQUIRED_FIELD_MISSING'] });
      expect(result.category, JSON.stringify(content)).toBe('parse-failure');
      expect(result.engine).toBe('rules');
    }
  });

  it('uses the interface context to pick a more specific entry when one is keyed by it', async () => {
    const content = ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M').replace('PV1|1|I|', 'PV1|1||');
    const plain = await engine.triage({ content, interfaceContext: 'ADT from registration' });
    const changed = await engine.triage({ content, interfaceContext: 'ADT from registration; vendor upgrade went live on Monday' });
    expect(plain.knowledgeEntry).toBe('hl7.required-field-missing');
    expect(changed.knowledgeEntry).toBe('hl7.required-field-missing.after-change');
    expect(changed.rootCause).toMatch(/PV1\.2 \(Patient Class\) has been empty since the change/);
    // A field-keyed entry is still more specific than a context-keyed one.
    const entry = base.match('hl7', { code: 'SEGMENT_UNEXPECTED', field: 'ZPI', messageType: 'ADT^A01', context: 'vendor upgrade last night', signals: new Set() });
    expect(entry?.id).toBe('hl7.segment-unexpected.z');
  });
});

describe('parsers of untrusted triage input (property tests)', () => {
  const codes = base.codes('hl7');
  it('reads any finding string without throwing, with a code and a bounded path', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), (text) => {
        const finding = parseFindingText(text, codes);
        expect(finding.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(finding.field.length).toBeLessThanOrEqual(500);
      }),
      { numRuns: 300 },
    );
  });

  it('detects signals in any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), fc.constantFrom('MSH|^~\\&|A|B|C|D|20250101||ADT^A01|1|P|2.5.1\r', ''), (tail, head) => {
        const signals = detectSignals('hl7', head + tail);
        for (const [name, where] of signals) expect(typeof name === 'string' && typeof where === 'string').toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('triages mutated corpus-like messages without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.nat(400), async (noise, at) => {
        const content = ADT('PID|1||PATID1234^^^HOSP^MR||EVERYMAN^ADAM||19610615|M');
        const mutated = content.slice(0, at) + noise + content.slice(at);
        const result = await engine.triage({ content: mutated });
        expect(result.suggestedFixes.length).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });
});
