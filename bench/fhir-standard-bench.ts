/**
 * FHIR validation speed: our full validation (structure via @medplum/core plus bindings, reference targets and
 * Bundle rules) beside plain @medplum/core `validateResource`, on the same JSON text (both sides parse it), for a
 * Patient, an Observation and a 50-entry transaction Bundle. Also reports the one-time cost of loading the R4
 * definitions (time and retained heap).
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
import { garbageCollector } from './collect-garbage.ts';

const WARM_UP_MS = 300;
/** Rounds of alternating measurement; the median of each side is reported (robust to a busy machine). */
const ROUNDS = 9;
const ROUND_MS = 200;
const BENCH_SEED = 20250615;


function heapAfterCollection(collectGarbage: (() => void) | undefined): number {
  collectGarbage?.();
  return process.memoryUsage().heapUsed;
}

/**
 * Runs `fn` repeatedly for `ms` of wall time and returns calls per second of this process's CPU time: on a shared,
 * busy host CPU time is not inflated by the moments the process waits for a core.
 */
function rate(fn: () => void, ms: number): number {
  let calls = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  while (performance.now() - started < ms) {
    for (let i = 0; i < 10; i++) fn();
    calls += 10;
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return (calls * 1000) / Math.max(cpuMs, 1e-3);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median rates of two functions measured in alternating rounds (A B, B A, ...), so drift hits both alike. */
function compareRates(a: () => void, b: () => void): [number, number] {
  const ra: number[] = [];
  const rb: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      ra.push(rate(a, ROUND_MS));
      rb.push(rate(b, ROUND_MS));
    } else {
      rb.push(rate(b, ROUND_MS));
      ra.push(rate(a, ROUND_MS));
    }
  }
  return [median(ra), median(rb)];
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
    rate(ours, WARM_UP_MS);
    rate(peer, WARM_UP_MS);
    rate(extraChecks, WARM_UP_MS);
    const [oursRate, peerRate] = compareRates(ours, peer);
    const [extraRate, structureRate] = compareRates(extraChecks, structureOnly);
    const ratio = oursRate / peerRate;
    const extraPercent = (100 * structureRate) / extraRate;
    figures[`fhir.validate.${name}.oursPerSec`] = Math.round(oursRate);
    figures[`fhir.validate.${name}.medplumPerSec`] = Math.round(peerRate);
    figures[`fhir.validate.${name}.ratio`] = Math.round(ratio * 100) / 100;
    figures[`fhir.validate.${name}.extraChecksPercent`] = Math.round(extraPercent * 100) / 100;
    console.log(
      `fhir validate ${name}: ours ${format(oursRate)} resources/s | @medplum/core validateResource ${format(peerRate)} resources/s | ratio ${ratio.toFixed(2)}x (our binding/reference/Bundle checks cost ${extraPercent.toFixed(1)}% of validateResource's time)`,
    );
  }
  return figures;
}
