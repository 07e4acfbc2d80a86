// Pinned outputs: the same key gives byte for byte the same de-identified messages, reports and needles. Generated
// HL7 v2 (with and without an NTE of free text), FHIR JSON and XML, and NCPDP messages, plus the PHI corpus, go
// through a de-identifier with a fixed key; the digest of everything it answered is pinned. A change to how any value
// is replaced changes a digest: speed work must leave them alone, a deliberate change of output updates them.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStandards, createTestDeidentifier } from './deid-helpers.ts';
import { FREE_TEXT_FORMS, d0Claim, fhirBundle, fhirXmlPatient, hl7Message, scriptNewRx } from './phi-corpus.ts';

const standards = createStandards();

/** Free text with the kinds the recognisers look for, as the bench appends it. */
const NOTE =
  'NTE|1||Spoke with Mrs. Rosalind Quenneville (daughter Mary Quenneville) on 06/15/2025 at 555-555-2004; MRN 88877766, ' +
  'lives at 4471 Larkspur Lane, Quillfeather NC 27401, e-mail rosalind.q@mail.example. Follow up in two weeks, BP 120/80.';

function generate(standard: string, types: readonly string[], count: number, version?: string): string[] {
  const adapter = standards.get(standard)!;
  return types.flatMap((messageType) => adapter.generate({ messageType, count, seed: 7, ...(version ? { version } : {}) }));
}

/** The digest of every answer for `messages` (content, report and needles), one service for the whole set. */
function digest(standard: 'hl7' | 'fhir' | 'ncpdp', messages: readonly string[]): string {
  const service = createTestDeidentifier(standards);
  const hash = createHash('sha256');
  for (const message of messages) hash.update(JSON.stringify(service.deidentify(message, standard))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

describe('de-identification output pinned for a fixed key', () => {
  // Birth dates more than 89 years back move into one year counted from today: today is fixed.
  beforeAll(() => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00Z'), toFake: ['Date'] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  const hl7 = generate('hl7', ['ADT^A01', 'ADT^A08', 'ORU^R01', 'ORM^O01'], 40, '2.5.1');

  it('HL7 v2, generated', () => {
    expect(digest('hl7', hl7)).toBe('59da9f8d389aa947');
  });

  it('HL7 v2 with an NTE of free text', () => {
    expect(digest('hl7', hl7.map((message) => `${message.replace(/[\r\n]+$/, '')}\r${NOTE}`))).toBe('107f37753ffa9ba0');
  });

  it('FHIR JSON, generated', () => {
    expect(digest('fhir', generate('fhir', ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'Bundle'], 15))).toBe('d2b0104205df196c');
  });

  it('NCPDP SCRIPT and D.0, generated', () => {
    expect(digest('ncpdp', generate('ncpdp', ['NewRx', 'RxRenewalRequest', 'B1'], 30))).toBe('f478aa780a602319');
  });

  it('the PHI corpus of every standard', () => {
    const texts = ['', ...FREE_TEXT_FORMS];
    expect([
      digest('hl7', texts.map(hl7Message)),
      digest('fhir', [...texts.map(fhirBundle), ...texts.map(fhirXmlPatient)]),
      digest('ncpdp', [...texts.map(scriptNewRx), ...texts.map(d0Claim)]),
    ]).toEqual(['ccef1dbd05519a09', '956456a44d99cd1f', '479ab4a800561103']);
  });
});
