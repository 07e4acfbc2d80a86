/**
 * Mutations of real messages, the kinds that break parsers and validators: byte flips, truncation, duplication of
 * segments or elements, delimiter swaps, huge fields, deep nesting, and for FHIR JSON structural edits (wrong types,
 * keys named like inherited JavaScript members). Each mutation is a pure function of the message and a source of
 * random numbers, so a seed replays a run exactly.
 */
import fc from 'fast-check';

/** The standards fuzzed. */
export type FuzzStandard = 'hl7' | 'fhir' | 'ncpdp';

/** A source of random choices (fast-check's seeded generator behind it). */
export interface Chooser {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
}

/** Builds a chooser replaying `seed`: fast-check generates the stream of choices. */
export function createChooser(seed: number): Chooser {
  const stream = fc.sample(fc.integer({ min: 0, max: 0x7fffffff }), { seed, numRuns: 1 << 16 });
  let next = 0;
  const draw = () => {
    const value = stream[next % stream.length] as number;
    next++;
    // After one pass over the sampled stream, later draws are mixed with their position so the stream never cycles.
    return next <= stream.length ? value : (Math.imul(value ^ next, 0x9e3779b1) >>> 1) & 0x7fffffff;
  };
  return {
    int: (min, max) => min + (draw() % (max - min + 1)),
    pick: (list) => list[draw() % list.length] as (typeof list)[number],
  };
}

/** Characters that matter to at least one of the parsers. */
const SPECIAL = ['|', '^', '~', '\\', '&', '\r', '\n', '<', '>', '"', "'", '{', '}', '[', ']', ':', ',', '\u0000', '\u001c', '\u001d', '\u001e', '\u0002', '\u0003', '\uFFFD', '\uD800', 'é', '𝄞', '&amp;', '&#0;', ']]>', '<!--'];

/** Longest mutated text: past the service's body limit (10 MB) a request only tests the limit. */
const MAX_MUTATED_CHARS = 4_000_000;

/** One mutation: a name for the report and the edit. */
export interface Mutation {
  name: string;
  apply(text: string, choose: Chooser): string;
}

function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

const byteFlips: Mutation = {
  name: 'byte flips',
  apply(text, choose) {
    const chars = [...text];
    const flips = choose.int(1, 12);
    for (let i = 0; i < flips && chars.length > 0; i++) {
      const at = choose.int(0, chars.length - 1);
      chars[at] = choose.int(0, 2) === 0 ? String.fromCharCode(choose.int(0, 0xffff)) : choose.pick(SPECIAL);
    }
    return chars.join('');
  },
};

const truncation: Mutation = {
  name: 'truncation',
  apply: (text, choose) => text.slice(0, choose.int(0, text.length)),
};

const lineDuplication: Mutation = {
  name: 'duplicated segments or elements',
  apply(text, choose) {
    const all = lines(text);
    const at = choose.int(0, all.length - 1);
    const line = all[at] as string;
    // Bounded by size too: a long line copied thousands of times would only test the body limit.
    const wanted = choose.int(0, 19) === 0 ? 5000 : choose.pick([2, 10, 100, 1000]);
    const copies = Math.min(wanted, Math.max(2, Math.floor(MAX_MUTATED_CHARS / 2 / (line.length + 1))));
    const repeated = Array.from({ length: copies }, () => line);
    return [...all.slice(0, at), ...repeated, ...all.slice(at + 1)].join(choose.pick(['\r', '\n', '\r\n']));
  },
};

const delimiterSwap: Mutation = {
  name: 'delimiter swaps',
  apply(text, choose) {
    const from = choose.pick(['|', '^', '~', '&', '\\', '\r', '<', '>', '"', ':', ',', '\u001c', '\u001e']);
    const to = choose.pick(['|', '^', '~', '&', '\\', '\r', '\n', '#', '<', '"', '\u001c', '\u001e', '']);
    return text.split(from).join(to);
  },
};

const lineShuffle: Mutation = {
  name: 'reordered lines',
  apply(text, choose) {
    const all = lines(text);
    for (let i = all.length - 1; i > 0; i--) {
      const j = choose.int(0, i);
      [all[i], all[j]] = [all[j] as string, all[i] as string];
    }
    return all.join('\r');
  },
};

/** Inserts `insert` at a random place of the text (never inside a surrogate pair's halves on purpose). */
function insertAt(text: string, insert: string, choose: Chooser): string {
  const at = choose.int(0, text.length);
  return text.slice(0, at) + insert + text.slice(at);
}

const hugeField: Mutation = {
  name: 'huge fields',
  apply(text, choose) {
    // A megabyte now and then; most huge fields are smaller so a run of 100,000 inputs stays minutes, not hours.
    const rare = choose.int(0, 199);
    const size = rare === 0 ? 1_000_000 : rare < 20 ? 100_000 : choose.pick([1_000, 5_000, 20_000]);
    const unit = choose.pick(['A', '9', '^', '~', '&', '|', '\\E\\', 'é', ' ', '<', '"']);
    return insertAt(text, unit.repeat(Math.ceil(size / unit.length)), choose);
  },
};

function deepNesting(standard: FuzzStandard): Mutation {
  return {
    name: 'deep nesting',
    apply(text, choose) {
      const depth = choose.pick([50, 130, 1_000, 20_000]);
      if (standard === 'hl7') return insertAt(text, choose.pick(['^', '&', '~']).repeat(depth), choose);
      if (standard === 'fhir' && choose.int(0, 1) === 0) {
        const open = choose.pick(['[', '{"a":']);
        const close = open === '[' ? ']' : '}';
        return text.replace(/"gender"\s*:\s*"[^"]*"/, `"gender":${open.repeat(depth)}1${close.repeat(depth)}`).replace(/^\{/, `{"extension":${'['.repeat(depth)}${']'.repeat(depth)},`);
      }
      const tag = choose.pick(['a', 'Body', 'extension', 'div']);
      return insertAt(text, `<${tag}>`.repeat(depth) + `</${tag}>`.repeat(depth), choose);
    },
  };
}

/** Keys and values that FHIR JSON must survive. */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '_gender', 'resourceType', '', '\uFFFD', 'a'.repeat(300)];
const HOSTILE_VALUES: unknown[] = [null, 0, -1, 1e308, true, '', ' ', '\uFFFD', 'x'.repeat(5000), [], {}, [[[]]], { resourceType: 'Patient' }, { resourceType: 'NoSuchType' }, { __proto__: { polluted: 1 } }];

/** Every object of a parsed JSON value (iteratively: a mutated value may nest deeper than the call stack). */
function visitObjects(root: unknown, into: Array<Record<string, unknown>>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0 && into.length < 100_000) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const item of value) stack.push(item);
    else if (value && typeof value === 'object') {
      into.push(value as Record<string, unknown>);
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
}

/** Structural edits of FHIR JSON: wrong types, hostile keys, duplicated array items, removed elements. */
const fhirStructure: Mutation = {
  name: 'FHIR structure edits',
  apply(text, choose) {
    let resource: unknown;
    try {
      resource = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      return text;
    }
    const objects: Array<Record<string, unknown>> = [];
    visitObjects(resource, objects);
    const edits = choose.int(1, 6);
    for (let i = 0; i < edits && objects.length > 0; i++) {
      const target = choose.pick(objects);
      const keys = Object.keys(target);
      const key = keys.length > 0 && choose.int(0, 2) > 0 ? choose.pick(keys) : choose.pick(HOSTILE_KEYS);
      const action = choose.int(0, 3);
      if (action === 0) delete target[key];
      else if (action === 1 && Array.isArray(target[key])) {
        const list = target[key] as unknown[];
        const copies = choose.pick([2, 50, 2_000]);
        target[key] = Array.from({ length: copies }, () => list[0]);
      } else Object.defineProperty(target, key, { value: choose.pick(HOSTILE_VALUES), enumerable: true, writable: true, configurable: true });
    }
    try {
      return JSON.stringify(resource);
    } catch {
      return text; // nested beyond what stringify's recursion takes
    }
  },
};

/** The mutations of each standard. */
export function mutationsOf(standard: FuzzStandard): Mutation[] {
  const common = [byteFlips, truncation, lineDuplication, delimiterSwap, lineShuffle, hugeField, deepNesting(standard)];
  return standard === 'fhir' ? [...common, fhirStructure, fhirStructure] : common;
}

/** Applies one to three mutations in a row; returns the text and the names of what was applied. */
export function mutate(text: string, standard: FuzzStandard, choose: Chooser): { text: string; applied: string[] } {
  const mutations = mutationsOf(standard);
  const count = choose.int(1, 3);
  const applied: string[] = [];
  let out = text;
  for (let i = 0; i < count; i++) {
    const mutation = choose.pick(mutations);
    out = mutation.apply(out, choose);
    if (out.length > MAX_MUTATED_CHARS) out = out.slice(0, MAX_MUTATED_CHARS);
    applied.push(mutation.name);
  }
  return { text: out, applied };
}

/**
 * ignoredFields patterns that once made matchers backtrack or recurse without end, plus random ones: long
 * wildcard runs, nested double stars, regular-expression syntax that must be taken literally, huge patterns.
 */
export function pathologicalIgnoredFields(choose: Chooser): string[] {
  const kinds: Array<() => string> = [
    () => `Header.${'*a'.repeat(choose.int(3, 60))}!`,
    () => `${Array.from({ length: choose.int(2, 40) }, () => '**').join('.')}.nomatch`,
    () => Array.from({ length: choose.int(10, 8000) }, () => '*').join('.'),
    () => '**.'.repeat(choose.int(10, 100_000)),
    () => `OBX[*].${choose.int(0, 99)}`,
    () => choose.pick(['(a+)+$', '.*.*.*=', '[', '\\', '?', '{1,1000}', 'PID.5[', 'PID..5', '*.meta', 'ZPI.*', '[*][*][*]']),
    () => choose.pick(SPECIAL).repeat(choose.int(1, 300)),
    () => 'a'.repeat(choose.int(1, 100_000)),
  ];
  return Array.from({ length: choose.int(1, choose.pick([3, 20, 150])) }, () => choose.pick(kinds)());
}
