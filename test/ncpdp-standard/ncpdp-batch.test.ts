/**
 * NCPDP Batch Standard 1.2 files: detected, split into STX/ETX records, each detail's D.0 transaction validated
 * with findings under its record number, header and trailer defects reported, compared and generated; through the
 * engine and the real HTTP interface.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitNcpdpBatch, writeNcpdpBatch } from '../../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
const claims = adapter.generate({ messageType: 'B1', count: 3, seed: 11 }) as string[];

function batchOf(transactions: string[], overrides: Partial<Parameters<typeof writeNcpdpBatch>[0]> = {}): string {
  return writeNcpdpBatch({
    senderId: 'PHARMACY0001',
    receiverId: 'PROCESSOR01',
    batchNumber: 42,
    creationDate: '20250615',
    creationTime: '1330',
    fileType: 'T',
    transactions: transactions.map((transaction, i) => ({ reference: `REF${i + 1}`, transaction })),
    ...overrides,
  });
}

function findings(content: string, mode: 'strict' | 'compatibility' = 'strict'): string[] {
  return adapter.validate(content, { mode }).errors.map((e) => `${e.code} ${e.field}`);
}

describe('a well-formed batch file', () => {
  const batch = batchOf(claims);

  it('is detected as NCPDP and split into header, details and trailer', () => {
    expect(adapter.detect(batch)).toBeGreaterThan(0.9);
    const file = splitNcpdpBatch(batch);
    expect(file.records.map((r) => r.type)).toEqual(['00', 'G1', 'G1', 'G1', '99']);
    expect(file.records.every((r) => r.closed)).toBe(true);
  });

  it('validates clean in both modes, one result per detail record', () => {
    for (const mode of ['strict', 'compatibility'] as const) {
      const result = adapter.validate(batch, { mode });
      expect(result.errors).toEqual([]);
      expect(result.messages?.map((m) => [m.index, m.controlId, m.messageType, m.isValid])).toEqual([
        [2, 'REF1', 'B1', true],
        [3, 'REF2', 'B1', true],
        [4, 'REF3', 'B1', true],
      ]);
      expect(result.summary).toMatchObject({ format: 'Batch', batchNumber: '0000042', fileType: 'test', records: 5, transactions: 3 });
    }
  });

  it('each claim alone validates the same way', () => {
    for (const claim of claims) expect(adapter.validate(claim, { mode: 'strict' }).errors).toEqual([]);
  });
});

describe('defects of a batch file', () => {
  it('a detail transaction defect carries the record number', () => {
    const broken = batchOf([claims[0] as string, (claims[1] as string).replace(/^(\d{6})D0/, '$151'), claims[2] as string]);
    const result = adapter.validate(broken, { mode: 'strict' });
    expect(result.errors.map((e) => `${e.code} ${e.field}`)).toEqual(['UNSUPPORTED_VERSION record[3].Header.A2']);
    expect(result.errors[0]?.message).toMatch(/^Record 3 \(transaction REF2\): /);
    expect(result.messages?.map((m) => m.isValid)).toEqual([true, false, true]);
  });

  it('header defects: blank sender, bad batch number, impossible date and time, unknown file type', () => {
    const batch = batchOf(claims.slice(0, 1))
      .replace('PHARMACY0001', '            ')
      .replace('0000042', '00004X2')
      .replace('202506151330T', '202502301375Q');
    expect(findings(batch)).toEqual([
      'REQUIRED_FIELD_MISSING record[1].SenderID',
      'INVALID_DATA_TYPE record[1].BatchNumber',
      'INVALID_DATE record[1].CreationDate',
      'INVALID_DATE record[1].CreationTime',
      'VALUE_NOT_IN_TABLE record[1].FileType',
      'CONSTRAINT_FAILED record[3].BatchNumber',
    ]);
  });

  it('trailer defects: record count mismatch, batch number differing from the header', () => {
    const batch = batchOf(claims).replace(/\x0299(\d{7})(\d{10})/, '\x029900000430000000009');
    expect(findings(batch)).toEqual(['CONSTRAINT_FAILED record[5].BatchNumber', 'CONSTRAINT_FAILED record[5].RecordCount']);
    const message = adapter.validate(batch, { mode: 'strict' }).errors[1]?.message;
    expect(message).toBe('Trailer record 5: Record Count is 9, but the file holds 5 records (header, 3 detail, trailer).');
  });

  it('framing defects: a record without ETX, text between records, no trailer, a repeated reference number', () => {
    const batch = batchOf(claims.slice(0, 2));
    const unclosed = batch.replace(/\x03\n\x02G1REF2/, '\n\x02G1REF2');
    expect(findings(unclosed)).toContain('PARSE_ERROR record[2]');
    expect(findings(batch.replace('\n\x02G1REF2', '\njunk\n\x02G1REF2'))).toEqual(['PARSE_ERROR record[2]']);
    expect(findings(batch.replace(/\n\x0299[^\x03]*\x03$/, ''))).toEqual(['SEGMENT_MISSING Trailer']);
    expect(findings(batch.replace('G1REF2', 'G1REF1'))).toEqual(['CONSTRAINT_FAILED record[3].TransactionReferenceNumber']);
    expect(findings(batch.replace(/\x02G1REF1[^\x03]*\x03\n\x02G1REF2[^\x03]*\x03\n/, ''))).toEqual([
      'CONSTRAINT_FAILED record[2].RecordCount',
      'SEGMENT_MISSING Detail',
    ]);
  });
});

describe('diff and generate', () => {
  it('compares by record: header fields and transaction paths under the record number', () => {
    const left = batchOf(claims);
    const right = batchOf(claims, { batchNumber: 43 }).replace('G1REF3', 'G1REF9');
    const result = adapter.diff(left, right, { ignoredFields: [] });
    expect(result.differences.map((d) => `${d.changeType} ${d.field}`)).toEqual([
      'modified record[1].BatchNumber',
      'modified record[4].TransactionReferenceNumber',
      'modified record[5].BatchNumber',
    ]);
    expect(adapter.diff(left, right, { ignoredFields: ['record[*].BatchNumber'] }).totalDifferences).toBe(1);
  });

  it('generates a batch of B1 claims that validates clean, reproducibly with a seed', () => {
    const [first] = adapter.generate({ messageType: 'Batch', count: 4, seed: 3 });
    const [again] = adapter.generate({ messageType: 'Batch', count: 4, seed: 3 });
    expect(again).toBe(first);
    const result = adapter.validate(first as string, { mode: 'strict' });
    expect(result.errors).toEqual([]);
    expect(result.messages).toHaveLength(4);
  });

  it('never throws on a mutated batch (property)', () => {
    const base = batchOf(claims.slice(0, 2));
    fc.assert(
      fc.property(fc.nat({ max: base.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 8 }), (at, cut, insert) => {
        const mutated = base.slice(0, at) + insert + base.slice(at + cut);
        const result = adapter.validate(mutated, { mode: 'strict' });
        expect(typeof result.isValid).toBe('boolean');
        adapter.diff(base, mutated.startsWith('\x0200') ? mutated : base, { ignoredFields: [] });
      }),
      { numRuns: 300 },
    );
  });
});

describe('batch files through HTTP', () => {
  const wb = useTestWorkbench();

  it('generates a batch and validates it by detection; a defect names its record', async () => {
    const generated = await wb.call('bridge', { method: 'POST', path: '/api/generate', body: { standard: 'ncpdp', messageType: 'Batch', version: 'D0', count: 2, seed: 9 } });
    expect(generated.status, JSON.stringify(generated.json)).toBe(200);
    const batch = generated.json.data[0] as string;
    const ok = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: batch } });
    expect(ok.status).toBe(200);
    expect(ok.json.data.standard).toBe('ncpdp');
    expect(ok.json.data.isValid).toBe(true);
    expect(ok.json.data.messages).toHaveLength(2);
    const bad = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: batch.replace(/(\x0200T.{24}\d{7}\d{8}\d{4})T/, '$1X') } });
    expect(bad.json.data.errors.map((e: { code: string; field: string }) => `${e.code} ${e.field}`)).toEqual(['VALUE_NOT_IN_TABLE record[1].FileType']);
  });
});
