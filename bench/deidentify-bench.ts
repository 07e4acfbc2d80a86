/**
 * De-identification speed (`npm run bench -- deidentify`), free-text scan on, beside our parse of the same messages
 * in the same run: HL7 v2 (generated ADT, ORU, ORM; and the same with an NTE of free text full of identifiers),
 * FHIR JSON (generated Patients, Observations, Bundles...) and NCPDP (SCRIPT NewRx and D.0 claims). Every patient is
 * new in the first pass (one keyed hash per value); the figures are the median of three passes over fresh
 * de-identifiers, so the caches start empty each time.
 */
import { resolve } from 'node:path';
import { StandardsRegistry, type StandardAdapter } from '../kernel/standards-registry.ts';
import { discoverProfilePacks } from '../kernel/profile-packs.ts';
import { projectRoot } from '../kernel/project-root.ts';
import { createHl7Adapter } from '../plugins/hl7-standard/hl7-adapter.ts';
import { loadHl7Profiles } from '../plugins/hl7-standard/hl7-profiles.ts';
import { createFhirAdapter } from '../plugins/fhir-standard/fhir-adapter.ts';
import { createNcpdpAdapter } from '../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { loadNcpdpProfiles } from '../plugins/ncpdp-standard/ncpdp-profiles.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';
import { createDeidentifier } from '../plugins/deidentify/deidentifier.ts';
import { loadZSegmentTypes } from '../plugins/deidentify/z-segment-types.ts';
import { median } from './timing.ts';

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

/** Messages per second of `work` over `messages`, the median of three passes. */
function rate(messages: readonly string[], work: (message: string) => void, fresh: () => void = () => {}): number {
  const rates: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    fresh();
    const start = performance.now();
    for (const message of messages) work(message);
    rates.push(messages.length / ((performance.now() - start) / 1000));
  }
  return median(rates);
}

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
      `de-identification, ${name} (${messages.length.toLocaleString('en-US')} messages): ours ${Math.round(ours).toLocaleString('en-US')} msg/s, ` +
        `values already seen ${Math.round(seen).toLocaleString('en-US')} msg/s | parsing them ${Math.round(parse).toLocaleString('en-US')} msg/s | ` +
        `ratio ${(ours / parse).toFixed(2)}x${target}`,
    );
    figures[`${key}MsgPerSec`] = Math.round(ours);
    figures[`${key}SeenMsgPerSec`] = Math.round(seen);
    figures[`${key}ParseMsgPerSec`] = Math.round(parse);
  }
  return figures;
}
