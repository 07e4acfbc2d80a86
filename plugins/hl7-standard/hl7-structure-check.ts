/**
 * Checks segment order, group nesting and cardinality against a message structure (abstract message syntax).
 *
 * The matcher walks the structure greedily: a group or choice is entered only when the current segment can start
 * it (its FIRST set), so a missing optional group never swallows segments. Segments the structure does not know
 * at all (Z-segments, segments of another message type) are set aside first and reported on their own; a known
 * segment left over after the walk is out of order, and matching resumes after it.
 */
import type { Hl7MessageStructure, Hl7StructureNode } from './hl7-definitions.ts';
import type { Hl7IssueCollector } from './hl7-issue-messages.ts';
import type { Hl7Segment } from './hl7-model.ts';

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
        if (repeats) repeatable.add(node.name);
      }
      firstOf(node, first);
      walk(node.children, repeats);
    }
  };
  walk(structure.nodes, false);
  result = { names, repeatable, first, later, restarts: new WeakMap() };
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

const NO_RESTART: ReadonlySet<string> = new Set();

interface MatchState {
  segments: Hl7Segment[];
  pos: number;
  reportMissing: boolean;
  /** Set while trying a group out: problems are counted, not reported. */
  dryRun: boolean;
  trialProblems: number;
  input: StructureCheckInput;
  compiledStructure: CompiledStructure;
}

/**
 * Matches a sequence of nodes. `restart` holds the names that may begin another occurrence of an enclosing
 * repeating group: such a name after a non-repeating segment starts a new group occurrence, not a repetition.
 */
function matchSequence(nodes: Hl7StructureNode[], state: MatchState, groupPath: string, restart: ReadonlySet<string>): void {
  for (let i = 0; i < nodes.length; i++) matchRepeated(nodes[i] as Hl7StructureNode, nodes, i, state, groupPath, restart);
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

function canStart(node: Hl7StructureNode, state: MatchState): boolean {
  const segment = state.segments[state.pos];
  return segment !== undefined && (state.compiledStructure.first.get(node)?.has(segment.name) ?? false);
}

function matchRepeated(
  node: Hl7StructureNode,
  siblings: Hl7StructureNode[],
  index: number,
  state: MatchState,
  groupPath: string,
  restart: ReadonlySet<string>,
): void {
  let count = 0;
  while (count < node.max && canStart(node, state) && worthEntering(node, siblings, index, state, groupPath, restart)) {
    const before = state.pos;
    matchOnce(node, state, groupPath, restart);
    // A group that took nothing (its first part was left to an alternative) did not occur.
    if (state.pos === before) break;
    count++;
  }
  if (node.kind === 'segment' && count > 0 && node.max !== Number.POSITIVE_INFINITY && !restart.has(node.name) && !laterNodeTakes(siblings, index, node.name, state)) {
    // A non-repeating segment written twice in a row is a repetition problem, not an ordering one.
    while (state.segments[state.pos]?.name === node.name) {
      const segment = state.segments[state.pos] as Hl7Segment;
      state.pos++;
      if (state.dryRun) {
        state.trialProblems++;
        continue;
      }
      state.input.issues.add(
        'TOO_MANY_REPETITIONS',
        state.input.pathOf(segment),
        `Segment ${node.name} (${node.description}) may occur at most ${node.max} time(s) here in ${state.input.label}, but occurs again on line ${segment.line}.`,
      );
    }
  }
  if (count < node.min && state.dryRun) state.trialProblems++;
  else if (count < node.min && state.reportMissing) {
    const where = groupPath ? ` in group ${groupPath}` : '';
    if (node.kind === 'segment') {
      state.input.issues.add('SEGMENT_MISSING', node.name, `Segment ${node.name} (${node.description}) is required${where} in ${state.input.label} but is missing.`);
    } else {
      const first = [...(state.compiledStructure.first.get(node) ?? [])].join(' or ');
      state.input.issues.add(
        'SEGMENT_MISSING',
        first.split(' or ')[0] ?? node.name,
        `Group ${node.name} (${node.description}), starting with ${first}, is required${where} in ${state.input.label} but is missing.`,
      );
    }
  }
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
): boolean {
  if (node.kind === 'segment' || state.dryRun) return true;
  const name = (state.segments[state.pos] as Hl7Segment).name;
  if (!restart.has(name) && !laterNodeTakes(siblings, index, name, state)) return true;
  const pos = state.pos;
  state.dryRun = true;
  state.trialProblems = 0;
  matchOnce(node, state, groupPath, restart);
  const clean = state.trialProblems === 0;
  state.dryRun = false;
  state.pos = pos;
  return clean;
}

function matchOnce(node: Hl7StructureNode, state: MatchState, groupPath: string, restart: ReadonlySet<string>): void {
  if (node.kind === 'segment') {
    state.pos++;
    return;
  }
  const inner = node.max > 1 ? restartInside(node, restart, state.compiledStructure) : restart;
  if (node.kind === 'choice') {
    const option = node.children.find((child) => canStart(child, state));
    if (option) matchOnce(option, state, groupPath, inner);
    return;
  }
  matchSequence(node.children, state, groupPath ? `${groupPath}.${node.name}` : node.name, inner);
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
  const state: MatchState = { segments: known, pos: 0, reportMissing: true, dryRun: false, trialProblems: 0, input, compiledStructure };
  matchSequence(input.structure.nodes, state, '', NO_RESTART);
  while (state.pos < known.length) {
    const segment = known[state.pos] as Hl7Segment;
    input.issues.add(
      'SEGMENT_OUT_OF_ORDER',
      input.pathOf(segment),
      `Segment ${segment.name} (line ${segment.line}) is not allowed at this position in the ${input.label} message structure.`,
    );
    state.pos++;
    // Resume after the misplaced segment without re-reporting what the first pass found missing.
    const before = state.pos;
    state.reportMissing = false;
    matchSequence(input.structure.nodes.slice(1), state, '', NO_RESTART);
    if (state.pos === before) continue;
  }
}
