/**
 * Findings of the NCPDP batch rules and of profile rules say what was expected and what was found: a batch through
 * `POST /api/validate`, a profile through the adapter's validate with the profile named.
 */
import { describe, expect, it } from 'vitest';
import { writeNcpdpBatch } from '../../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import type { NcpdpProfile } from '../../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import { useTestWorkbench } from '../helpers/test-workbench.ts';

interface Issue {
  field: string;
  code: string;
  expected?: string;
  actual?: string;
}

const profile: NcpdpProfile = {
  name: 'tight',
  pack: 'test',
  file: 'tight.json',
  required: ['AM01.CZ'],
  valueSets: { 'Header.A3': ['B2'] },
  maxLengths: { 'AM01.C4': 4 },
};
const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService(), profiles: [profile] });
const claims = adapter.generate({ messageType: 'B1', count: 2, seed: 5 }) as string[];

describe('expected and actual of NCPDP batch findings', () => {
  const wb = useTestWorkbench({}, 180_000);
  // Starting the workbench takes a while on a loaded machine.

  it('names the format, the codes and the count a batch breaks', async () => {
    const batch = writeNcpdpBatch({
      senderId: 'PHARMACY0001',
      receiverId: 'PROCESSOR01',
      batchNumber: 42,
      creationDate: '20250231',
      creationTime: '1330',
      fileType: 'T',
      transactions: claims.map((transaction) => ({ reference: 'REF1', transaction })),
    });
    const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body: { messageContent: batch, standard: 'ncpdp', mode: 'strict' } });
    expect(res.status).toBe(200);
    const list = [...res.json.data.errors, ...res.json.data.warnings] as Issue[];
    expect(list.find((i) => i.code === 'INVALID_DATE' && i.field === 'record[1].CreationDate')).toMatchObject({ expected: 'a real date, CCYYMMDD', actual: '20250231' });
    expect(list.find((i) => i.code === 'CONSTRAINT_FAILED' && i.field === 'record[3].TransactionReferenceNumber')).toMatchObject({
      expected: 'a reference no other record of the batch uses',
      actual: 'REF1, as record 2',
    });
    // The batch's own findings (header, trailer, detail records as such), not those of the transactions inside.
    const batchRules = list.filter((i) => /^(record\[\d+\](\.[A-Z][a-z]\w*)?|Trailer|Detail)$/.test(i.field));
    expect(batchRules.length).toBeGreaterThanOrEqual(2);
    for (const issue of batchRules) {
      expect(issue.expected, `${issue.code} ${issue.field}`).toBeDefined();
      expect(issue.actual, `${issue.code} ${issue.field}`).toBeDefined();
    }
  });
});

describe('expected and actual of NCPDP profile findings', () => {
  it('names the profile rule and what the message holds', () => {
    const result = adapter.validate(claims[0] as string, { mode: 'strict', profile: 'tight' });
    const list = [...result.errors, ...result.warnings] as Issue[];
    expect(list.find((i) => i.code === 'REQUIRED_FIELD_MISSING' && i.field === 'AM01.CZ')).toMatchObject({ expected: 'a value', actual: 'empty' });
    expect(list.find((i) => i.code === 'VALUE_NOT_IN_VALUE_SET' && i.field === 'Header.A3')).toMatchObject({ expected: 'one of B2', actual: 'B1' });
    expect(list.find((i) => i.code === 'FIELD_TOO_LONG' && i.field.endsWith('C4'))).toMatchObject({ expected: 'at most 4 characters', actual: '8 characters' });
  });
});
