/**
 * HL7 v2 batch envelopes through the real bridge: a file is [FHS] {[BHS] {MSH...} [BTS]} [FTS]. Each defect of the
 * envelope is an error in both modes, named at the envelope segment that carries it; a sound envelope adds nothing.
 */
import { describe, expect, it } from 'vitest';
import { bridgeValidation, type ValidationFinding } from '../helpers/bridge-validation.ts';

const HEADER_FIELDS = '|^~\\&|SND|FAC|RCV|RFAC|20250101120000';

function message(controlId: string): string {
  return [
    `MSH|^~\\&|SND|FAC|RCV|RFAC|20250101120000||ADT^A08^ADT_A01|${controlId}|P|2.5.1`,
    'EVN|A08|20250101120000',
    `PID|1||${controlId}^^^FAC^MR||DOE^JANE||19800101|F`,
    'PV1|1|I',
  ].join('\r');
}

function file(...lines: string[]): string {
  return lines.join('\r');
}

const bridge = bridgeValidation();

function validate(content: string, mode: 'strict' | 'compatibility') {
  return bridge.validate({ messageContent: content, standard: 'hl7', mode });
}

const envelopeErrors = (errors: ValidationFinding[]): string[] => errors.filter((e) => e.code === 'BATCH_ENVELOPE_INVALID').map((e) => e.field);

describe('HL7 v2 batch envelopes', () => {
  it('accepts a sound file of two batches in both modes', async () => {
    const content = file(`FHS${HEADER_FIELDS}`, `BHS${HEADER_FIELDS}`, message('A1'), message('A2'), 'BTS|2', `BHS${HEADER_FIELDS}`, message('B1'), 'BTS|1', 'FTS|2');
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = await validate(content, mode);
      expect(result.errors).toEqual([]);
      expect(result.isValid).toBe(true);
    }
  });

  const defects: Array<{ name: string; content: string; at: string[]; says: RegExp }> = [
    {
      name: 'a batch count that disagrees with its messages',
      content: file(`BHS${HEADER_FIELDS}`, message('A1'), message('A2'), 'BTS|3'),
      at: ['BTS.1'],
      says: /BTS\.1 says 3 message\(s\) in its batch but there are 2/,
    },
    {
      name: 'a file count that disagrees with its batches',
      content: file(`FHS${HEADER_FIELDS}`, `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', 'FTS|2'),
      at: ['FTS.1'],
      says: /FTS\.1 says 2 batch\(es\) in the file but there is 1/,
    },
    {
      name: 'a batch without its trailer',
      content: file(`FHS${HEADER_FIELDS}`, `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', `BHS${HEADER_FIELDS}`, message('B1'), 'FTS|2'),
      at: ['BTS[2]'],
      says: /has no BTS/,
    },
    {
      name: 'a file header without its trailer',
      content: file(`FHS${HEADER_FIELDS}`, `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1'),
      at: ['FTS'],
      says: /no FTS/,
    },
    {
      name: 'a file trailer without its header',
      content: file(`BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', 'FTS|1'),
      at: ['FHS'],
      says: /no FHS/,
    },
    {
      name: 'a second file header',
      content: file(`FHS${HEADER_FIELDS}`, `FHS${HEADER_FIELDS}`, `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', 'FTS|1'),
      at: ['line 2'],
      says: /second FHS/,
    },
    {
      name: 'a message outside any batch of a batched file',
      content: file(`BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', message('A2')),
      at: ['MSH'],
      says: /outside any BHS/,
    },
    {
      name: 'an HD of too many components in the file header',
      content: file('FHS|^~\\&|SND^1.2.3^ISO^EXTRA|FAC|RCV|RFAC|20250101120000', `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', 'FTS|1'),
      at: ['FHS.3'],
      says: /FHS\.3 \(.+\) has 4 components but its data type HD has 3/,
    },
  ];

  for (const defect of defects) {
    it(`reports ${defect.name} at its segment in both modes`, async () => {
      for (const mode of ['strict', 'compatibility'] as const) {
        const result = await validate(defect.content, mode);
        expect(result.isValid).toBe(false);
        expect(envelopeErrors(result.errors)).toEqual(defect.at);
        expect(result.errors.find((e) => e.code === 'BATCH_ENVELOPE_INVALID')?.message).toMatch(defect.says);
      }
    });
  }

  it('checks envelope fields against their definitions like MSH fields', async () => {
    const content = file('FHS|^~\\&|SND|FAC|RCV|RFAC|2025130112', `BHS${HEADER_FIELDS}`, message('A1'), 'BTS|1', 'FTS|1');
    const result = await validate(content, 'strict');
    expect(result.isValid).toBe(false);
    expect(result.errors.some((e) => /^FHS\.7\b/.test(e.field) && e.code === 'INVALID_DATE')).toBe(true);
  });
});
