/**
 * HL7 v2 parse and strict-validation throughput beside two peers, on the same 1,000 ADT^A01 v2.5 messages
 * (generated with a fixed seed: escapes, repetitions, 15 segments each).
 *
 * "Parse" means getting every value of every segment out of the text. @medplum/core splits eagerly (fields,
 * repetitions, components; no subcomponents, no escape decoding). hl7parser splits lazily on access and decodes
 * escapes when a leaf is read, so for it the measured work is create() plus reading every component.
 */
import { Hl7Message as MedplumHl7Message } from '@medplum/core';
import hl7parser from 'hl7parser';
import { generateHl7Messages } from '../plugins/hl7-standard/generation/hl7-generator.ts';
import { parseHl7 } from '../plugins/hl7-standard/parsing/hl7-parser.ts';
import { validateHl7 } from '../plugins/hl7-standard/validation/hl7-validator.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';

const MESSAGE_COUNT = 1000;
const SEED = 20250615;

/** Node interface of hl7parser, as far as this bench walks it. */
interface Hl7ParserNode {
  length: number;
  forEach(callback: (value: Hl7ParserNode, index: number) => void): void;
  toString(): string;
}

/**
 * Messages per second of each contender over all messages: a warm-up, then rounds in which every contender runs
 * once in turn (so background load hits them alike); the best round of each counts.
 */
function measureAll(messages: string[], contenders: Record<string, (message: string) => number>): Record<string, number> {
  let sink = 0;
  const best: Record<string, number> = {};
  for (const [name, work] of Object.entries(contenders)) {
    for (let i = 0; i < 2; i++) for (const m of messages) sink += work(m);
    best[name] = 0;
  }
  for (let round = 0; round < 6; round++) {
    for (const [name, work] of Object.entries(contenders)) {
      const start = process.hrtime.bigint();
      for (let pass = 0; pass < 2; pass++) for (const m of messages) sink += work(m);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      best[name] = Math.max(best[name] as number, Math.round((2 * messages.length) / seconds));
    }
  }
  if (sink === -1) console.log('unreachable');
  return best;
}

function oursFullTree(message: string): number {
  const parsed = parseHl7(message).messages[0];
  let count = 0;
  for (const segment of parsed?.segments ?? []) {
    for (const field of segment.fields) for (const rep of field) for (const comp of rep) count += comp.length;
  }
  return count;
}

function medplumFullTree(message: string): number {
  const parsed = MedplumHl7Message.parse(message);
  let count = 0;
  for (const segment of parsed.segments) {
    for (const field of segment.fields) for (const rep of field.components) count += rep.length;
  }
  return count;
}

function hl7parserFullTree(message: string): number {
  const parsed = hl7parser.create(message) as unknown as Hl7ParserNode;
  let count = 0;
  parsed.forEach((segment) => {
    segment.forEach((field) => {
      field.forEach((rep) => {
        rep.forEach((comp) => {
          count += comp.toString().length > 0 ? 1 : 0;
        });
      });
    });
  });
  return count;
}

function format(n: number): string {
  return n.toLocaleString('en-US');
}

/** Runs the HL7 bench and returns its figures (messages per second and ratios). */
export async function runHl7Bench(): Promise<Record<string, number>> {
  const synthetic = createSyntheticDataService();
  const messages = generateHl7Messages({ messageType: 'ADT^A01', version: '2.5', count: MESSAGE_COUNT, seed: SEED }, { synthetic });

  const figures = measureAll(messages, {
    ours: oursFullTree,
    medplum: medplumFullTree,
    hl7parser: hl7parserFullTree,
    strict: (m) => validateHl7(m, { mode: 'strict' }).errors.length + 1,
  });
  const ours = figures.ours as number;
  const medplum = figures.medplum as number;
  const peer2 = figures.hl7parser as number;
  const strict = figures.strict as number;
  const fasterPeer = Math.max(medplum, peer2);
  const parseRatio = ours / fasterPeer;
  const validateRatio = strict / fasterPeer;

  console.log(
    `hl7 parse: ours ${format(ours)} msg/s | @medplum/core ${format(medplum)} msg/s | hl7parser ${format(peer2)} msg/s | ratio ${parseRatio.toFixed(2)}x (goal >= 1.0)`,
  );
  console.log(
    `hl7 strict validation: ours ${format(strict)} msg/s | faster peer's parse ${format(fasterPeer)} msg/s | ratio ${validateRatio.toFixed(2)}x (goal >= 0.5)`,
  );
  return {
    hl7_parse_ours_msg_s: ours,
    hl7_parse_medplum_msg_s: medplum,
    hl7_parse_hl7parser_msg_s: peer2,
    hl7_parse_ratio: Number(parseRatio.toFixed(3)),
    hl7_validate_strict_msg_s: strict,
    hl7_validate_strict_ratio: Number(validateRatio.toFixed(3)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runHl7Bench();
}
