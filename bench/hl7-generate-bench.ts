/**
 * HL7 v2 generation and diff throughput, each beside a ceiling measured in the same run on the same messages:
 * - generation of ADT^A01 v2.5 (scenario drawn from the synthetic-data service, segments built and fitted to the
 *   version, then encoded) beside encoding alone of the very same message trees — the part no generator can skip;
 * - diff of message pairs (a message against a copy with a new control ID, timestamp and name) beside parsing both
 *   sides alone, which every diff has to do first.
 */
import { diffHl7Messages } from '../plugins/hl7-standard/diff/hl7-diff.ts';
import { encodeHl7Message } from '../plugins/hl7-standard/parsing/hl7-encoder.ts';
import { generateHl7Messages } from '../plugins/hl7-standard/generation/hl7-generator.ts';
import { parseHl7 } from '../plugins/hl7-standard/parsing/hl7-parser.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';

const BATCH = 200;
const SEED = 20250615;
const SLICES = 6;
const SLICE_MS = 250;

/** Items per second of one slice: runs `round` (handling `perRound` items) for about `ms` milliseconds. */
function slice(perRound: number, round: () => unknown, ms: number): number {
  let items = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    round();
    items += perRound;
    elapsed = process.hrtime.bigint() - start;
  }
  return items / (Number(elapsed) / 1e9);
}

/**
 * Throughput of ours and of its ceiling, measured in alternating slices after a warm-up and keeping the best slice
 * of each, so a busy machine slows both alike and the ratio stays meaningful.
 */
function paired(ours: [number, () => unknown], ceiling: [number, () => unknown]): [number, number] {
  for (let i = 0; i < 2; i++) {
    ours[1]();
    ceiling[1]();
  }
  let bestOurs = 0;
  let bestCeiling = 0;
  for (let i = 0; i < SLICES; i++) {
    bestOurs = Math.max(bestOurs, slice(ours[0], ours[1], SLICE_MS));
    bestCeiling = Math.max(bestCeiling, slice(ceiling[0], ceiling[1], SLICE_MS));
  }
  return [Math.round(bestOurs), Math.round(bestCeiling)];
}

function format(n: number): string {
  return n.toLocaleString('en-US');
}

/** A copy of a message as a re-run of the same interface would send it: new control ID, time and one new name. */
function variantOf(message: string, i: number): string {
  const segments = message.split('\r');
  const msh = segments[0].split('|');
  msh[6] = '20250616080000';
  msh[9] = `RERUN${i}`;
  segments[0] = msh.join('|');
  const pid = segments.findIndex((s) => s.startsWith('PID|'));
  if (pid > 0) segments[pid] = segments[pid].replace(/\|([^|^]+)\^([^|^]+)\^/, '|$1^Changed^');
  return segments.join('\r');
}

/** Measures generation and diff throughput; returns the figures and prints one line per comparison. */
export async function runHl7GenerateBench(): Promise<Record<string, number>> {
  const synthetic = createSyntheticDataService();
  const options = { messageType: 'ADT^A01', version: '2.5', count: BATCH, seed: SEED };
  const messages = generateHl7Messages(options, { synthetic });
  const pairs = messages.map((m, i) => [m, variantOf(m, i)] as const);
  const ignore = { ignoredFields: ['MSH.7'] };
  const [diff, parseBoth] = paired(
    [
      pairs.length,
      () => {
        let total = 0;
        for (const [left, right] of pairs) total += diffHl7Messages(left, right, ignore).totalDifferences;
        return total;
      },
    ],
    [
      pairs.length,
      () => {
        let total = 0;
        for (const [left, right] of pairs) total += parseHl7(left).messages.length + parseHl7(right).messages.length;
        return total;
      },
    ],
  );

  // Parse trees are built only now: keeping many of them alive while the parser is being measured makes V8 pretenure
  // the parser's allocations, which would slow the diff ceiling far below what a service (short-lived trees) sees.
  const trees = messages.map((m) => parseHl7(m).messages[0]).filter((m) => m !== undefined);

  const [generate, encodeOnly] = paired([BATCH, () => generateHl7Messages(options, { synthetic })], [
    trees.length,
    () => {
      let length = 0;
      for (const tree of trees) length += encodeHl7Message(tree).length;
      return length;
    },
  ]);

  const generateRatio = generate / encodeOnly;
  const diffRatio = diff / parseBoth;
  console.log(
    `hl7 generate ADT^A01 v2.5: ours ${format(generate)} msg/s | encode-only ceiling ${format(encodeOnly)} msg/s | ratio ${generateRatio.toFixed(2)}x`,
  );
  console.log(`hl7 diff: ours ${format(diff)} pairs/s | parse-both-sides ceiling ${format(parseBoth)} pairs/s | ratio ${diffRatio.toFixed(2)}x`);
  return {
    hl7GenerateMessagesPerSecond: generate,
    hl7GenerateEncodeOnlyCeilingPerSecond: encodeOnly,
    hl7GenerateRatio: Number(generateRatio.toFixed(3)),
    hl7DiffPairsPerSecond: diff,
    hl7DiffParseBothCeilingPerSecond: parseBoth,
    hl7DiffRatio: Number(diffRatio.toFixed(3)),
  };
}
