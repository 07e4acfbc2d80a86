/**
 * Measures how validation time grows when a message doubles along one dimension, for every standard with and
 * without a profile. Run as a process of its own (see {@link SCALING_NODE_FLAGS}), it prints one JSON line per case:
 * `{"name", "count", "ratio", "ratios"}`.
 *
 * The measurement is built to survive a shared, loaded machine: the engines are called directly (no HTTP); each run
 * starts after a forced garbage collection; sizes are calibrated on warm code until one run takes tens of
 * milliseconds and the message is large enough for a rescan to dominate, yet small enough for the live parse tree to
 * stay inside the fixed young generation; the two sizes alternate over several rounds after a warm-up; the ratio of
 * the medians or of the fastest runs (other work on the machine only ever adds time) is kept, and a ratio over the
 * limit is measured again. A quadratic check gives about 4 by either measure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../kernel/config-loader.ts';
import { discoverProfilePacks } from '../../kernel/standards/profile-packs.ts';
import type { StandardAdapter } from '../../kernel/standards-registry.ts';
import { createFhirAdapter } from '../../plugins/fhir-standard/fhir-adapter.ts';
import { createHl7Adapter } from '../../plugins/hl7-standard/hl7-adapter.ts';
import { loadHl7Profiles } from '../../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { createNcpdpAdapter } from '../../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { loadNcpdpProfiles } from '../../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../../plugins/synthetic-data/synthetic-random.ts';
import {
  fhirBundleEntryCount,
  fhirRepetitionCount,
  hl7FieldCount,
  hl7MessageCount,
  hl7ObservationCount,
  hl7RepetitionCount,
  hl7ZSegmentCount,
  NCPDP_SCALING_PROFILES,
  type ScalingMessage,
  scriptElementCount,
} from './scaling-messages.ts';

/**
 * Most a doubled message may multiply the time by: linear work is 2 and a rescan of earlier work gives about 4; the
 * margin above 2.5 absorbs what other work on a shared 2-core machine adds to one measurement.
 */
export const SCALING_LIMIT = 3;

/**
 * Flags of the measuring process: a fixed young generation. V8 otherwise sizes it as the heap grows, and a parse
 * tree that outgrows it makes each collection copy more than the last, which looks like a slow algorithm and is not.
 */
export const SCALING_NODE_FLAGS = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

/** Time one run of the smaller message should take at least, so timer and scheduling noise stay small. */
const MIN_RUN_MS = 20;
/** Size the smaller message should reach while a run stays under {@link MAX_RUN_MS}: a rescan must be able to show. */
const MIN_SMALL_CHARS = 100_000;
const MAX_RUN_MS = 150;
/** Largest smaller message, in characters: its parse tree stays well inside the young generation. */
const MAX_SMALL_CHARS = 200_000;
/** Alternating rounds per measurement, and measurements before a ratio over the limit is final. */
const ROUNDS = 5;
const ATTEMPTS = 5;

/** One dimension a message grows along, for one standard, with or without a profile. */
export interface ScalingCase {
  name: string;
  standard: 'hl7' | 'fhir' | 'ncpdp';
  build: ScalingMessage;
  /** Count of the growing part to start calibrating from. */
  start: number;
  profile?: string;
}

/** What a measurement found. */
export interface ScalingResult {
  name: string;
  /** Count of the growing part in the smaller message. */
  count: number;
  /** The best ratio measured (doubled time / single time). */
  ratio: number;
  ratios: number[];
}

function telecomBatch(adapter: StandardAdapter): ScalingMessage {
  return (count) => adapter.generate({ messageType: 'Batch', count, seed: 20250615 })[0] as string;
}

function caseName(standard: string, growing: string, profile?: string): string {
  return `${standard}: doubling the ${growing} (${profile ? `profile ${profile}` : 'no profile'})`;
}

/** Every case, each dimension with and without a profile. */
export function scalingCases(adapters?: Record<ScalingCase['standard'], StandardAdapter>): ScalingCase[] {
  const batch = adapters ? telecomBatch(adapters.ncpdp) : () => '';
  const dimensions: Array<[ScalingCase['standard'], string, ScalingMessage, number, string]> = [
    ['hl7', 'OBX segments', hl7ObservationCount, 200, 'cdc-elr-oru-r01'],
    ['hl7', 'Z-segments', hl7ZSegmentCount, 400, 'acme-adt'],
    ['hl7', 'fields of a segment', hl7FieldCount, 2000, 'acme-adt'],
    ['hl7', 'field repetitions', hl7RepetitionCount, 400, 'acme-adt'],
    ['hl7', 'messages of a batch', hl7MessageCount, 100, 'acme-adt'],
    ['fhir', 'Bundle entries', fhirBundleEntryCount, 5, 'us-core-patient'],
    ['fhir', 'repeated elements', fhirRepetitionCount, 20, 'us-core-patient'],
    ['ncpdp', 'SCRIPT elements', scriptElementCount, 100, 'scaling-newrx'],
    ['ncpdp', 'claims of a batch file', batch, 20, 'scaling-b1'],
  ];
  return dimensions.flatMap(([standard, growing, build, start, profile]) => [
    { name: caseName(standard, growing), standard, build, start },
    { name: caseName(standard, growing, profile), standard, build, start, profile },
  ]);
}

/** The adapters, with the shipped profile packs and the NCPDP scaling profiles (written to a temp folder). */
function createAdapters(folder: string): Record<ScalingCase['standard'], StandardAdapter> {
  const synthetic = createSyntheticDataService();
  const packs = discoverProfilePacks([resolve(projectRoot, 'profiles')]).packs;
  const files = NCPDP_SCALING_PROFILES.map((profile) => {
    const file = join(folder, `${profile.name}.json`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  });
  const ncpdpPack = { manifest: { id: 'scaling', version: '1.0.0', description: 'scaling rules', standard: 'ncpdp' }, directory: folder, files };
  return {
    hl7: createHl7Adapter({ synthetic, profiles: loadHl7Profiles(packs) }),
    fhir: createFhirAdapter({ profilePacks: packs }),
    ncpdp: createNcpdpAdapter({ synthetic, profiles: loadNcpdpProfiles([ncpdpPack]).profiles }),
  };
}

const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Milliseconds one validation takes, after a collection of what earlier runs left. */
function runMs(validate: () => unknown): number {
  collectGarbage();
  const start = performance.now();
  validate();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The smaller of the ratio of the medians and the ratio of the fastest runs, over alternating rounds. */
function measureRatio(validate: (content: string) => unknown, small: string, large: string): number {
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    smallTimes.push(runMs(() => validate(small)));
    largeTimes.push(runMs(() => validate(large)));
  }
  return Math.min(median(largeTimes) / median(smallTimes), Math.min(...largeTimes) / Math.min(...smallTimes));
}

/** Measures one case. */
export function measureScaling(c: ScalingCase, adapter: StandardAdapter): ScalingResult {
  const validate = (content: string) => adapter.validate(content, { mode: 'strict', ...(c.profile ? { profile: c.profile } : {}) });
  let count = c.start;
  let small = c.build(count);
  for (let i = 0; i < 5; i++) validate(small);
  const typicalMs = () => median([runMs(() => validate(small)), runMs(() => validate(small)), runMs(() => validate(small))]);
  const worthGrowing = (ms: number) => ms < MIN_RUN_MS || (small.length < MIN_SMALL_CHARS && ms < MAX_RUN_MS);
  for (let i = 0; i < 12 && small.length * 2 <= MAX_SMALL_CHARS && worthGrowing(typicalMs()); i++) {
    count *= 2;
    small = c.build(count);
  }
  const large = c.build(2 * count);
  const grown = large.length / small.length;
  if (grown < 1.8 || grown > 2.2) throw new Error(`${c.name}: the doubled message is ${grown.toFixed(2)} times as long, not twice`);
  for (let i = 0; i < 2; i++) {
    validate(small);
    validate(large);
  }
  const ratios: number[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    ratios.push(measureRatio(validate, small, large));
    if ((ratios.at(-1) as number) <= SCALING_LIMIT) break;
  }
  return { name: c.name, count, ratio: Math.min(...ratios), ratios };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = mkdtempSync(join(tmpdir(), 'validation-scaling-'));
  try {
    const adapters = createAdapters(folder);
    const only = process.argv.slice(2);
    for (const c of scalingCases(adapters)) {
      if (only.length > 0 && !only.includes(c.name)) continue;
      process.stdout.write(`${JSON.stringify(measureScaling(c, adapters[c.standard]))}\n`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
