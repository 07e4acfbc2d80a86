/**
 * FHIR validation speed: our full validation (structure by @medplum/core's rules in our own crawl, plus bindings,
 * reference targets and Bundle rules) beside plain @medplum/core `validateResource`, on the same JSON text (both sides parse it), for a
 * Patient, an Observation and a 50-entry transaction Bundle. Also reports the one-time cost of loading the R4
 * definitions (time and retained heap). Each pair is timed in alternating rounds and the figure that counts is the
 * median of the per-round ratios: on a shared machine the rates move with the load, their ratio much less.
 */
import { medplumCore } from '../plugins/fhir-standard/medplum-core.ts';

// The same @medplum/core instance the plugin indexed its definitions into.
const { OperationOutcomeError, validateResource } = medplumCore();
import { createFhirAdapter } from '../plugins/fhir-standard/fhir-adapter.ts';
import { createBindingChecker } from '../plugins/fhir-standard/fhir-bindings.ts';
import { checkBundleRules } from '../plugins/fhir-standard/fhir-bundle-rules.ts';
import { createFhirDefinitions } from '../plugins/fhir-standard/fhir-definitions.ts';
import { createElementWalker } from '../plugins/fhir-standard/fhir-element-walk.ts';
import { createFhirTerminology } from '../plugins/fhir-standard/fhir-terminology.ts';
import { createSyntheticDataService } from '../plugins/synthetic-data/synthetic-random.ts';
import { loadavg } from 'node:os';
import { garbageCollector } from './collect-garbage.ts';

const WARM_UP_MS = 300;
const WARM_UP_CALLS = 100;
/**
 * Rounds of alternating measurement, short and many: the median of the per-round ratios is the figure (robust to a
 * busy machine, where the load moves from one second to the next), beside the median rate of each side.
 */
const ROUNDS = 31;
const ROUND_MS = 60;
const BENCH_SEED = 20250615;


function heapAfterCollection(collectGarbage: (() => void) | undefined): number {
  collectGarbage?.();
  return process.memoryUsage().heapUsed;
}

/**
 * The warm-up before measuring: `fn` runs for `ms` of wall time and at least `WARM_UP_CALLS` times (on a busy
 * machine a few hundred milliseconds hold too few calls for the compiler to have optimized the code).
 */
function warmUp(fn: () => void, ms: number): void {
  const started = performance.now();
  let calls = 0;
  do {
    fn();
    calls++;
  } while (calls < WARM_UP_CALLS || performance.now() - started < ms);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median rates of two functions and the median of their per-round ratios. */
interface Comparison {
  a: number;
  b: number;
  /** Median over the rounds of a's rate over b's. */
  ratio: number;
}

/**
 * Two functions measured call by call in turn (A B, B A, ...) in rounds of `ROUND_MS`; a round's rates come from the
 * median time of its calls on each side, so a call the scheduler paused (another process took the core) counts for
 * nothing, and whatever the machine does in a round it does to both sides alike. The figure is the median round ratio.
 * The medians also leave out the rare call a garbage collection lands in, on either side.
 */
function compareRates(a: () => void, b: () => void): Comparison {
  const ra: number[] = [];
  const rb: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const timesA: number[] = [];
    const timesB: number[] = [];
    const started = performance.now();
    do {
      const aFirst = timesA.length % 2 === 0;
      const t0 = performance.now();
      if (aFirst) a();
      else b();
      const t1 = performance.now();
      if (aFirst) b();
      else a();
      const t2 = performance.now();
      timesA.push(aFirst ? t1 - t0 : t2 - t1);
      timesB.push(aFirst ? t2 - t1 : t1 - t0);
    } while (performance.now() - started < ROUND_MS);
    const rateA = 1000 / Math.max(median(timesA), 1e-6);
    const rateB = 1000 / Math.max(median(timesB), 1e-6);
    ra.push(rateA);
    rb.push(rateB);
    ratios.push(rateA / rateB);
  }
  return { a: median(ra), b: median(rb), ratio: median(ratios) };
}

function plainValidate(text: string): void {
  try {
    validateResource(JSON.parse(text));
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
  }
}

/** A transaction Bundle of `size` entries assembled from generated Bundles (every reference resolves). */
function bundleOf(generated: string[], size: number): string {
  const entries: unknown[] = [];
  for (const text of generated) {
    for (const entry of JSON.parse(text).entry) if (entries.length < size) entries.push(entry);
  }
  return JSON.stringify({ resourceType: 'Bundle', type: 'transaction', entry: entries });
}

function format(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Measures and prints the FHIR figures; returns them flat. */
export async function runFhirBench(): Promise<Record<string, number>> {
  const collectGarbage = garbageCollector();
  const definitions = createFhirDefinitions({ collectGarbage });
  definitions.ensureLoaded();
  const load = definitions.loadStats();
  const terminology = createFhirTerminology();
  // Terminology (value sets and code systems) loads on the first binding check; every bound set compiles once.
  const heapBeforeTerminology = heapAfterCollection(collectGarbage);
  let started = performance.now();
  terminology.valueSet('http://hl7.org/fhir/ValueSet/administrative-gender');
  const terminologyLoadMs = performance.now() - started;
  started = performance.now();
  const boundSets = new Set(definitions.boundValueSets().filter((b) => b.strength === 'required' || b.strength === 'extensible').map((b) => b.valueSet));
  for (const url of boundSets) terminology.valueSet(url);
  const compileMs = performance.now() - started;
  const terminologyHeapMb = (heapAfterCollection(collectGarbage) - heapBeforeTerminology) / (1024 * 1024);
  const adapter = createFhirAdapter({ synthetic: createSyntheticDataService(), definitions, terminology });
  // Our own checks alone (what validation adds to @medplum/core), to show their share of the time.
  const walker = createElementWalker(definitions, createBindingChecker(terminology));

  const inputs: Record<string, string> = {
    patient: adapter.generate({ messageType: 'Patient', count: 1, seed: BENCH_SEED })[0],
    observation: adapter.generate({ messageType: 'Observation', count: 1, seed: BENCH_SEED + 1 })[0],
    bundle50: bundleOf(adapter.generate({ messageType: 'Bundle', count: 6, seed: BENCH_SEED }), 50),
  };

  const figures: Record<string, number> = {
    'fhir.definitions.loadMs': Math.round(load?.loadMs ?? 0),
    'fhir.definitions.heapAddedMb': Math.round((load?.heapAddedMb ?? 0) * 10) / 10,
  };
  figures['fhir.terminology.loadMs'] = Math.round(terminologyLoadMs);
  figures['fhir.terminology.compileAllBoundSetsMs'] = Math.round(compileMs);
  figures['fhir.terminology.heapAddedMb'] = Math.round(terminologyHeapMb * 10) / 10;
  console.log(
    `fhir definitions: load ${format(load?.loadMs ?? 0)} ms | heap added ${(load?.heapAddedMb ?? 0).toFixed(1)} MB${load?.measured ? '' : ' (already indexed by another adapter)'}${collectGarbage ? '' : ' (no forced GC: heap figure includes garbage)'}`,
  );

  console.log(
    `fhir terminology: load ${format(terminologyLoadMs)} ms | compile ${boundSets.size} bound value sets ${format(compileMs)} ms | heap added ${terminologyHeapMb.toFixed(1)} MB`,
  );
  for (const [name, text] of Object.entries(inputs)) {
    const result = adapter.validate(text, { mode: 'strict' });
    if (!result.isValid) throw new Error(`bench input ${name} is not valid: ${JSON.stringify(result.errors[0])}`);
    const ours = () => {
      adapter.validate(text, { mode: 'strict' });
    };
    const peer = () => plainValidate(text);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const extraChecks = () => {
      const walked = walker.walk(parsed);
      if (parsed.resourceType === 'Bundle') checkBundleRules(parsed, 'Bundle', walked.references, definitions);
    };
    const structureOnly = () => {
      try {
        validateResource(parsed as never);
      } catch (error) {
        if (!(error instanceof OperationOutcomeError)) throw error;
      }
    };
    warmUp(ours, WARM_UP_MS);
    warmUp(peer, WARM_UP_MS);
    warmUp(extraChecks, WARM_UP_MS);
    const { a: oursRate, b: peerRate, ratio } = compareRates(ours, peer);
    const extra = compareRates(structureOnly, extraChecks);
    const extraPercent = 100 * extra.ratio;
    figures[`fhir.validate.${name}.oursPerSec`] = Math.round(oursRate);
    figures[`fhir.validate.${name}.medplumPerSec`] = Math.round(peerRate);
    figures[`fhir.validate.${name}.ratio`] = Math.round(ratio * 100) / 100;
    figures[`fhir.validate.${name}.extraChecksPercent`] = Math.round(extraPercent * 100) / 100;
    console.log(
      `fhir validate ${name}: ours ${format(oursRate)} resources/s | @medplum/core validateResource ${format(peerRate)} resources/s | median ratio of ${ROUNDS} rounds ${ratio.toFixed(2)}x (our binding/reference/Bundle checks cost ${extraPercent.toFixed(1)}% of validateResource's time)`,
    );
  }
  // The ratios are measured in one process, round by round, so they hold on a busy machine; the rates do not.
  figures['fhir.loadAverage1m'] = Math.round((loadavg()[0] as number) * 10) / 10;
  console.log(`fhir: load average ${loadavg().map((n) => n.toFixed(2)).join(' ')} at the end of the section`);
  return figures;
}
