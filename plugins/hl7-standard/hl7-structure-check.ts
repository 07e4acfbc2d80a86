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
  const walk = (nodes: Hl7StructureNode[], repeating: boolean) => {
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
  result = { names, repeatable, first };
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

interface MatchState {
  segments: Hl7Segment[];
  pos: number;
  reportMissing: boolean;
  input: StructureCheckInput;
  compiledStructure: CompiledStructure;
}

function matchSequence(nodes: Hl7StructureNode[], state: MatchState, groupPath: string): void {
  for (const node of nodes) matchRepeated(node, state, groupPath);
}

function canStart(node: Hl7StructureNode, state: MatchState): boolean {
  const segment = state.segments[state.pos];
  return segment !== undefined && (state.compiledStructure.first.get(node)?.has(segment.name) ?? false);
}

function matchRepeated(node: Hl7StructureNode, state: MatchState, groupPath: string): void {
  let count = 0;
  while (count < node.max && canStart(node, state)) {
    matchOnce(node, state, groupPath);
    count++;
  }
  if (node.kind === 'segment' && node.max !== Number.POSITIVE_INFINITY) {
    // A non-repeating segment written twice in a row is a repetition problem, not an ordering one.
    while (state.segments[state.pos]?.name === node.name) {
      const segment = state.segments[state.pos] as Hl7Segment;
      state.input.issues.add(
        'TOO_MANY_REPETITIONS',
        state.input.pathOf(segment),
        `Segment ${node.name} (${node.description}) may occur at most ${node.max} time(s) here in ${state.input.label}, but occurs again on line ${segment.line}.`,
      );
      state.pos++;
    }
  }
  if (count < node.min && state.reportMissing) {
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

function matchOnce(node: Hl7StructureNode, state: MatchState, groupPath: string): void {
  if (node.kind === 'segment') {
    state.pos++;
    return;
  }
  if (node.kind === 'choice') {
    const option = node.children.find((child) => canStart(child, state));
    if (option) matchOnce(option, state, groupPath);
    return;
  }
  matchSequence(node.children, state, groupPath ? `${groupPath}.${node.name}` : node.name);
}

/** Checks one message's segments against its structure, reporting into `input.issues`. */
export function checkMessageStructure(input: StructureCheckInput): void {
  const compiledStructure = compileStructure(input.structure);
  const known: Hl7Segment[] = [];
  for (const segment of input.segments) {
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
  const state: MatchState = { segments: known, pos: 0, reportMissing: true, input, compiledStructure };
  matchSequence(input.structure.nodes, state, '');
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
    matchSequence(input.structure.nodes.slice(1), state, '');
    if (state.pos === before) continue;
  }
}
