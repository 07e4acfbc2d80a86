/**
 * Expected sequences written as text: `ADT^A01>ORM^O01>ORU^R01`, each step optionally with the interface it must
 * arrive on (`ADT^A01@adt-in`) and a time limit after the step before it (`ORU^R01<4h`). The parser reads left to
 * right once (linear in the text) and a syntax error names the 0-based position where the text stopped making sense
 * and what was expected there, so a user can fix a long sequence without guessing.
 */

/** Longest sequence text accepted (characters). */
export const MAX_SEQUENCE_LENGTH = 1_000;

/** Most steps in one sequence. */
export const MAX_SEQUENCE_STEPS = 20;

/** Longest time limit of a step: 31 days (a limit is a clinical expectation, never a retention period). */
export const MAX_STEP_LIMIT_MS = 31 * 86_400_000;

/** One step of an expected sequence. */
export interface SequenceStep {
  /** `ADT` (any event of the type) or `ADT^A01`. */
  messageType: string;
  /** The interface (name or id) the step must arrive on, or null for any interface. */
  interface: string | null;
  /** Most milliseconds after the previous step, or null for no limit (never set on the first step). */
  limitMs: number | null;
}

/** A parsed sequence. */
export interface ExpectedSequence {
  steps: SequenceStep[];
}

/** A sequence text that does not parse: where and why. */
export class SequenceSyntaxError extends Error {
  /** 0-based character position in the text. */
  readonly position: number;
  /** What the parser expected there. */
  readonly expected: string;

  constructor(position: number, expected: string, text: string) {
    super(`expected ${expected} at position ${position}${describeFound(text, position)}`);
    this.name = 'SequenceSyntaxError';
    this.position = position;
    this.expected = expected;
  }
}

function describeFound(text: string, position: number): string {
  if (position >= text.length) return ' (end of text)';
  const char = text[position]!;
  const shown = /^[\x20-\x7e]$/.test(char) ? `"${char}"` : `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return ` (found ${shown})`;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const isTypeChar = (c: string) => /^[A-Za-z0-9_]$/.test(c);
// Interface names may hold spaces and punctuation ("ADT inbound (Epic)"); only the sequence's own operators end them.
const isInterfaceChar = (c: string) => !'<>@'.includes(c) && c >= ' ' && c !== '\x7f';

/** Parses a sequence text; throws {@link SequenceSyntaxError} naming the position of the first problem. */
export function parseSequence(text: string): ExpectedSequence {
  if (text.length > MAX_SEQUENCE_LENGTH) {
    throw new SequenceSyntaxError(MAX_SEQUENCE_LENGTH, `at most ${MAX_SEQUENCE_LENGTH} characters`, text);
  }
  let i = 0;
  const steps: SequenceStep[] = [];
  const skipSpaces = () => {
    while (i < text.length && text[i] === ' ') i++;
  };
  const word = (expected: string): string => {
    const start = i;
    while (i < text.length && isTypeChar(text[i]!)) i++;
    if (i === start) throw new SequenceSyntaxError(i, expected, text);
    if (i - start > 20) throw new SequenceSyntaxError(start, `${expected} of at most 20 characters`, text);
    return text.slice(start, i);
  };
  for (;;) {
    skipSpaces();
    const stepStart = i;
    let messageType = word('a message type such as ADT or ADT^A01').toUpperCase();
    if (text[i] === '^') {
      i++;
      messageType += `^${word('a trigger event after "^" such as A01').toUpperCase()}`;
    }
    let iface: string | null = null;
    let limitMs: number | null = null;
    skipSpaces();
    if (text[i] === '@') {
      i++;
      const start = i;
      while (i < text.length && isInterfaceChar(text[i]!)) i++;
      iface = text.slice(start, i).trim();
      if (iface.length === 0) throw new SequenceSyntaxError(start, 'an interface name or id after "@"', text);
      if (iface.length > 200) throw new SequenceSyntaxError(start, 'an interface name of at most 200 characters', text);
    }
    if (text[i] === '<') {
      if (steps.length === 0) throw new SequenceSyntaxError(i, 'no time limit on the first step (a limit counts from the step before)', text);
      i++;
      const start = i;
      while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
      if (i === start) throw new SequenceSyntaxError(i, 'a whole number of a time limit such as 4h', text);
      if (i - start > 9) throw new SequenceSyntaxError(start, 'a time limit of at most 9 digits', text);
      const amount = Number(text.slice(start, i));
      const unitStart = i;
      while (i < text.length && /^[a-z]$/.test(text[i]!)) i++;
      const unit = text.slice(unitStart, i);
      const factor = UNIT_MS[unit];
      if (factor === undefined) throw new SequenceSyntaxError(unitStart, 'a time unit: ms, s, m, h or d', text);
      limitMs = amount * factor;
      if (limitMs <= 0 || limitMs > MAX_STEP_LIMIT_MS) {
        throw new SequenceSyntaxError(start, 'a time limit above 0 and at most 31d', text);
      }
      skipSpaces();
    }
    steps.push({ messageType, interface: iface, limitMs });
    if (steps.length > MAX_SEQUENCE_STEPS) {
      throw new SequenceSyntaxError(stepStart, `at most ${MAX_SEQUENCE_STEPS} steps`, text);
    }
    if (i >= text.length) break;
    if (text[i] !== '>') throw new SequenceSyntaxError(i, steps.length === 1 && iface === null && limitMs === null ? '">", "@" or end of text' : '">" or end of text', text);
    i++;
  }
  if (steps.length < 2) throw new SequenceSyntaxError(text.length, '">" and a second step (a sequence has at least two steps)', text);
  return { steps };
}

/** Writes a limit with the largest unit that divides it. */
function formatLimit(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  }
  return `${ms}ms`;
}

/** The canonical text of a sequence (upper-case types, no spaces around operators, largest limit units). */
export function formatSequence(sequence: ExpectedSequence): string {
  return sequence.steps
    .map((step) => `${step.messageType}${step.interface === null ? '' : `@${step.interface}`}${step.limitMs === null ? '' : `<${formatLimit(step.limitMs)}`}`)
    .join('>');
}

/** Whether a message type fact (`ADT`, trigger `A01`) matches a step's type (`ADT` matches every ADT event). */
export function stepTypeMatches(stepType: string, messageType: string | null, triggerEvent: string | null): boolean {
  if (messageType === null) return false;
  const caret = stepType.indexOf('^');
  if (caret < 0) return stepType === messageType.toUpperCase();
  return stepType.slice(0, caret) === messageType.toUpperCase() && stepType.slice(caret + 1) === (triggerEvent ?? '').toUpperCase();
}
