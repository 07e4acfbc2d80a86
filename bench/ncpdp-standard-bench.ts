/**
 * NCPDP benchmark: SCRIPT validation (safe read + envelope, structure and value rules, strict mode) in messages per
 * second beside fast-xml-parser parsing alone on the same messages with the reader's own options, which is the ceiling
 * (our reader runs that very parse plus its well-formedness and safety pass, then the rules). Also D.0 B1 validation. Same inputs, warm-up first.
 */
import { XMLParser } from 'fast-xml-parser';
import { createNcpdpAdapter } from '../plugins/ncpdp-standard/ncpdp-adapter.ts';
import { SCRIPT_XML_PARSER_OPTIONS } from '../plugins/ncpdp-standard/script/script-xml-parser.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';

/** Runs `work` over the inputs repeatedly for about `ms` milliseconds; returns messages per second. */
function throughput(inputs: readonly string[], work: (input: string) => unknown, ms: number): number {
  for (const input of inputs) work(input);
  let count = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() - start < budget) {
    for (const input of inputs) work(input);
    count += inputs.length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Measures and prints the NCPDP figures; returns them flat. */
export async function runNcpdpBench(): Promise<Record<string, number>> {
  const adapter = createNcpdpAdapter({ synthetic: createSyntheticDataService() });
  const script = [
    ...adapter.generate({ messageType: 'NewRx', count: 40, seed: 1 }),
    ...adapter.generate({ messageType: 'RxRenewalRequest', count: 20, seed: 2 }),
    ...adapter.generate({ messageType: 'CancelRx', count: 20, seed: 3 }),
    ...adapter.generate({ messageType: 'Status', count: 20, seed: 4 }),
  ];
  const claims = adapter.generate({ messageType: 'B1', count: 100, seed: 5 });
  const peer = new XMLParser(SCRIPT_XML_PARSER_OPTIONS);
  // Alternate short rounds and keep each side's best, so a load spike on the machine cannot favour one side.
  let ours = 0;
  let ceiling = 0;
  for (let round = 0; round < 4; round++) {
    ours = Math.max(ours, throughput(script, (m) => adapter.validate(m, { mode: 'strict' }), 400));
    ceiling = Math.max(ceiling, throughput(script, (m) => peer.parse(m), 400));
  }
  const d0 = throughput(claims, (m) => adapter.validate(m, { mode: 'strict' }), 1000);
  const ratio = ours / ceiling;
  console.log(`ncpdp SCRIPT validate: ours ${fmt(ours)} msg/s | fast-xml-parser parse alone ${fmt(ceiling)} msg/s | ratio ${ratio.toFixed(2)}x (goal >= 0.5x)`);
  console.log(`ncpdp D.0 B1 validate: ours ${fmt(d0)} msg/s`);
  return {
    ncpdp_script_validate_msg_per_s: Math.round(ours),
    ncpdp_fast_xml_parser_parse_msg_per_s: Math.round(ceiling),
    ncpdp_script_ratio: Number(ratio.toFixed(3)),
    ncpdp_d0_validate_msg_per_s: Math.round(d0),
  };
}
