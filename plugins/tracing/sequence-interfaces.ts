/**
 * Steps of a sequence bound to an interface (`ADT^A01@adt-in`) that name no interface: such a step can never match,
 * and every patient would read as missing it. The routes refuse them in a request; for the sequences already defined
 * (the config file's, and the API's once an interface is deleted or renamed) a health condition names each one, so
 * the service still starts (interfaces are created through the API, often after the config names them) and the
 * condition clears as soon as the interface exists.
 */
import type { ServiceFaults } from '../../kernel/background/service-faults.ts';
import { parseSequence } from './sequence-syntax.ts';

/** Key of the health condition listing defined sequences with an unknown interface. */
export const SEQUENCE_INTERFACE_UNKNOWN = 'tracing-sequence-interface-unknown';

/** One step bound to an interface that does not exist. */
export interface UnknownStep {
  /** 1-based position of the step in its sequence. */
  step: number;
  messageType: string;
  /** The interface the step names (neither the name nor the id of an interface). */
  interface: string;
}

/** The steps of a (syntactically valid) sequence text bound to an interface that `known` (names and ids) lacks. */
export function unknownInterfaceSteps(text: string, known: ReadonlySet<string>): UnknownStep[] {
  return parseSequence(text).steps.flatMap((step, index) =>
    step.interface === null || known.has(step.interface) ? [] : [{ step: index + 1, messageType: step.messageType, interface: step.interface }],
  );
}

/** What a step names, as an error or a health reason says it. */
export function describeUnknownStep(unknown: UnknownStep): string {
  return `step ${unknown.step} (${unknown.messageType}@${unknown.interface}) names no interface: "${unknown.interface}" is neither the name nor the id of an interface`;
}

/** A defined sequence as the check reads it. */
export interface CheckedSequence {
  name: string;
  sequence: string;
  source: 'config' | 'api';
}

/** Where the check reads and reports. */
export interface SequenceInterfaceCheckDeps {
  /** The defined sequences (config, then API). */
  sequences(): Promise<CheckedSequence[]>;
  /** Names and ids of the interfaces that exist now. */
  interfaces(): Promise<Array<{ id: string; name: string }>>;
  faults: ServiceFaults;
  /** Told once each time the set of problems changes (empty: all resolved). */
  warn(problems: string[]): void;
}

/**
 * Judges the defined sequences against the interfaces that exist: opens (or re-words) the health condition
 * {@link SEQUENCE_INTERFACE_UNKNOWN} naming each sequence and step, or clears it.
 */
export class SequenceInterfaceCheck {
  private lastProblems = '';

  constructor(private readonly deps: SequenceInterfaceCheckDeps) {}

  /**
   * Checks now; returns the problems found (each a sentence naming the sequence and the step). `deleting`: the id of
   * an interface being deleted (still listed while its deletion is announced), counted as gone.
   */
  async check(deleting?: string): Promise<string[]> {
    const known = new Set<string>();
    for (const monitored of await this.deps.interfaces()) if (monitored.id !== deleting) known.add(monitored.name).add(monitored.id);
    const problems: string[] = [];
    for (const defined of await this.deps.sequences()) {
      const where = defined.source === 'config' ? 'plugins.tracing.sequences' : 'defined through the API';
      for (const unknown of unknownInterfaceSteps(defined.sequence, known)) {
        problems.push(`sequence "${defined.name}" (${where}): ${describeUnknownStep(unknown)}`);
      }
    }
    const text = problems.join('; ');
    if (text !== this.lastProblems) {
      this.lastProblems = text;
      this.deps.warn(problems);
    }
    if (problems.length === 0) this.deps.faults.clear(SEQUENCE_INTERFACE_UNKNOWN);
    else this.deps.faults.report(SEQUENCE_INTERFACE_UNKNOWN, `Gaps of these sequences cannot be judged (every patient would read as missing the step): ${text}`);
    return problems;
  }
}
