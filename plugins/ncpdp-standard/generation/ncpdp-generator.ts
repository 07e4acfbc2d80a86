/**
 * Generates synthetic NCPDP messages: SCRIPT NewRx, RxRenewalRequest, CancelRx and Status (2017071 by default,
 * 10.6 and 2023011 on request) and Telecommunication D.0 B1 claims. Every value comes from the synthetic-data
 * service; with a seed the output is byte-identical on any machine and day.
 */
import type { SyntheticDataService } from '../../synthetic-data/api.ts';
import { writeNcpdpBatch } from '../telecom/ncpdp-batch.ts';
import { createScenario } from './ncpdp-scenario.ts';
import { buildScriptMessage, GENERATED_SCRIPT_TYPES, type GeneratedScriptType } from '../script/script-generator.ts';
import type { ScriptVersion } from '../script/script-definitions.ts';
import { buildB1Request } from '../telecom/telecom-d0-generator.ts';

/**
 * Message types `generate` accepts; NewRx (the first) is the default. `Batch` is one Batch Standard 1.2 file
 * wrapping `count` B1 claims.
 */
export const NCPDP_MESSAGE_TYPES = [...GENERATED_SCRIPT_TYPES, 'B1', 'Batch'] as const;

/** A resolved generation request (the adapter has checked type and version). */
export interface NcpdpGenerateRequest {
  messageType: (typeof NCPDP_MESSAGE_TYPES)[number];
  /** A SCRIPT version, or `D0` for B1. */
  version: ScriptVersion | 'D0';
  count: number;
  seed?: number;
}

/** Generates `count` messages. */
export function generateNcpdp(service: SyntheticDataService, request: NcpdpGenerateRequest): string[] {
  const random = service.createRandom(request.seed);
  if (request.messageType === 'Batch') return request.count > 0 ? [buildB1Batch(random, request.count)] : [];
  const out: string[] = [];
  for (let i = 0; i < request.count; i++) {
    const scenario = createScenario(random);
    if (request.messageType === 'B1') {
      const bin = String(random.int(900000, 999999));
      out.push(buildB1Request(scenario, bin, scenario.sentTime.slice(0, 10)));
    } else {
      out.push(buildScriptMessage(scenario, request.messageType as GeneratedScriptType, request.version as ScriptVersion));
    }
  }
  return out;
}

/** One batch file of `count` B1 claims: the first claim's pharmacy sends it, dated when that claim was sent. */
function buildB1Batch(random: ReturnType<SyntheticDataService['createRandom']>, count: number): string {
  const transactions: Array<{ reference: string; transaction: string }> = [];
  let first: ReturnType<typeof createScenario> | undefined;
  const bin = String(random.int(900000, 999999));
  for (let i = 0; i < count; i++) {
    const scenario = createScenario(random);
    first ??= scenario;
    transactions.push({ reference: String(i + 1).padStart(10, '0'), transaction: buildB1Request(scenario, bin, scenario.sentTime.slice(0, 10)) });
  }
  const sent = (first as ReturnType<typeof createScenario>).sentTime;
  return writeNcpdpBatch({
    senderId: (first as ReturnType<typeof createScenario>).pharmacy.npi,
    receiverId: bin,
    batchNumber: random.int(1, 9_999_999),
    creationDate: sent.slice(0, 10).replace(/-/g, ''),
    creationTime: sent.slice(11, 16).replace(':', ''),
    fileType: 'T',
    transactions,
  });
}
