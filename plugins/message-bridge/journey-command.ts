/**
 * `workbench generate --scenario admission --patients 50 [--split-by-type DIR]`: patient journeys on the command
 * line. With --split-by-type each message is a file of its own under DIR/<type> (DIR/ADT_A01/000001-<control id>.hl7,
 * segments ended by CR as on the wire), numbered in journey order, so each folder can be an interface's watched
 * folder; without it the messages are printed. Faults as on the route: --drop STEP[:PATIENT],
 * --delay STEP:MS[:PATIENT], --duplicate-control-id STEP[:PATIENT], --resend STEP[:PATIENT],
 * --skip-sequence-number STEP[:PATIENT].
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIo } from '../../kernel/plugin-api.ts';
import { MAX_SEED, type StandardsRegistry } from '../../kernel/standards-registry.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { formatGenerated } from './message-files.ts';
import { adapterById, generationVersion } from './standard-selection.ts';
import { JOURNEY_SCENARIOS, defaultJourneyStartMs, generateJourneys, journeyFaultProblem, type JourneyFault, type JourneyScenarioName } from './journey-scenario.ts';

/** Most patients of one command run (files on disk, not an HTTP answer). */
export const MAX_CLI_PATIENTS = 100_000;

/** parseArgs options of the scenario flags (merged into `generate`'s). */
export const JOURNEY_CLI_OPTIONS = {
  scenario: { type: 'string' },
  patients: { type: 'string' },
  'split-by-type': { type: 'string' },
  start: { type: 'string' },
  drop: { type: 'string', multiple: true },
  delay: { type: 'string', multiple: true },
  'duplicate-control-id': { type: 'string', multiple: true },
  resend: { type: 'string', multiple: true },
  'skip-sequence-number': { type: 'string', multiple: true },
} as const;

/** Values of the flags as parseArgs gives them. */
export interface JourneyCliValues {
  scenario?: string | undefined;
  patients?: string | undefined;
  'split-by-type'?: string | undefined;
  start?: string | undefined;
  drop?: string[] | undefined;
  delay?: string[] | undefined;
  'duplicate-control-id'?: string[] | undefined;
  resend?: string[] | undefined;
  'skip-sequence-number'?: string[] | undefined;
  type?: string | undefined;
  version?: string | undefined;
  seed?: number | undefined;
}

class UsageError extends Error {}

function fault(kind: JourneyFault['kind'], flag: string, text: string): JourneyFault {
  const parts = text.split(':');
  const step = parts[0]!.toUpperCase();
  const result: JourneyFault = { kind, step };
  const rest = parts.slice(1);
  if (kind === 'delay') {
    const ms = Number(rest.shift());
    if (!Number.isInteger(ms)) throw new UsageError(`--${flag} takes STEP:MS[:PATIENT] (e.g. ORU^R01:18000000), not "${excerpt(text)}".`);
    result.delayMs = ms;
  }
  if (rest.length > 1) throw new UsageError(`--${flag} "${excerpt(text)}" has too many parts.`);
  if (rest.length === 1) {
    const patient = Number(rest[0]);
    if (!Number.isInteger(patient) || patient < 1) throw new UsageError(`--${flag}: the patient after ":" must be a whole number from 1, not "${excerpt(rest[0]!)}".`);
    result.patient = patient;
  }
  return result;
}

/** Whether the values ask for a scenario. */
export function wantsScenario(values: { scenario?: string | undefined }): boolean {
  return values.scenario !== undefined;
}

/** Runs the scenario form of `generate`; returns the exit code (2 for bad flags). */
export function runJourneyCommand(standards: StandardsRegistry, values: JourneyCliValues, io: CliIo): number {
  try {
    if (values.type !== undefined) throw new UsageError('Give --type or --scenario, not both (a scenario sets its own message types).');
    const scenario = values.scenario!;
    if (!(scenario in JOURNEY_SCENARIOS)) throw new UsageError(`--scenario must be one of ${Object.keys(JOURNEY_SCENARIOS).join(', ')}, not "${excerpt(scenario)}".`);
    const patients = values.patients === undefined ? 1 : Number(values.patients);
    if (!Number.isInteger(patients) || patients < 1 || patients > MAX_CLI_PATIENTS) {
      throw new UsageError(`--patients must be a whole number from 1 to ${MAX_CLI_PATIENTS}, not "${excerpt(values.patients ?? '')}".`);
    }
    const startMs = values.start === undefined ? defaultJourneyStartMs(scenario as JourneyScenarioName, patients, Date.now()) : Date.parse(values.start);
    if (!Number.isFinite(startMs)) throw new UsageError(`--start must be an ISO 8601 instant such as 2026-03-02T08:00:00Z, not "${excerpt(values.start ?? '')}".`);
    const faults: JourneyFault[] = [
      ...(values.drop ?? []).map((t) => fault('drop', 'drop', t)),
      ...(values.delay ?? []).map((t) => fault('delay', 'delay', t)),
      ...(values['duplicate-control-id'] ?? []).map((t) => fault('duplicate-control-id', 'duplicate-control-id', t)),
      ...(values.resend ?? []).map((t) => fault('resend', 'resend', t)),
      ...(values['skip-sequence-number'] ?? []).map((t) => fault('skip-sequence-number', 'skip-sequence-number', t)),
    ];
    const name = scenario as JourneyScenarioName;
    const problem = journeyFaultProblem({ scenario: name, patients, faults });
    if (problem) throw new UsageError(`${problem.path}: ${problem.message}.`);
    const adapter = adapterById(standards, 'hl7');
    const version = generationVersion(adapter, values.version, undefined);
    const messages = generateJourneys(adapter, {
      scenario: name,
      patients,
      faults,
      startMs,
      seed: values.seed ?? Math.floor(Math.random() * MAX_SEED),
      ...(version === undefined ? {} : { version }),
    });
    const dir = values['split-by-type'];
    if (dir === undefined) {
      io.out(formatGenerated(messages.map((m) => m.text)));
      return 0;
    }
    const counts = new Map<string, number>();
    messages.forEach((message, index) => {
      const folder = message.messageType.replace('^', '_');
      const controlId = message.text.split('\r')[0]!.split('|')[9] ?? 'message';
      mkdirSync(join(dir, folder), { recursive: true });
      // The resend of a message has its control id too: the sequence number in the name keeps both files.
      writeFileSync(join(dir, folder, `${String(index + 1).padStart(6, '0')}-${controlId.replace(/[^A-Za-z0-9_-]/g, '_')}.hl7`), `${message.text}\r`);
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    });
    io.out([...counts.entries()].map(([folder, count]) => `${join(dir, folder)}: ${count} file${count === 1 ? '' : 's'}`).join('\n'));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
}
