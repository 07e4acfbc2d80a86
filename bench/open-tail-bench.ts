/**
 * What finding an open last message costs (the check the monitor runs on a file whose last message failed, to hold
 * it for its writer): each standard's check beside parsing the same content, the least any reading of it does. HL7: a
 * batch of 1,000 ADT^A01 messages whose last one stops mid-segment, beside parseHl7. FHIR: 1,000 NDJSON Patient lines
 * whose last one stops mid-line (the check scans every byte), beside JSON.parse of each line. NCPDP: a batch whose last
 * detail record has no ETX, beside splitting its records. Rounds alternate both sides; the median of each counts.
 * Goal: the check costs at most half the parse (it runs only for a file whose last message failed, whose reading
 * validated every message besides parsing it).
 */
import { fhirCompleteLength } from '../plugins/fhir-standard/fhir-open-tail.ts';
import { generateHl7Messages } from '../plugins/hl7-standard/generation/hl7-generator.ts';
import { hl7CompleteLength } from '../plugins/hl7-standard/reading/hl7-open-tail.ts';
import { parseHl7 } from '../plugins/hl7-standard/parsing/hl7-parser.ts';
import { splitNcpdpBatch, writeNcpdpBatch } from '../plugins/ncpdp-standard/telecom/ncpdp-batch.ts';
import { ncpdpCompleteLength } from '../plugins/ncpdp-standard/ncpdp-open-tail.ts';
import { createNcpdpAdapter } from '../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';

const ROUNDS = 9;
const ROUND_MS = 150;

/** Median milliseconds per call of each side, measured in alternating rounds. */
function compare(check: () => number, peer: () => number): { checkMs: number; peerMs: number } {
  let sink = 0;
  const perCall = (work: () => number): number => {
    const start = performance.now();
    let calls = 0;
    while (performance.now() - start < ROUND_MS) {
      sink += work();
      calls++;
    }
    return (performance.now() - start) / calls;
  };
  perCall(check);
  perCall(peer);
  const checks: number[] = [];
  const peers: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    checks.push(perCall(check));
    peers.push(perCall(peer));
  }
  if (sink === Number.MIN_SAFE_INTEGER) console.log(sink);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { checkMs: median(checks), peerMs: median(peers) };
}

/** Runs the bench and returns its figures (ms per file and the check's share of the parse). */
export async function runOpenTailBench(): Promise<Record<string, number>> {
  const synthetic = createSyntheticDataService();
  const hl7Messages = generateHl7Messages({ messageType: 'ADT^A01', version: '2.5', count: 1000, seed: 20250615 }, { synthetic });
  const hl7Text = hl7Messages.join('\r');
  const hl7 = Buffer.from(hl7Text.slice(0, hl7Text.length - 40));

  const patients = Array.from({ length: 1000 }, (_, i) =>
    JSON.stringify({ resourceType: 'Patient', id: `p${i}`, identifier: [{ system: 'urn:oid:7.7', value: `ID${i}` }], name: [{ family: 'Doe', given: ['Jane'] }] }),
  );
  const ndjsonText = patients.join('\n');
  const ndjson = Buffer.from(ndjsonText.slice(0, ndjsonText.length - 20));
  const ndjsonLines = ndjsonText.split('\n').slice(0, -1);

  const claims = createNcpdpAdapter({ synthetic }).generate({ messageType: 'B1', count: 200, seed: 7 });
  const batchText = writeNcpdpBatch({
    senderId: 'SWITCH01',
    receiverId: 'PBM01',
    batchNumber: 1,
    creationDate: '20260301',
    creationTime: '0930',
    fileType: 'T',
    transactions: claims.map((transaction, i) => ({ reference: `REF${i}`, transaction })),
  });
  const cutBatchText = batchText.slice(0, batchText.lastIndexOf('\x02G1') + 40);
  const batch = Buffer.from(cutBatchText);

  const figures: Record<string, number> = {};
  const sides: Array<[string, () => number, () => number, string]> = [
    ['hl7', () => hl7CompleteLength(hl7), () => parseHl7(hl7).messages.length, `${hl7Messages.length} messages, parseHl7`],
    ['fhir', () => fhirCompleteLength(ndjson), () => ndjsonLines.reduce((n, line) => n + (JSON.parse(line) ? 1 : 0), 0), `${patients.length} NDJSON lines, JSON.parse`],
    ['ncpdp', () => ncpdpCompleteLength(batch), () => splitNcpdpBatch(cutBatchText).records.length, `${claims.length} batch records, splitNcpdpBatch`],
  ];
  for (const [name, check, peer, what] of sides) {
    const { checkMs, peerMs } = compare(check, peer);
    const ratio = checkMs / peerMs;
    console.log(`${name} open-tail check: ${checkMs.toFixed(4)} ms | parse (${what}) ${peerMs.toFixed(3)} ms | ratio ${ratio.toPrecision(3)}x (goal <= 0.5)`);
    figures[`${name}_open_tail_check_ms`] = Number(checkMs.toFixed(4));
    figures[`${name}_open_tail_parse_ms`] = Number(peerMs.toFixed(3));
    figures[`${name}_open_tail_ratio`] = Number(ratio.toPrecision(3));
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runOpenTailBench()));
}
