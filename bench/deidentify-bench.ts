/**
 * De-identification speed (`npm run bench -- deidentify`), free-text scan on, beside our parse of the same messages
 * in the same run: HL7 v2 (generated ADT, ORU, ORM; and the same with an NTE of free text full of identifiers),
 * FHIR JSON (generated Patients, Observations, Bundles...) and NCPDP (SCRIPT NewRx and D.0 claims). Every patient is
 * new in the first pass (one keyed hash per value); the figures are the median of three passes over fresh
 * de-identifiers, so the caches start empty each time. Each rate is given twice: by wall time, and by this process's
 * CPU time (`process.cpuUsage` around the timed loop, which runs on one thread): on a shared, busy machine the
 * wall-time figure counts the moments the process waits for a core, the CPU-time one does not.
 */
import { resolve } from 'node:path';
import { StandardsRegistry, type StandardAdapter } from '../kernel/standards-registry.ts';
import { discoverProfilePacks } from '../kernel/standards/profile-packs.ts';
import { projectRoot } from '../kernel/project-root.ts';
import { createHl7Adapter } from '../plugins/hl7-standard/hl7-adapter.ts';
import { loadHl7Profiles } from '../plugins/hl7-standard/profiles/hl7-profiles.ts';
import { createFhirAdapter } from '../plugins/fhir-standard/fhir-adapter.ts';
import { createNcpdpAdapter } from '../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { loadNcpdpProfiles } from '../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';
import { createDeidentifier } from '../plugins/deidentify/deidentifier.ts';
import { loadZSegmentTypes } from '../plugins/deidentify/standards/z-segment-types.ts';
import { median, round } from './timing.ts';

/** Free text with the kinds the recognisers look for, appended to each HL7 message as an NTE in the second set. */
const NOTE =
  'NTE|1||Spoke with Mrs. Rosalind Quenneville (daughter Mary Quenneville) on 06/15/2025 at 555-555-2004; MRN 88877766, ' +
  'lives at 4471 Larkspur Lane, Quillfeather NC 27401, e-mail rosalind.q@mail.example. Follow up in two weeks, BP 120/80.';

function registry(): StandardsRegistry {
  const packs = discoverProfilePacks([resolve(projectRoot, 'profiles')]).packs;
  const synthetic = createSyntheticDataService();
  const standards = new StandardsRegistry();
  standards.register(createHl7Adapter({ synthetic, profiles: loadHl7Profiles(packs) }));
  standards.register(createFhirAdapter({ profilePacks: packs, synthetic }));
  standards.register(createNcpdpAdapter({ synthetic, profiles: loadNcpdpProfiles(packs).profiles }));
  return standards;
}

function generate(adapter: StandardAdapter, types: readonly string[], total: number, version?: string): string[] {
  const messages: string[] = [];
  for (let seed = 0; messages.length < total; seed++) {
    for (const messageType of types) messages.push(...adapter.generate({ messageType, count: 50, seed, ...(version ? { version } : {}) }));
  }
  return messages.slice(0, total);
}

/** Messages per second of wall time and of CPU time, and CPU microseconds per message. */
interface Rate {
  wall: number;
  cpu: number;
  cpuMicros: number;
}

/** {@link Rate} of `work` over `messages`: each figure the median of three passes. */
function rate(messages: readonly string[], work: (message: string) => void, fresh: () => void = () => {}): Rate {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    fresh();
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (const message of messages) work(message);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    walls.push(messages.length / seconds);
    cpus.push(messages.length / Math.max((cpu.user + cpu.system) / 1e6, 1e-6));
  }
  const cpu = median(cpus);
  return { wall: median(walls), cpu, cpuMicros: 1e6 / cpu };
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** Runs the section; returns its figures. */
export async function runDeidentifyBench(): Promise<Record<string, number>> {
  const standards = registry();
  const packs = discoverProfilePacks([resolve(projectRoot, 'profiles')]).packs;
  const zTypes = loadZSegmentTypes(packs);
  let deidentifier = createDeidentifier(standards, () => Buffer.alloc(32, 1), zTypes);
  const fresh = () => {
    deidentifier = createDeidentifier(standards, () => Buffer.alloc(32, 1), zTypes);
  };
  const sets: Array<[name: string, key: string, standard: 'hl7' | 'fhir' | 'ncpdp', messages: string[]]> = [];
  const hl7 = generate(standards.get('hl7')!, ['ADT^A01', 'ADT^A08', 'ORU^R01', 'ORM^O01'], 5_000, '2.5.1');
  sets.push(['HL7 v2, generated', 'hl7', 'hl7', hl7]);
  sets.push(['HL7 v2 with an NTE of free text full of identifiers', 'hl7FreeText', 'hl7', hl7.map((message) => `${message.replace(/[\r\n]+$/, '')}\r${NOTE}`)]);
  sets.push(['FHIR JSON, generated', 'fhir', 'fhir', generate(standards.get('fhir')!, ['Patient', 'Encounter', 'Observation', 'Condition', 'MedicationRequest', 'Bundle'], 1_000)]);
  sets.push(['NCPDP SCRIPT and D.0, generated', 'ncpdp', 'ncpdp', generate(standards.get('ncpdp')!, ['NewRx', 'RxRenewalRequest', 'B1'], 2_000)]);

  const figures: Record<string, number> = {};
  for (const [name, key, standard, messages] of sets) {
    const adapter = standards.get(standard)!;
    for (const message of messages.slice(0, 300)) {
      deidentifier.deidentify(message, standard);
      adapter.parse(message);
    }
    const ours = rate(messages, (message) => deidentifier.deidentify(message, standard), fresh);
    const parse = rate(messages, (message) => adapter.parse(message));
    const seen = rate(messages, (message) => deidentifier.deidentify(message, standard));
    const target = standard === 'hl7' ? ' (target >= 5,000 msg/s)' : '';
    console.log(
      `de-identification, ${name} (${count(messages.length)} messages): ours ${count(ours.wall)} msg/s, ` +
        `values already seen ${count(seen.wall)} msg/s | parsing them ${count(parse.wall)} msg/s | ` +
        `ratio ${(ours.wall / parse.wall).toFixed(2)}x${target}\n` +
        `  by CPU time: ours ${count(ours.cpu)} msg/s (${ours.cpuMicros.toFixed(1)} us CPU a message), ` +
        `values already seen ${count(seen.cpu)} msg/s (${seen.cpuMicros.toFixed(1)} us) | ` +
        `parsing them ${count(parse.cpu)} msg/s (${parse.cpuMicros.toFixed(1)} us) | ratio ${(ours.cpu / parse.cpu).toFixed(2)}x`,
    );
    figures[`${key}MsgPerSec`] = Math.round(ours.wall);
    figures[`${key}SeenMsgPerSec`] = Math.round(seen.wall);
    figures[`${key}ParseMsgPerSec`] = Math.round(parse.wall);
    figures[`${key}CpuMsgPerSec`] = Math.round(ours.cpu);
    figures[`${key}SeenCpuMsgPerSec`] = Math.round(seen.cpu);
    figures[`${key}ParseCpuMsgPerSec`] = Math.round(parse.cpu);
    figures[`${key}CpuMicrosPerMsg`] = round(ours.cpuMicros, 1);
    figures[`${key}ParseCpuMicrosPerMsg`] = round(parse.cpuMicros, 1);
  }
  return figures;
}
