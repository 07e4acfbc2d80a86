/**
 * Path patterns (the `ignoredFields` of a diff) matched step by step, never with a regular expression: a pattern is
 * a list of steps, a path is a list of steps, and matching simulates the pattern as a small automaton over the
 * path's steps. The work is at most (steps of the path) × (steps of the pattern) step comparisons, whatever the
 * wildcards, so no pattern can make a diff backtrack, recurse deeply or run for long.
 *
 * Syntax, shared by every standard that uses it: steps are separated by `.`; `**` is a whole step matching any
 * number of steps (none included); `*` inside a step matches any run of characters of that step's name (`*`
 * alone: any one step, `AM0*`, `Sent*`); a trailing `[n]` names an occurrence, `[*]` any occurrence, and a step
 * without one matches every occurrence. With `attributes`, `Name@attr` is two steps, `Name` and `@attr` (NCPDP
 * SCRIPT attributes). A pattern covers the step it reaches and everything below it (a prefix ignores a subtree).
 */
import { kernelErrors } from '../../errors.ts';

/** One step of a path: a name and, for a repeated element, the occurrence index written in the path. */
export interface PathStep {
  name: string;
  index?: number;
}

/** One step of a compiled pattern. */
type PatternStep =
  | { kind: 'any-steps' }
  | {
      kind: 'step';
      /** The name split at its `*` wildcards: one part is an exact name, more are a glob. */
      parts: readonly string[];
      /** Occurrence wanted: a number, any (`*`), or undefined (any, too). */
      index: number | '*' | undefined;
    };

/** How paths and patterns of one standard read. */
export interface PathPatternOptions {
  /**
   * `start`: a pattern matches from the first step of the path (NCPDP); `any-step`: from any step, so
   * `meta.lastUpdated` covers `Bundle.entry[2].resource.meta.lastUpdated` (FHIR).
   */
  anchor: 'start' | 'any-step';
  /** Split `Name@attr` into the steps `Name` and `@attr`. */
  attributes?: boolean;
  /** Occurrence a path step without an index stands for (NCPDP numbers from the second occurrence: `Name` is 1). */
  implicitIndex?: number;
}

/** Most patterns one request may give. */
export const MAX_PATH_PATTERNS = 100;

/** Longest pattern accepted, in characters. */
export const MAX_PATH_PATTERN_LENGTH = 256;

/**
 * Refuses a pattern list over the limits (400 `TOO_MANY_PATTERNS`, or `PATTERN_TOO_LONG` naming the entry, e.g.
 * `ignoredFields[3]`). `field` is the request field that holds the list.
 */
export function checkPathPatternLimits(patterns: readonly string[], field: string): void {
  if (patterns.length > MAX_PATH_PATTERNS) {
    throw kernelErrors.create('TOO_MANY_PATTERNS', { field, count: patterns.length, max: MAX_PATH_PATTERNS }, {
      field,
      count: patterns.length,
      max: MAX_PATH_PATTERNS,
    });
  }
  for (let i = 0; i < patterns.length; i++) {
    const length = (patterns[i] as string).length;
    if (length > MAX_PATH_PATTERN_LENGTH) {
      const entry = `${field}[${i}]`;
      throw kernelErrors.create('PATTERN_TOO_LONG', { field: entry, length, max: MAX_PATH_PATTERN_LENGTH }, {
        field: entry,
        length,
        max: MAX_PATH_PATTERN_LENGTH,
      });
    }
  }
}

/** Splits `text` at `separator`, or returns it whole. */
function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Reads a trailing `[n]` or `[*]`; any other bracket stays part of the name (FHIR's `value[x]`). */
function splitIndex(raw: string): { name: string; index: number | '*' | undefined } {
  if (!raw.endsWith(']')) return { name: raw, index: undefined };
  const open = raw.lastIndexOf('[');
  if (open <= 0) return { name: raw, index: undefined };
  const inner = raw.slice(open + 1, -1);
  if (inner === '*') return { name: raw.slice(0, open), index: '*' };
  if (inner.length > 0 && inner.length <= 9 && /^[0-9]+$/.test(inner)) return { name: raw.slice(0, open), index: Number(inner) };
  return { name: raw, index: undefined };
}

/** Splits a path written with `.` steps (`Patient.name[0].family`, `NewRx.Drug@Qualifier`) into steps. */
export function pathSteps(path: string, options: Pick<PathPatternOptions, 'attributes'> = {}): PathStep[] {
  const steps: PathStep[] = [];
  for (const raw of path.split('.')) {
    const [element, attribute] = options.attributes ? splitOnce(raw, '@') : [raw, undefined];
    const { name, index } = splitIndex(element);
    steps.push(typeof index === 'number' ? { name, index } : { name });
    if (attribute !== undefined) steps.push({ name: `@${attribute}` });
  }
  return steps;
}

function compileSteps(text: string, options: PathPatternOptions): PatternStep[] {
  const steps: PatternStep[] = [];
  for (const raw of text.trim().split('.')) {
    if (raw === '**') {
      // `**.**` matches what one `**` does; collapsing keeps the automaton small.
      if (steps.at(-1)?.kind !== 'any-steps') steps.push({ kind: 'any-steps' });
      continue;
    }
    const [element, attribute] = options.attributes ? splitOnce(raw, '@') : [raw, undefined];
    const { name, index } = splitIndex(element);
    steps.push({ kind: 'step', parts: name.split('*'), index });
    if (attribute !== undefined) steps.push({ kind: 'step', parts: `@${attribute}`.split('*'), index: undefined });
  }
  return steps;
}

/**
 * True when `name` matches the parts of a glob (`parts` = the glob split at `*`). The first part must start the
 * name, the last end it, and each middle part is taken at its leftmost place after the previous one: for `*`-only
 * globs the leftmost choice is always as good as any other, so no alternative is ever retried.
 */
export function globMatches(parts: readonly string[], name: string): boolean {
  if (parts.length === 1) return parts[0] === name;
  const head = parts[0] as string;
  const tail = parts[parts.length - 1] as string;
  if (name.length < head.length + tail.length || !name.startsWith(head) || !name.endsWith(tail)) return false;
  let at = head.length;
  const end = name.length - tail.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    if (part === '') continue;
    const found = name.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

function stepMatches(step: Extract<PatternStep, { kind: 'step' }>, actual: PathStep, implicitIndex: number | undefined): boolean {
  if (step.index !== undefined && step.index !== '*' && step.index !== (actual.index ?? implicitIndex)) return false;
  return globMatches(step.parts, actual.name);
}

/** One compiled pattern. */
export interface PathPattern {
  /** The pattern as given. */
  readonly text: string;
  /** True when the pattern covers the path (the step it reaches, or anything below it). */
  covers(path: readonly PathStep[]): boolean;
}

/**
 * Compiles one pattern. Matching tracks, after each step of the path, which pattern steps are reachable (a set of
 * at most pattern-length states): a `**` state stays reachable while it consumes steps and also lets the next
 * state be reached without consuming any. Reaching the end of the pattern means covered.
 */
export function compilePathPattern(text: string, options: PathPatternOptions): PathPattern {
  const steps = compileSteps(text, options);
  const size = steps.length;
  const anywhere = options.anchor === 'any-step';
  const implicitIndex = options.implicitIndex;
  // Two state sets, swapped after each path step; allocated once per pattern.
  let current = new Uint8Array(size + 1);
  let next = new Uint8Array(size + 1);

  /** Follows `**` states to the state after them; true when the end of the pattern is reached. */
  const close = (states: Uint8Array): boolean => {
    for (let s = 0; s < size; s++) if (states[s] && (steps[s] as PatternStep).kind === 'any-steps') states[s + 1] = 1;
    return states[size] === 1;
  };

  return {
    text,
    covers(path) {
      current.fill(0);
      current[0] = 1;
      if (close(current)) return true;
      for (const actual of path) {
        next.fill(0);
        let any = false;
        for (let s = 0; s < size; s++) {
          if (!current[s]) continue;
          const step = steps[s] as PatternStep;
          if (step.kind === 'any-steps') {
            next[s] = 1;
            any = true;
          } else if (stepMatches(step, actual, implicitIndex)) {
            next[s + 1] = 1;
            any = true;
          }
        }
        // A pattern that may start at any step begins again after every step of the path.
        if (anywhere) {
          next[0] = 1;
          any = true;
        }
        [current, next] = [next, current];
        if (!any) return false;
        if (close(current)) return true;
      }
      return false;
    },
  };
}

/** A compiled list of patterns: covers a path when any of them does. */
export interface PathPatternSet {
  readonly patterns: readonly PathPattern[];
  covers(path: readonly PathStep[]): boolean;
}

/**
 * Checks the limits ({@link checkPathPatternLimits}, naming `field`) and compiles every non-blank pattern.
 */
export function compilePathPatterns(texts: readonly string[], field: string, options: PathPatternOptions): PathPatternSet {
  checkPathPatternLimits(texts, field);
  const patterns = texts.filter((text) => text.trim() !== '').map((text) => compilePathPattern(text, options));
  return {
    patterns,
    covers: (path) => {
      for (const pattern of patterns) if (pattern.covers(path)) return true;
      return false;
    },
  };
}

/**
 * A predicate over written paths (`Patient.name[0].family`) for a list of patterns: the patterns are checked and
 * compiled once ({@link compilePathPatterns}), each path is split into steps as the options say.
 */
export function createPathMatcher(texts: readonly string[], field: string, options: PathPatternOptions): (path: string) => boolean {
  const compiled = compilePathPatterns(texts, field, options);
  if (compiled.patterns.length === 0) return () => false;
  return (path) => compiled.covers(pathSteps(path, options));
}
