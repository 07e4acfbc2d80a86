/**
 * `npm run bench`: every benchmark of the project, each printing our figure beside a peer or a ceiling measured in
 * the same run. The last line is one JSON object with all figures.
 */
import 'reflect-metadata';

type Bench = [name: string, load: () => Promise<() => Promise<Record<string, number>>>, onlyWhenNamed?: boolean];

const benches: Bench[] = [
  ['kernel', async () => (await import('./kernel-bench.ts')).runKernelBench],
  ['hl7', async () => (await import('./hl7-standard-bench.ts')).runHl7Bench],
  ['hl7Generate', async () => (await import('./hl7-generate-bench.ts')).runHl7GenerateBench],
  ['fhir', async () => (await import('./fhir-standard-bench.ts')).runFhirBench],
  ['ncpdp', async () => (await import('./ncpdp-standard-bench.ts')).runNcpdpBench],
  ['cli', async () => (await import('./cli-startup-bench.ts')).runCliStartupBench],
  ['population', async () => (await import('./population-bench.ts')).runPopulationBench],
  ['monitor', async () => (await import('./monitor-bench.ts')).runMonitorBench],
  ['openTail', async () => (await import('./open-tail-bench.ts')).runOpenTailBench],
  // the roll-up reads alone (part of `monitor` too): `npm run bench -- monitorRollups`
  ['monitorRollups', async () => (await import('./monitor-rollup-bench.ts')).runMonitorRollupBench, true],
  ['monitorStream', async () => (await import('./monitor-stream-bench.ts')).runMonitorStreamBench],
  ['messages', async () => (await import('./monitor-messages-bench.ts')).runMonitorMessagesBench],
  ['monitorShared', async () => (await import('./monitor-shared-bench.ts')).runMonitorSharedBench],
  ['analytics', async () => (await import('./analytics-bench.ts')).runAnalyticsBench],
  ['bridgePages', async () => (await import('./bridge-pages-bench.ts')).runBridgePagesBench],
  ['monitorPages', async () => (await import('./monitor-pages-bench.ts')).runMonitorPagesBench],
  // several nodes on one PostgreSQL store (WORKBENCH_TEST_POSTGRES_URL): `npm run bench -- team`
  ['team', async () => (await import('./team-bench.ts')).runTeamBench, true],
  ['tracing', async () => (await import('./tracing-bench.ts')).runTracingBench],
  ['triage', async () => (await import('./ai-triage-bench.ts')).runAiTriageBench],
  ['deidentify', async () => (await import('./deidentify-bench.ts')).runDeidentifyBench],
  ['audit', async () => (await import('./audit-bench.ts')).runAuditBench],
  ['work', async () => (await import('./work-pool-bench.ts')).runWorkPoolBench],
  // the longest pause of every base during a CSV export and a big batch file: `npm run bench -- loopPauses`
  ['loopPauses', async () => (await import('./loop-pause-bench.ts')).runLoopPauseBench],
  ['bounds', async () => (await import('./output-bounds-bench.ts')).runOutputBoundsBench],
  // A minute of load (WORKBENCH_LOAD_SECONDS): run only when named, `npm run bench -- load`.
  ['load', async () => (await import('./load-bench.ts')).runLoadBench, true],
];

const only = process.argv.slice(2);
const figures: Record<string, Record<string, number>> = {};
for (const [name, load, onlyWhenNamed] of benches) {
  if (only.length > 0 ? !only.includes(name) : onlyWhenNamed === true) continue;
  console.log(`\n== ${name} ==`);
  figures[name] = await (await load())();
}
console.log(JSON.stringify(figures));
