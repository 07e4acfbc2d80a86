/**
 * Patient journeys: the HL7 messages one patient's stay produces, in order, for rehearsing tracing. Scenario
 * `admission` is ADT^A01 -> ORM^O01 -> ORU^R01 -> ADT^A03. Each patient's messages come from the HL7 generator with
 * one seed, so MRN, account and visit number agree across the steps; the scenario then sets what tracing reads:
 * MSH-7 increasing along the stay, MSH-10 unique per message, MSH-13 counting per feed (one feed per message type,
 * the way an engine numbers each outbound link).
 *
 * Faults rehearse exactly what tracing detects: `drop` a step (its MSH-13 number is used up, as a message lost on
 * the way), `delay` one (MSH-7 moved by delayMs; negative puts it before the step ahead of it), `duplicate-control-id`
 * (a second, different message of the step with the same MSH-10), `resend` (an exact copy), `skip-sequence-number`
 * (MSH-13 jumps over one number before the step).
 */
import { z } from 'zod';
import { kernelErrors } from '../../kernel/errors.ts';
import { MAX_SEED, type StandardAdapter, type StandardsRegistry } from '../../kernel/standards-registry.ts';
import { adapterById } from './standard-selection.ts';

/** The scenarios and their steps (message type and time after the previous step). */
export const JOURNEY_SCENARIOS = {
  admission: [
    { messageType: 'ADT^A01', afterMs: 0 },
    { messageType: 'ORM^O01', afterMs: 30 * 60_000 },
    { messageType: 'ORU^R01', afterMs: 2 * 3_600_000 },
    { messageType: 'ADT^A03', afterMs: 2 * 86_400_000 },
  ],
} as const;

/** Name of a scenario. */
export type JourneyScenarioName = keyof typeof JOURNEY_SCENARIOS;

/** Most patients of one request (the route); the CLI allows more. */
export const MAX_ROUTE_PATIENTS = 100;

/** Minutes between the admissions of consecutive patients. */
const PATIENT_SPACING_MS = 10 * 60_000;

/** One fault of a journey. */
export const journeyFaultSchema = z
  .object({
    kind: z.enum(['drop', 'delay', 'duplicate-control-id', 'resend', 'skip-sequence-number']),
    step: z.string().regex(/^[A-Z0-9]{3}\^[A-Z0-9]{3}$/, 'step must be a message type of the scenario such as ORM^O01'),
    patient: z.number().int().min(1).optional().describe('1-based patient the fault hits; every patient when omitted'),
    delayMs: z.number().int().min(-30 * 86_400_000).max(30 * 86_400_000).optional().describe('for delay: ms added to the step\'s MSH-7 (negative: earlier)'),
  })
  .strict();

/** A fault as given. */
export type JourneyFault = z.infer<typeof journeyFaultSchema>;

/** Fields of POST /api/generate that ask for a scenario (spread into its body schema). */
export const scenarioBodyFields = {
  scenario: z.enum(Object.keys(JOURNEY_SCENARIOS) as [JourneyScenarioName]).optional().describe('a patient journey instead of single messages: admission = ADT^A01, ORM^O01, ORU^R01, ADT^A03'),
  patients: z.number().int().min(1, 'patients must be at least 1').max(MAX_ROUTE_PATIENTS, `patients must be at most ${MAX_ROUTE_PATIENTS}`).optional().describe('with scenario: how many patients (default 1)'),
  faults: z.array(journeyFaultSchema).max(50).optional().describe('with scenario: drop, delay, duplicate-control-id, resend or skip-sequence-number a step'),
  start: z.iso.datetime({ offset: true }).optional().describe('with scenario: MSH-7 of the first admission (default: early enough that the last step is now)'),
};

/** What a journey generation needs. */
export interface JourneyOptions {
  scenario: JourneyScenarioName;
  patients: number;
  faults: readonly JourneyFault[];
  /** MSH-7 of the first patient's first step, in ms. */
  startMs: number;
  /** Seed of the first patient (patients follow from it); the same seed gives the same journeys. */
  seed: number;
  version?: string;
}

/** One message of a journey. */
export interface JourneyMessage {
  /** `ADT^A01`. */
  messageType: string;
  /** 1-based patient. */
  patient: number;
  text: string;
}

/** HL7 TS (YYYYMMDDHHMMSS.SSS) of an instant in UTC; milliseconds only when not zero. */
function hl7Time(ms: number): string {
  const iso = new Date(ms).toISOString();
  const base = iso.slice(0, 19).replace(/[-:T]/g, '');
  const fraction = iso.slice(20, 23);
  return fraction === '000' ? `${base}+0000` : `${base}.${fraction}+0000`;
}

/**
 * Sets fields of every segment `name` (1-based HL7 numbers: MSH-7 is index 6 after the split, since MSH-1 is the
 * separator; EVN-2 is index 2).
 */
function withFields(message: string, name: string, fields: Record<number, string>): string {
  const segments = message.split('\r');
  const separator = segments[0]![3]!;
  const offset = name === 'MSH' ? 1 : 0;
  return segments
    .map((segment) => {
      if (!segment.startsWith(`${name}${separator}`)) return segment;
      const parts = segment.split(separator);
      for (const [number, value] of Object.entries(fields)) {
        const index = Number(number) - offset;
        while (parts.length <= index) parts.push('');
        parts[index] = value;
      }
      return parts.join(separator);
    })
    .join('\r');
}

/** A journey step's message stamped at `time`: MSH-7, EVN-2 (recorded) and EVN-6 (occurred) agree; the stay is inpatient. */
function stamped(message: string, time: string, msh: Record<number, string>): string {
  const withEvent = withFields(withFields(message, 'MSH', { 7: time, ...msh }), 'EVN', { 2: time, 6: time });
  return withFields(withEvent, 'PV1', { 2: 'I' });
}

/**
 * The default MSH-7 of the first patient's first step: early enough that the last patient's last step is now (a
 * journey generated now lies in the past, as a monitor receiving it expects), on a whole minute.
 */
export function defaultJourneyStartMs(scenario: JourneyScenarioName, patients: number, nowMs: number): number {
  const span = JOURNEY_SCENARIOS[scenario].reduce((sum, step) => sum + step.afterMs, 0);
  return Math.floor(nowMs / 60_000) * 60_000 - span - (patients - 1) * PATIENT_SPACING_MS;
}

/** A patient's seed: spread over the seed range so neighbouring patients never share a story. */
function patientSeed(seed: number, patient: number): number {
  return (seed + (patient - 1) * 7_919) % (MAX_SEED + 1);
}

/** Checks that every fault names a step of the scenario and a patient in range; the first problem, or null. */
export function journeyFaultProblem(options: Pick<JourneyOptions, 'scenario' | 'patients' | 'faults'>): { path: string; message: string } | null {
  const steps: readonly { messageType: string }[] = JOURNEY_SCENARIOS[options.scenario];
  for (const [index, fault] of options.faults.entries()) {
    if (!steps.some((s) => s.messageType === fault.step)) {
      return { path: `faults.${index}.step`, message: `${fault.step} is not a step of ${options.scenario} (${steps.map((s) => s.messageType).join(', ')})` };
    }
    if (fault.patient !== undefined && fault.patient > options.patients) {
      return { path: `faults.${index}.patient`, message: `patient ${fault.patient} is beyond the ${options.patients} patients asked for` };
    }
    if (fault.kind === 'delay' && fault.delayMs === undefined) return { path: `faults.${index}.delayMs`, message: 'a delay needs delayMs' };
  }
  return null;
}

/**
 * The journeys of `patients` patients, patient after patient, steps in scenario order. `adapter` is the HL7 adapter;
 * each message is generated with count 1 and the patient's seed, which is what keeps the patient the same.
 */
export function generateJourneys(adapter: StandardAdapter, options: JourneyOptions): JourneyMessage[] {
  const steps = JOURNEY_SCENARIOS[options.scenario];
  const feeds = new Map<string, number>();
  const out: JourneyMessage[] = [];
  const faultsOf = (patient: number, step: string) => options.faults.filter((f) => f.step === step && (f.patient === undefined || f.patient === patient));
  for (let patient = 1; patient <= options.patients; patient++) {
    const seed = patientSeed(options.seed, patient);
    let at = options.startMs + (patient - 1) * PATIENT_SPACING_MS;
    for (const [stepIndex, step] of steps.entries()) {
      at += step.afterMs;
      const faults = faultsOf(patient, step.messageType);
      const has = (kind: JourneyFault['kind']) => faults.some((f) => f.kind === kind);
      let number = (feeds.get(step.messageType) ?? 0) + 1;
      if (has('skip-sequence-number')) number++;
      feeds.set(step.messageType, number);
      if (has('drop')) continue;
      const delay = faults.filter((f) => f.kind === 'delay').reduce((sum, f) => sum + (f.delayMs ?? 0), 0);
      const time = at + delay;
      // the step's other times (order, specimen, observation) follow from its own time
      const generated = adapter.generate({ messageType: step.messageType, count: 1, seed, referenceTimeMs: time, ...(options.version ? { version: options.version } : {}) })[0]!;
      const controlId = `J${String(options.seed % 1_000_000).padStart(6, '0')}P${patient}S${stepIndex + 1}`;
      const text = stamped(generated, hl7Time(time), { 10: controlId, 13: String(number) });
      out.push({ messageType: step.messageType, patient, text });
      if (has('resend')) out.push({ messageType: step.messageType, patient, text });
      if (has('duplicate-control-id')) {
        // Same control id, other content: the sender reused MSH-10 for a later message of the feed.
        out.push({ messageType: step.messageType, patient, text: stamped(generated, hl7Time(time + 60_000), { 10: controlId, 13: String(number) }) });
      }
    }
  }
  return out;
}

/** The part of a generate request a scenario reads. */
export interface ScenarioRequest {
  scenario: JourneyScenarioName;
  patients?: number | undefined;
  faults?: JourneyFault[] | undefined;
  start?: string | undefined;
  messageType?: string | undefined;
  standard?: string | undefined;
  seed: number | null;
}

function invalid(path: string, message: string): never {
  throw kernelErrors.create('VALIDATION_FAILED', { summary: `body.${path}: ${message}` }, [{ location: 'body', path, message }]);
}

/**
 * Answers POST /api/generate with a scenario: the journeys' messages in order (patient after patient). A scenario
 * is HL7 and sets its own message types, so `messageType` or another standard beside it is a 400 naming the field.
 */
export function generateScenarioMessages(registry: StandardsRegistry, request: ScenarioRequest, version: (adapter: StandardAdapter) => string | undefined, nowMs: number): string[] {
  if (request.messageType !== undefined) invalid('messageType', 'give messageType or scenario, not both (a scenario sets its own message types)');
  if (request.standard !== undefined && request.standard.toLowerCase() !== 'hl7') invalid('standard', 'scenarios are HL7 v2 journeys; leave standard out or give hl7');
  const patients = request.patients ?? 1;
  const faults = request.faults ?? [];
  const problem = journeyFaultProblem({ scenario: request.scenario, patients, faults });
  if (problem) invalid(problem.path, problem.message);
  const adapter = adapterById(registry, 'hl7');
  const chosen = version(adapter);
  return generateJourneys(adapter, {
    scenario: request.scenario,
    patients,
    faults,
    startMs: request.start === undefined ? defaultJourneyStartMs(request.scenario, patients, nowMs) : Date.parse(request.start),
    seed: request.seed ?? Math.floor(Math.random() * MAX_SEED),
    ...(chosen === undefined ? {} : { version: chosen }),
  }).map((m) => m.text);
}

/** 400 when a scenario option (patients, faults, start) comes without `scenario`: it would be silently ignored. */
export function rejectScenarioOptions(body: { patients?: unknown; faults?: unknown; start?: unknown }): void {
  for (const field of ['patients', 'faults', 'start'] as const) {
    if (body[field] !== undefined) invalid(field, `${field} needs scenario (e.g. "scenario": "admission")`);
  }
}
