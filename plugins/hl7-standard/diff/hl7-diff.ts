/**
 * Field-level diff of two HL7 v2 messages. Both sides are parsed first, so encoding details are not differences:
 * `PID|||123^^^MRN|||` equals `PID|||123^^^MRN`, escapes compare decoded, and the two messages may be of different
 * versions. Repeated segments are aligned by their set ID (field 1 of segments whose first field is a Set ID) and
 * otherwise by order. Each difference is reported at the coarsest level where the two sides part: a field present
 * on one side only is one `added`/`removed` difference, not one per component.
 */
import type { Difference, DiffResult } from '../../../kernel/standards-registry.ts';
import { DifferenceList } from '../../../kernel/standards/issue-list.ts';
import { checkPathPatternLimits } from '../../../kernel/lib/paths/path-pattern.ts';
import { unmatchedPatterns } from '../../../kernel/lib/paths/pattern-usage.ts';
import { hl7Errors } from '../errors.ts';
import { compileIgnorePattern, type DiffLocation, type IgnorePattern, patternCovers } from './hl7-diff-ignore.ts';
import { getHl7Definitions, nearestVersion } from '../hl7-definitions.ts';
import type { Hl7Delimiters, Hl7Field, Hl7Message, Hl7Segment } from '../hl7-model.ts';
import { type Hl7ParsedMessage, parseHl7 } from '../parsing/hl7-parser.ts';

/** Options of {@link diffHl7Messages}. */
export interface Hl7DiffOptions {
  /** Paths to leave out of the comparison (see `hl7-diff-ignore.ts` for the syntax). */
  ignoredFields: string[];
  /** Most differences listed (kernel/standards/issue-list.ts); every one is counted. */
  maxDifferences?: number;
}

function parseSide(content: string, side: 'left' | 'right'): Hl7ParsedMessage {
  const result = parseHl7(content);
  const message = result.messages[0];
  if (!message) {
    const reason = result.problems[0]?.message ?? 'it holds no MSH segment.';
    throw hl7Errors.create('MESSAGE_UNPARSEABLE', { side, reason }, { side, problems: result.problems.slice(0, 5) });
  }
  return message;
}

/** Whether a segment's field 1 is a Set ID in the message's version (PID, OBX, NK1...; not MSH, EVN, ORC). */
function createSetIdLookup(message: Hl7Message): (segment: string) => boolean {
  const msh = message.segments[0];
  const declared = msh?.name === 'MSH' ? (msh.fields[12]?.[0]?.[0]?.[0] ?? '') : '';
  const defs = getHl7Definitions(nearestVersion(declared || '2.5'));
  const cache = new Map<string, boolean>();
  return (name) => {
    let known = cache.get(name);
    if (known === undefined) {
      known = defs.segment(name)?.fields[0]?.dataType === 'SI';
      cache.set(name, known);
    }
    return known;
  };
}

/** Occurrences of each segment name, keyed by set ID when every occurrence has a distinct one, else by order. */
function keyedOccurrences(segments: Hl7Segment[], useSetId: boolean): Map<number, Hl7Segment> | undefined {
  if (!useSetId) return undefined;
  const keyed = new Map<number, Hl7Segment>();
  for (const segment of segments) {
    const raw = segment.fields[1]?.[0]?.[0]?.[0] ?? '';
    const id = /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
    if (id < 1 || keyed.has(id)) return undefined;
    keyed.set(id, segment);
  }
  return keyed;
}

function byOrder(segments: Hl7Segment[]): Map<number, Hl7Segment> {
  return new Map(segments.map((segment, i) => [i + 1, segment]));
}

function groupByName(message: Hl7Message, order: string[]): Map<string, Hl7Segment[]> {
  const groups = new Map<string, Hl7Segment[]>();
  for (const segment of message.segments) {
    let list = groups.get(segment.name);
    if (!list) {
      list = [];
      groups.set(segment.name, list);
      if (!order.includes(segment.name)) order.push(segment.name);
    }
    list.push(segment);
  }
  return groups;
}

type Level = 'field' | 'repetition' | 'component' | 'subcomponent';

/** Writes a decoded value back with its delimiters, for showing composite values in a difference. */
function joinParts(parts: unknown, level: Level, d: Hl7Delimiters): string {
  switch (level) {
    case 'field':
      return (parts as Hl7Field).map((rep) => joinParts(rep, 'repetition', d)).join(d.repetition);
    case 'repetition':
      return (parts as string[][]).map((comp) => comp.join(d.subcomponent)).join(d.component);
    case 'component':
      return (parts as string[]).join(d.subcomponent);
    default:
      return parts as string;
  }
}

/** Strict structural equality of two parsed parts (equal parts can have no difference). */
function sameParts(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left === 'string' || typeof right === 'string' || left === undefined || right === undefined) return false;
  const l = left as unknown[];
  const r = right as unknown[];
  if (l.length !== r.length) return false;
  for (let i = 0; i < l.length; i++) if (!sameParts(l[i], r[i])) return false;
  return true;
}

function isBlank(parts: unknown): boolean {
  if (typeof parts === 'string') return parts === '';
  return (parts as unknown[]).every(isBlank);
}

interface DiffWalk {
  left: Hl7Delimiters;
  right: Hl7Delimiters;
  patterns: IgnorePattern[];
  out: DifferenceList;
}

/** Which indexes a path shows: an index appears only where either side has more than one part at that level. */
interface ShownIndexes {
  segment: boolean;
  repetition: boolean;
  component: boolean;
  subcomponent: boolean;
}

function formatLocation(at: DiffLocation, shown: ShownIndexes): string {
  let text = at.segment + (shown.segment ? `[${at.segmentIndex}]` : '');
  if (at.field === undefined) return text;
  text += `.${at.field}`;
  if (at.repetition !== undefined && shown.repetition) text += `[${at.repetition}]`;
  if (at.component !== undefined && shown.component) text += `.${at.component}`;
  if (at.subcomponent !== undefined && shown.subcomponent) text += `.${at.subcomponent}`;
  return text;
}

function record(
  walk: DiffWalk,
  at: DiffLocation,
  shown: ShownIndexes,
  leftValue: string,
  rightValue: string,
  changeType: Difference['changeType'] = leftValue === '' ? 'added' : rightValue === '' ? 'removed' : 'modified',
): void {
  if (walk.patterns.some((pattern) => patternCovers(pattern, at))) return;
  walk.out.add({ field: formatLocation(at, shown), leftValue, rightValue, changeType });
}

const CHILD_LEVEL: Record<Level, Exclude<Level, 'field'> | undefined> = {
  field: 'repetition',
  repetition: 'component',
  component: 'subcomponent',
  subcomponent: undefined,
};

/**
 * Compares one level (a field's repetitions, a repetition's components, a component's subcomponents). A side that
 * is blank at this level makes one difference here; otherwise each child is compared one level down.
 */
function compareParts(walk: DiffWalk, level: Level, left: unknown, right: unknown, at: DiffLocation, shown: ShownIndexes): void {
  // Most fields of two related messages are equal: settle those without building any path.
  if (sameParts(left, right)) return;
  const leftBlank = left === undefined || isBlank(left);
  const rightBlank = right === undefined || isBlank(right);
  if (leftBlank && rightBlank) return;
  const child = CHILD_LEVEL[level];
  if (child === undefined || leftBlank || rightBlank) {
    const l = leftBlank ? '' : joinParts(left, level, walk.left);
    const r = rightBlank ? '' : joinParts(right, level, walk.right);
    if (l !== r) record(walk, at, shown, l, r);
    return;
  }
  const l = left as unknown[];
  const r = right as unknown[];
  const count = Math.max(l.length, r.length);
  const childShown: ShownIndexes = { ...shown };
  childShown[child] = count > 1;
  for (let i = 0; i < count; i++) compareParts(walk, child, l[i], r[i], locate(at, child, i + 1), childShown);
}

/** A copy of a location one level deeper (objects of one shape keep the walk fast). */
function locate(at: DiffLocation, level: Level, index: number): DiffLocation {
  return {
    segment: at.segment,
    segmentIndex: at.segmentIndex,
    field: level === 'field' ? index : at.field,
    repetition: level === 'repetition' ? index : at.repetition,
    component: level === 'component' ? index : at.component,
    subcomponent: level === 'subcomponent' ? index : at.subcomponent,
  };
}

function compareSegments(walk: DiffWalk, left: Hl7Segment | undefined, right: Hl7Segment | undefined, at: DiffLocation, showIndex: boolean): void {
  const shown: ShownIndexes = { segment: showIndex, repetition: false, component: false, subcomponent: false };
  if (!left || !right) {
    const present = (left ?? right) as Hl7Segment;
    const d = left ? walk.left : walk.right;
    const text = present.fields.slice(1).map((f) => joinParts(f, 'field', d)).join(d.field);
    // A segment present on one side is added or removed even when it carries no field at all.
    record(walk, at, shown, left ? text : '', right ? text : '', left ? 'removed' : 'added');
    return;
  }
  const count = Math.max(left.fields.length, right.fields.length);
  for (let f = 1; f < count; f++) {
    if (!sameParts(left.fields[f], right.fields[f])) compareParts(walk, 'field', left.fields[f], right.fields[f], locate(at, 'field', f), shown);
  }
}

/** Every location a segment holds: itself, then each field, repetition, component and subcomponent present. */
function* segmentLocations(segment: Hl7Segment, at: DiffLocation): Generator<DiffLocation> {
  yield at;
  for (let f = 1; f < segment.fields.length; f++) {
    const fieldAt = locate(at, 'field', f);
    yield fieldAt;
    const repetitions = segment.fields[f] ?? [];
    for (let r = 0; r < repetitions.length; r++) {
      const repetitionAt = locate(fieldAt, 'repetition', r + 1);
      yield repetitionAt;
      const components = repetitions[r] ?? [];
      for (let c = 0; c < components.length; c++) {
        const componentAt = locate(repetitionAt, 'component', c + 1);
        yield componentAt;
        const subcomponents = components[c] ?? [];
        for (let sc = 0; sc < subcomponents.length; sc++) yield locate(componentAt, 'subcomponent', sc + 1);
      }
    }
  }
}

/**
 * Compares two messages field by field. Throws the plugin's `MESSAGE_UNPARSEABLE` (400, naming the side) when a side
 * holds no HL7 v2 message; anything else readable is compared.
 */
export function diffHl7Messages(left: string, right: string, options: Hl7DiffOptions): DiffResult {
  checkPathPatternLimits(options.ignoredFields, 'ignoredFields');
  const leftMessage = parseSide(left, 'left');
  const rightMessage = parseSide(right, 'right');
  const patterns = options.ignoredFields.map(compileIgnorePattern).filter((p): p is IgnorePattern => p !== undefined);
  const walk: DiffWalk = { left: leftMessage.delimiters, right: rightMessage.delimiters, patterns, out: new DifferenceList(options.maxDifferences) };
  const order: string[] = [];
  // every segment occurrence of either side with its location, for finding ignore patterns that match nothing
  const occurrences: Array<[Hl7Segment, DiffLocation]> = [];
  const leftGroups = groupByName(leftMessage, order);
  const rightGroups = groupByName(rightMessage, order);
  // Either side's version decides, so that the diff stays symmetric when the versions differ.
  const leftHasSetId = createSetIdLookup(leftMessage);
  const rightHasSetId = createSetIdLookup(rightMessage);
  const hasSetId = (name: string) => leftHasSetId(name) || rightHasSetId(name);
  for (const name of order) {
    const l = leftGroups.get(name) ?? [];
    const r = rightGroups.get(name) ?? [];
    const useSetId = hasSetId(name);
    let leftKeyed = keyedOccurrences(l, useSetId);
    let rightKeyed = keyedOccurrences(r, useSetId);
    if (!leftKeyed || !rightKeyed) {
      leftKeyed = byOrder(l);
      rightKeyed = byOrder(r);
    }
    const keys = [...new Set([...leftKeyed.keys(), ...rightKeyed.keys()])].sort((a, b) => a - b);
    const showIndex = name !== 'MSH' && (l.length > 1 || r.length > 1 || keys.some((k) => k !== 1));
    for (const key of keys) {
      const at = { segment: name, segmentIndex: key };
      compareSegments(walk, leftKeyed.get(key), rightKeyed.get(key), at, showIndex);
      for (const segment of [leftKeyed.get(key), rightKeyed.get(key)]) if (segment) occurrences.push([segment, at]);
    }
  }
  function* locations(): Generator<DiffLocation> {
    for (const [segment, at] of occurrences) yield* segmentLocations(segment, at);
  }
  const unmatchedIgnoredFields =
    options.ignoredFields.length === 0
      ? []
      : unmatchedPatterns(
          options.ignoredFields.map((text) => ({ text, pattern: compileIgnorePattern(text) })),
          locations(),
          patternCovers,
        );
  return {
    differences: walk.out.differences,
    totalDifferences: walk.out.count,
    totals: walk.out.totals(),
    truncated: walk.out.truncated,
    ignoredFields: [...options.ignoredFields],
    unmatchedIgnoredFields,
  };
}
