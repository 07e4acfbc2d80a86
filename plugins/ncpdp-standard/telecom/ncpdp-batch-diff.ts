/**
 * Flattens a Batch Standard file for comparison: header and trailer fields by record (`record[1].SenderID`), each
 * detail record's reference number and its D.0 transaction's paths under the record (`record[2].AM07.D2`).
 */
import type { BatchFile } from './ncpdp-batch.ts';
import { detailTransaction, flattenBatchRecordFields } from './ncpdp-batch.ts';
import { parseNcpdp } from '../ncpdp-parser.ts';
import { flattenMessage } from '../ncpdp-paths.ts';

/** Path-to-value map of a batch file, in file order. */
export function flattenNcpdpBatch(file: BatchFile): Map<string, string> {
  const values = new Map<string, string>();
  for (const record of file.records) {
    for (const [path, value] of flattenBatchRecordFields(record)) values.set(path, value);
    if (record.type !== 'G1' || record.number === 1) continue;
    const parsed = parseNcpdp(detailTransaction(record));
    if (!parsed.ok) {
      values.set(`record[${record.number}].transaction`, detailTransaction(record));
      continue;
    }
    for (const [path, value] of flattenMessage(parsed.message)) values.set(`record[${record.number}].${path}`, value);
  }
  return values;
}
