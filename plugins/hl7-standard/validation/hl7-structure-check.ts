/**
 * Checks segment order, group nesting and cardinality against a message structure (abstract message syntax).
 *
 * The matcher walks the structure greedily: a group or choice is entered only when the current segment can start
 * it (its FIRST set), so a missing optional group never swallows segments. Segments the structure does not know
 * at all (Z-segments, segments of another message type) are set aside first and reported on their own.
 *
 * Recovery: a known segment that nothing from the current point on can take (the rest of the current sequence,
 * another occurrence of an enclosing repeating group, or what follows an enclosing group) is reported once, as out
 * of order or, when a non-repeating segment occurs again, as a repetition, and is stepped over; matching goes on
 * at the same place in the structure, so later segments and groups are judged as if it were not there. A required
 * element that the segment after a stray one can start takes that segment, with the stray one reported (`PID PID
 * ORC`: the second PID is the problem, not a missing order). A whole group written in the wrong place (`PV1 PV2`
 * after the orders) is one finding about the group.
 */
import type { Hl7MessageStructure, Hl7StructureNode } from '../hl7-definitions.ts';
import type { Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Segment } from '../hl7-model.ts';

/** Precompiled facts about one structure, computed once per structure object. */
interface CompiledStructure {
  /** Every segment name that occurs somewhere in the structure. */
  names: Set<string>;
  /** Segment names that may occur more than once (repeating segment or inside a repeating group). */
  repeatable: Set<string>;
  /** FIRST set of each node: the names that can begin it. */
  first: Map<Hl7StructureNode, Set<string>>;
  /** Per node, the names that can begin one of the nodes after it in its sequence. */
  later: Map<Hl7StructureNode, Set<string>>;
  /**
   * Restart sets inside repeating groups (enclosing restart set plus the group's FIRST set), by enclosing set and
   * group: the same few sets serve every message, so they are built once instead of per group occurrence.
   */
  restarts: WeakMap<ReadonlySet<string>, Map<Hl7StructureNode, ReadonlySet<string>>>;
  /**
   * Follow and acceptance sets, by enclosing follow set and node, built once like the restart sets: `inner` is what
   * may come after the node's children (the node's later siblings, its own FIRST set when it repeats, the enclosing
   * follow set); `accept` what may come before an occurrence of the node (its FIRST set, later siblings, follow);
   * `after` what may come once the node may not occur again.
   */
  follows: WeakMap<ReadonlySet<string>, Map<Hl7StructureNode, NodeSets>>;
  /** Groups (outermost first) whose FIRST set holds a name: the candidates when a segment opens a misplaced group. */
  groupsStarting: Map<string, Hl7StructureNode[]>;
  /** Description of each segment name, for sentences. */
  descriptions: Map<string, string>;
  /**
   * Groups that an empty match satisfies although their minimum is 1: every member optional. hl7-dictionary
   * writes v2.3's `{ [OBX] {[NTE]} }` (ORU_R01 OBSERVATION) that way; a group of optional parts cannot be missing.
   */
  hollow: Set<Hl7StructureNode>;
}

/** Sets of names about one node within one enclosing context. */
interface NodeSets {
  inner: ReadonlySet<string>;
  accept: ReadonlySet<string>;
  after: ReadonlySet<string>;
}

const compiled = new WeakMap<Hl7MessageStructure, CompiledStructure>();

function firstOf(node: Hl7StructureNode, first: Map<Hl7StructureNode, Set<string>>): Set<string> {
  const cached = first.get(node);
  if (cached) return cached;
  const set = new Set<string>();
  first.set(node, set);
  if (node.kind === 'segment') set.add(node.name);
  else if (node.kind === 'choice') for (const child of node.children) for (const n of firstOf(child, first)) set.add(n);
  else {
    for (const child of node.children) {
      for (const n of firstOf(child, first)) set.add(n);
      if (child.min > 0) break;
    }
  }
  return set;
}

/** The precompiled form of a structure (cached). */
export function compileStructure(structure: Hl7MessageStructure): CompiledStructure {
  let result = compiled.get(structure);
  if (result) return result;
  const names = new Set<string>();
  const repeatable = new Set<string>();
  const groupsStarting = new Map<string, Hl7StructureNode[]>();
  const descriptions = new Map<string, string>();
  const first = new Map<Hl7StructureNode, Set<string>>();
  const later = new Map<Hl7StructureNode, Set<string>>();
  const walk = (nodes: Hl7StructureNode[], repeating: boolean) => {
    let after = new Set<string>();
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = nodes[i] as Hl7StructureNode;
      later.set(node, after);
      after = new Set([...after, ...firstOf(node, first)]);
    }
    for (const node of nodes) {
      const repeats = repeating || node.max > 1;
      if (node.kind === 'segment') {
        if (names.has(node.name)) repeatable.add(node.name);
        names.add(node.name);
        descriptions.set(node.name, node.description);
        if (repeats) repeatable.add(node.name);
      }
      firstOf(node, first);
      if (node.kind === 'group') {
        for (const name of firstOf(node, first)) {
          const list = groupsStarting.get(name) ?? [];
          list.push(node);
          groupsStarting.set(name, list);
        }
      }
      walk(node.children, repeats);
    }
  };
  walk(structure.nodes, false);
  const hollow = new Set<Hl7StructureNode>();
  const visit = (nodes: Hl7StructureNode[]) => {
    for (const node of nodes) {
      visit(node.children);
      if (node.kind !== 'segment' && node.min > 0 && node.children.every((child) => child.min === 0 || hollow.has(child))) hollow.add(node);
    }
  };
  visit(structure.nodes);
  result = { names, repeatable, first, later, restarts: new WeakMap(), follows: new WeakMap(), groupsStarting, descriptions, hollow };
  compiled.set(structure, result);
  return result;
}

/** Inputs of a structure check. */
export interface StructureCheckInput {
  segments: Hl7Segment[];
  structure: Hl7MessageStructure;
  /** "ADT^A01 v2.5.1", used in sentences. */
  label: string;
  /** Path of a segment occurrence (`OBX[2]`, `PID`). */
  pathOf: (segment: Hl7Segment) => string;
  /** Segments the structure does not list that are nonetheless allowed (Z-segments a profile defines). */
  allowedExtra: (name: string) => boolean;
  issues: Hl7IssueCollector;
}

const NOTHING: ReadonlySet<string> = new Set();

interface MatchState {
  segments: Hl7Segment[];
  pos: number;
  /** Set while trying a group out: problems are counted, not reported. */
  dryRun: boolean;
  trialProblems: number;
  /** Set while measuring how far a misplaced group reaches: nothing is stepped over, matching just stops. */
  noRecovery: boolean;
  /**
   * Segments that misplaced-group trials may still read: a trial that is not taken costs what it read, and the
   * budget (a few times the message's length) keeps the whole check linear on pathological input.
   */
  trialBudget: number;
  /** Names of the segments before `seenUpTo`, for telling a repetition from a misplacement in one pass. */
  seen: Set<string>;
  seenUpTo: number;
  input: StructureCheckInput;
  compiledStructure: CompiledStructure;
}

/**
 * Matches a sequence of nodes. `restart` holds the names that may begin another occurrence of an enclosing
 * repeating group: such a name after a non-repeating segment starts a new group occurrence, not a repetition.
 * `follow` holds every name that may come after the sequence (restart names and what follows enclosing groups).
 */
function matchSequence(nodes: Hl7StructureNode[], state: MatchState, groupPath: string, restart: ReadonlySet<string>, follow: ReadonlySet<string>): void {
  for (let i = 0; i < nodes.length; i++) matchRepeated(nodes[i] as Hl7StructureNode, nodes, i, state, groupPath, restart, follow);
}

/** True when a later node of the sequence can take a segment of that name. */
function laterNodeTakes(nodes: Hl7StructureNode[], index: number, name: string, state: MatchState): boolean {
  return state.compiledStructure.later.get(nodes[index] as Hl7StructureNode)?.has(name) ?? false;
}

/** The names that may begin another occurrence of `group` or of a group enclosing it (cached per structure). */
function restartInside(group: Hl7StructureNode, restart: ReadonlySet<string>, compiledStructure: CompiledStructure): ReadonlySet<string> {
  let byGroup = compiledStructure.restarts.get(restart);
  if (!byGroup) {
    byGroup = new Map();
    compiledStructure.restarts.set(restart, byGroup);
  }
  let inner = byGroup.get(group);
  if (!inner) {
    inner = new Set([...restart, ...(compiledStructure.first.get(group) ?? [])]);
    byGroup.set(group, inner);
  }
  return inner;
}

/** The follow and acceptance sets of a node within an enclosing follow set (cached per structure). */
function setsOf(node: Hl7StructureNode, follow: ReadonlySet<string>, compiledStructure: CompiledStructure): NodeSets {
  let byNode = compiledStructure.follows.get(follow);
  if (!byNode) {
    byNode = new Map();
    compiledStructure.follows.set(follow, byNode);
  }
  let sets = byNode.get(node);
  if (!sets) {
    const first = compiledStructure.first.get(node) ?? NOTHING;
    const later = compiledStructure.later.get(node) ?? NOTHING;
    const after = new Set([...later, ...follow]);
    sets = { inner: node.max > 1 ? new Set([...after, ...first]) : after, accept: new Set([...first, ...after]), after };
    byNode.set(node, sets);
  }
  return sets;
}

function canStart(node: Hl7StructureNode, state: MatchState, at = state.pos): boolean {
  const segment = state.segments[at];
  return segment !== undefined && (state.compiledStructure.first.get(node)?.has(segment.name) ?? false);
}

function matchRepeated(
  node: Hl7StructureNode,
  siblings: Hl7StructureNode[],
  index: number,
  state: MatchState,
  groupPath: string,
  restart: ReadonlySet<string>,
  follow: ReadonlySet<string>,
): void {
  const sets = setsOf(node, follow, state.compiledStructure);
  const min = state.compiledStructure.hollow.has(node) ? 0 : node.min;
  let count = 0;
  for (;;) {
    const room = count < node.max;
    stepOverMisplaced(state, room ? sets.accept : sets.after);
    if (!room) break;
    if (!canStart(node, state)) {
      // A required element the next segment can start: the segment in between is the stray one.
      if (count < min && !state.noRecovery && state.pos < state.segments.length && canStart(node, state, state.pos + 1)) {
        reportMisplaced(state, false);
        continue;
      }
      break;
    }
    // A required element not yet seen is entered whatever follows: leaving it out is a problem for sure.
    if (count >= min && !worthEntering(node, siblings, index, state, groupPath, restart, sets.inner)) break;
    const before = state.pos;
    matchOnce(node, state, groupPath, restart, sets.inner);
    // A group that took nothing (its first part was left to an alternative) did not occur.
    if (state.pos === before) break;
    count++;
  }
  if (count < min && state.dryRun) state.trialProblems++;
  else if (count < min) {
    const where = groupPath ? ` in group ${groupPath}` : '';
    if (node.kind === 'segment') {
      state.input.issues.add('SEGMENT_MISSING', node.name, `Segment ${node.name} (${node.description}) is required${where} in ${state.input.label} but is missing.`, undefined, {
        expected: `segment ${node.name}${where}`,
        actual: 'absent',
      });
    } else {
      const first = [...(state.compiledStructure.first.get(node) ?? [])].join(' or ');
      state.input.issues.add(
        'SEGMENT_MISSING',
        first.split(' or ')[0] ?? node.name,
        `Group ${node.name} (${node.description}), starting with ${first}, is required${where} in ${state.input.label} but is missing.`,
        undefined,
        { expected: `group ${node.name}, starting with ${first}${where}`, actual: 'absent' },
      );
    }
  }
}

/** Steps over (and reports) every segment from the current one on that no element from here can take. */
function stepOverMisplaced(state: MatchState, acceptable: ReadonlySet<string>): void {
  if (state.noRecovery) return;
  while (state.pos < state.segments.length && !acceptable.has((state.segments[state.pos] as Hl7Segment).name)) reportMisplaced(state, true);
}

/**
 * Reports the segment at the current position as misplaced and steps over it, or over the whole group it opens
 * when a group of the structure starting with it takes several segments from here.
 */
function reportMisplaced(state: MatchState, groupsToo: boolean): void {
  const segment = state.segments[state.pos] as Hl7Segment;
  const group = groupsToo ? misplacedGroupLength(state) : undefined;
  const taken = group?.length ?? 1;
  const start = state.pos;
  state.pos += taken;
  if (state.dryRun) {
    state.trialProblems++;
    return;
  }
  const { input, compiledStructure } = state;
  if (group) {
    const last = state.segments[start + taken - 1] as Hl7Segment;
    input.issues.add(
      'SEGMENT_OUT_OF_ORDER',
      input.pathOf(segment),
      `Group ${group.node.name} (${group.node.description}), segments ${segment.name} to ${last.name} on lines ${segment.line}-${last.line}, is not allowed at this position in the ${input.label} message structure.`,
      undefined,
      { expected: `group ${group.node.name} at its place in the ${input.label} structure`, actual: placeOf(state, start) },
    );
    return;
  }
  const previous = state.segments[start - 1];
  if (previous?.name === segment.name || (!compiledStructure.repeatable.has(segment.name) && occursBefore(state, start, segment.name))) {
    input.issues.add(
      'TOO_MANY_REPETITIONS',
      input.pathOf(segment),
      `Segment ${segment.name} (${compiledStructure.descriptions.get(segment.name) ?? segment.name}) occurs again on line ${segment.line}, where ${input.label} allows no further occurrence of it.`,
    );
    return;
  }
  input.issues.add(
    'SEGMENT_OUT_OF_ORDER',
    input.pathOf(segment),
    `Segment ${segment.name} (line ${segment.line}) is not allowed at this position in the ${input.label} message structure.`,
    undefined,
    { expected: `${segment.name} at its place in the ${input.label} structure`, actual: placeOf(state, start) },
  );
}

/** Where a misplaced segment stands: its line and the segment before it (`line 3, after EVN`). */
function placeOf(state: MatchState, index: number): string {
  const segment = state.segments[index] as Hl7Segment;
  const previous = state.segments[index - 1];
  return `line ${segment.line}, after ${previous ? previous.name : 'nothing'}`;
}

/** True when a segment of that name comes before position `end` (reports come in order, so this is one pass). */
function occursBefore(state: MatchState, end: number, name: string): boolean {
  for (; state.seenUpTo < end; state.seenUpTo++) state.seen.add((state.segments[state.seenUpTo] as Hl7Segment).name);
  return state.seen.has(name);
}

/**
 * When the misplaced segment opens a group of the structure that takes more than it from here (matched on its
 * own, stopping at the first segment it cannot take), that group and how many segments it spans.
 */
function misplacedGroupLength(state: MatchState): { node: Hl7StructureNode; length: number } | undefined {
  const name = (state.segments[state.pos] as Hl7Segment).name;
  const candidates = state.compiledStructure.groupsStarting.get(name);
  if (!candidates || state.trialBudget <= 0) return undefined;
  const saved = { pos: state.pos, dryRun: state.dryRun, trialProblems: state.trialProblems, noRecovery: state.noRecovery };
  let best: { node: Hl7StructureNode; length: number } | undefined;
  for (const node of candidates) {
    state.pos = saved.pos;
    state.dryRun = true;
    state.noRecovery = true;
    state.trialProblems = 0;
    matchOnce(node, state, '', NOTHING, NOTHING);
    const length = state.pos - saved.pos;
    if (state.trialProblems === 0 && length > 1 && length > (best?.length ?? 1)) best = { node, length };
    else state.trialBudget -= length;
  }
  Object.assign(state, saved);
  return best;
}

/**
 * Whether to enter a group at the current segment. The abstract message syntax is ambiguous where an optional
 * group and an enclosing repetition (or a later element) can both begin with the same segment, e.g. ORC in
 * OML_O21: a new ORDER, or the PRIOR_RESULT of the current one. The group is tried out first; when it would leave
 * required parts missing and something else can take the segment, the segment is left to that alternative.
 */
function worthEntering(
  node: Hl7StructureNode,
  siblings: Hl7StructureNode[],
  index: number,
  state: MatchState,
  groupPath: string,
  restart: ReadonlySet<string>,
  inner: ReadonlySet<string>,
): boolean {
  if (node.kind === 'segment' || state.dryRun) return true;
  const name = (state.segments[state.pos] as Hl7Segment).name;
  if (!restart.has(name) && !laterNodeTakes(siblings, index, name, state)) return true;
  const saved = { pos: state.pos, noRecovery: state.noRecovery };
  state.dryRun = true;
  // The trial stops at the first segment the group cannot take: what comes after it is not the group's concern.
  state.noRecovery = true;
  state.trialProblems = 0;
  matchOnce(node, state, groupPath, restart, inner);
  const clean = state.trialProblems === 0;
  state.dryRun = false;
  state.pos = saved.pos;
  state.noRecovery = saved.noRecovery;
  return clean;
}

function matchOnce(node: Hl7StructureNode, state: MatchState, groupPath: string, restart: ReadonlySet<string>, inner: ReadonlySet<string>): void {
  if (node.kind === 'segment') {
    state.pos++;
    return;
  }
  const innerRestart = node.max > 1 ? restartInside(node, restart, state.compiledStructure) : restart;
  if (node.kind === 'choice') {
    const option = node.children.find((child) => canStart(child, state));
    if (option) matchOnce(option, state, groupPath, innerRestart, inner);
    return;
  }
  matchSequence(node.children, state, groupPath ? `${groupPath}.${node.name}` : node.name, innerRestart, inner);
}

/** Checks one message's segments against its structure, reporting into `input.issues`. */
export function checkMessageStructure(input: StructureCheckInput): void {
  const compiledStructure = compileStructure(input.structure);
  const known: Hl7Segment[] = [];
  for (let i = 0; i < input.segments.length; i++) {
    const segment = input.segments[i] as Hl7Segment;
    if (compiledStructure.names.has(segment.name)) {
      known.push(segment);
      continue;
    }
    if (input.allowedExtra(segment.name)) continue;
    const isZ = segment.name.charCodeAt(0) === 90;
    input.issues.add(
      'SEGMENT_UNEXPECTED',
      input.pathOf(segment),
      isZ
        ? `Segment ${segment.name} (line ${segment.line}) is a locally defined Z-segment that ${input.label} does not define (no profile describes it).`
        : `Segment ${segment.name} (line ${segment.line}) is not part of the ${input.label} message structure.`,
      // Working interfaces routinely carry Z-segments; compatibility mode accepts them silently.
      true,
    );
  }
  const state: MatchState = {
    segments: known,
    pos: 0,
    dryRun: false,
    trialProblems: 0,
    noRecovery: false,
    trialBudget: 4 * known.length + 64,
    seen: new Set(),
    seenUpTo: 0,
    input,
    compiledStructure,
  };
  matchSequence(input.structure.nodes, state, '', NOTHING, NOTHING);
  // Whatever the structure's end leaves over can go nowhere.
  stepOverMisplaced(state, NOTHING);
}
