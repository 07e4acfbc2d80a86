/**
 * One pass over a resource along its element definitions, doing every check that is ours rather than
 * @medplum/core's: bindings, reference target types, nested resource types, URIs that must be absolute, the core
 * invariants and data type rules (fhir-invariants.ts); and collecting the references the Bundle rules need. Only properties present in the JSON are visited (absent elements cost nothing), and per-type
 * property lookups are cached by the definitions, so the pass stays cheap next to the structural validation.
 */
import type { BindingChecker } from './fhir-bindings.ts';
import { CALENDAR_TYPES, calendarProblem } from './fhir-calendar.ts';
import type { FhirDefinitions, FhirPropertyInfo } from './fhir-definitions.ts';
import type { FhirFinding } from './fhir-issues.ts';
import type { InvariantChecker, InvariantPlace } from './fhir-invariants.ts';
import { expectedOfType, nameField } from './fhir-issues.ts';
import { checkNarrativeDiv } from './fhir-narrative.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../kernel/standards/issue-detail.ts';

/** What a resource id may be (R4 `id` type): letters, digits, `-` and `.`, 1 to 64 of them. */
const RESOURCE_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/** A URI with a scheme (`https:`, `urn:`): absolute. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** An element id (R4 Element.id): any string without whitespace. */
const ELEMENT_ID = /^\S+$/;

/** A `Reference.reference` seen during the walk. */
export interface CollectedReference {
  /** Path of the Reference element (`Bundle.entry[2].resource.subject`). */
  field: string;
  reference: string;
  /** The element definition's path (`Patient.generalPractitioner`), for sentences. */
  elementPath: string;
  /** Resource types the element may refer to (empty: any). */
  targetTypes: readonly string[];
  /** The resource whose `contained` a local reference (`#id`) resolves in: the root, entry or other resource holding it. */
  container: Record<string, unknown>;
}

/** What the walk found. */
export interface ElementWalkResult {
  findings: FhirFinding[];
  references: CollectedReference[];
  /** Fields whose JSON shape is wrong: what the structural validation says beneath them is noise. */
  malformed: string[];
  /** Bundles inside the resource (a Bundle in a Bundle entry, a Parameters value), with their paths. */
  bundles: Array<{ path: string; bundle: Record<string, unknown> }>;
  /** What the invariants and data type rules found, evaluated during the same pass (kept apart: see the validator). */
  invariantFindings: FhirFinding[];
}

/** Extracts the resource type a literal or conditional reference names, if any. */
export function referencedType(reference: string): string | undefined {
  if (reference.startsWith('#') || reference.startsWith('urn:')) return undefined;
  const query = reference.indexOf('?');
  if (query > 0 && !reference.slice(0, query).includes('/')) return reference.slice(0, query);
  const parts = reference.split('?')[0].split('/');
  const history = parts.indexOf('_history');
  const end = history >= 0 ? history : parts.length;
  // `Type/id` is the last two segments before any `_history/version` (relative or absolute URL alike).
  return end >= 2 ? parts[end - 2] : undefined;
}

function isEmptyObject(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * Walks resources for one set of definitions and one binding checker; with `invariants`, the invariants and data type
 * rules are evaluated in the same pass (one traversal of the resource, not two).
 */
export function createElementWalker(definitions: FhirDefinitions, bindings: BindingChecker, invariants?: InvariantChecker) {
  function checkReference(info: FhirPropertyInfo, value: Record<string, unknown>, field: string, container: Record<string, unknown>, out: ElementWalkResult): void {
    const reference = value.reference;
    if (typeof reference !== 'string') return;
    out.references.push({ field, reference, elementPath: info.elementPath, targetTypes: info.targetTypes, container });
    if (info.targetTypes.length === 0) return;
    const type = referencedType(reference);
    if (!type || !definitions.isResourceType(type) || info.targetTypes.includes(type)) return;
    out.findings.push({
      field: `${field}.reference`,
      code: 'INVALID_REFERENCE',
      class: 'nonconformant',
      message: `${nameField(field, info.elementPath)} refers to a ${type}, but may only refer to ${info.targetTypes.join(', ')}.`,
    });
  }

  function shapeFinding(field: string, info: FhirPropertyInfo, problem: string): FhirFinding {
    return {
      field,
      code: 'INVALID_DATA_TYPE',
      class: 'unreadable',
      message: `${nameField(field, info.elementPath)} ${problem}.`,
    };
  }

  /**
   * A primitive value: an object where a primitive belongs is a shape error @medplum/core lets through (it reads it
   * as an extension holder); otherwise the binding, if any.
   */
  function checkPrimitive(info: FhirPropertyInfo, value: unknown, path: string, key: string, index: number | undefined, out: ElementWalkResult): void {
    if (value === null || value === undefined) return;
    if (typeof value === 'object') {
      const field = index === undefined ? `${path}.${key}` : `${path}.${key}[${index}]`;
      out.findings.push(shapeFinding(field, info, `must be a JSON ${info.type === 'boolean' ? 'boolean' : 'string or number'} (FHIR type ${info.type}), not ${Array.isArray(value) ? 'an array' : 'an object'}`));
      out.malformed.push(field);
      return;
    }
    if (typeof value === 'string') {
      if (CALENDAR_TYPES.has(info.type)) checkCalendar(info, value, path, key, index, out);
      else if (info.type === 'xhtml') checkNarrative(info, value, path, key, out);
      else if (key === 'id' && index === undefined) checkId(info, value, path, out);
      else if (info.mustBeAbsolute) checkAbsolute(info, value, path, key, index, out);
    }
    if (!info.binding) return;
    const field = index === undefined ? `${path}.${key}` : `${path}.${key}[${index}]`;
    const finding = bindings.check(info.binding, info.elementPath, info.type, value, field);
    if (finding) out.findings.push(finding);
  }

  /**
   * An id: a resource's (Patient.id, also of contained and entry resources) must be 1 to 64 letters, digits, `-` and
   * `.`; an element's may be any string without whitespace. R4 types both as plain strings, so the structural
   * validation lets any text through.
   */
  function checkId(info: FhirPropertyInfo, value: string, path: string, out: ElementWalkResult): void {
    const ofResource = info.elementPath.indexOf('.') === info.elementPath.lastIndexOf('.') && definitions.isResourceType(info.elementPath.slice(0, info.elementPath.indexOf('.')));
    if (ofResource ? RESOURCE_ID.test(value) : ELEMENT_ID.test(value)) return;
    const field = `${path}.id`;
    const shown = value.length > 80 ? `${value.slice(0, 80)}..." (${value.length} characters)` : `${value}"`;
    out.findings.push(
      shapeFinding(
        field,
        info,
        ofResource
          ? `"${shown} is not a valid resource id: an id is 1 to 64 characters, each a letter, a digit, "-" or "."`
          : `"${shown} is not a valid element id: an element id may not be empty or contain whitespace`,
      ),
    );
  }

  /**
   * A URI R4 requires to be absolute (ValueSet.url, compose.include.system, Coding.system...): it has a scheme
   * (`http:`, `urn:`). A canonical may also name a contained resource (`#vs1`).
   */
  function checkAbsolute(info: FhirPropertyInfo, value: string, path: string, key: string, index: number | undefined, out: ElementWalkResult): void {
    if (HAS_SCHEME.test(value) || (info.type === 'canonical' && value.startsWith('#'))) return;
    const field = index === undefined ? `${path}.${key}` : `${path}.${key}[${index}]`;
    out.findings.push({
      field,
      code: 'INVALID_DATA_TYPE',
      class: 'nonconformant',
      message: `${nameField(field, info.elementPath)} "${excerpt(value)}" is a relative ${info.type}; R4 requires an absolute URI here (with a scheme, such as http://... or urn:oid:...).`,
      expected: 'an absolute URI (http://..., https://..., urn:uuid:..., urn:oid:...)',
      actual: actualValue(value),
    });
  }

  /**
   * ele-1 on primitives: every element has a value or children, so a primitive's `_name` that carries only an `id`
   * and stands beside no value (`<birthDate id="a"/>` in XML, `"_birthDate": {"id": "a"}` in JSON) fails it.
   */
  function checkValueless(object: Record<string, unknown>, key: string, path: string, out: ElementWalkResult): void {
    const shadow = object[key];
    const value = object[key.slice(1)];
    const list = Array.isArray(shadow);
    const items: unknown[] = list ? shadow : [shadow];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const own = list ? (Array.isArray(value) ? (value as unknown[])[i] : undefined) : value;
      if (own !== undefined && own !== null) continue;
      const keys = Object.keys(item);
      if (keys.length === 0 || keys.some((k) => k !== 'id')) continue;
      const field = list ? `${path}.${key.slice(1)}[${i}]` : `${path}.${key.slice(1)}`;
      out.findings.push({
        field,
        code: 'CONSTRAINT_FAILED',
        class: 'nonconformant',
        message: `${field} fails invariant ele-1: All FHIR elements must have a @value or children (it has only an id)`,
      });
    }
  }

  /** A narrative div: well-formed XHTML in its namespace, no active content, only the elements txt-1 allows. */
  function checkNarrative(info: FhirPropertyInfo, value: string, path: string, key: string, out: ElementWalkResult): void {
    const problems = checkNarrativeDiv(value);
    if (problems.length === 0) return;
    const field = `${path}.${key}`;
    for (const problem of problems) {
      out.findings.push({
        field,
        code: 'NARRATIVE_INVALID',
        // Markup a receiver cannot display, or that runs code when displayed, is refused in every mode.
        class: problem.kind === 'disallowed' || problem.kind === 'empty' ? 'nonconformant' : 'unreadable',
        message: `${nameField(field, info.elementPath)} ${problem.reason}.`,
      });
    }
  }

  /** A date, dateTime or instant whose format passes but whose day is not on the calendar (`1981-02-29`). */
  function checkCalendar(info: FhirPropertyInfo, value: string, path: string, key: string, index: number | undefined, out: ElementWalkResult): void {
    const problem = calendarProblem(value);
    if (!problem) return;
    const field = index === undefined ? `${path}.${key}` : `${path}.${key}[${index}]`;
    out.findings.push({
      field,
      code: 'INVALID_DATE',
      class: 'unreadable',
      message: `${nameField(field, info.elementPath)} "${excerpt(value)}" is not a real ${info.type}: ${problem}.`,
      expected: `a real calendar moment, ${expectedOfType(info.type)}`,
      actual: actualValue(value),
    });
  }

  /**
   * Shape checks of a complex value @medplum/core lets through: a primitive where an object belongs (a string
   * would be read as an object of characters) and an empty object. Returns false when it cannot be walked further.
   */
  function checkComplexShape(info: FhirPropertyInfo, value: unknown, field: string, out: ElementWalkResult): boolean {
    if (typeof value !== 'object' || Array.isArray(value)) {
      if (Array.isArray(value)) return false; // nested arrays are reported by the structural validation
      out.findings.push(shapeFinding(field, info, `must be a JSON object (FHIR type ${info.type}), not ${typeof value === 'string' ? 'a string' : `a ${typeof value}`}`));
      out.malformed.push(field);
      return false;
    }
    if (isEmptyObject(value as object)) {
      out.findings.push(shapeFinding(field, info, 'is an empty object; FHIR JSON leaves out elements that have no value'));
      return false;
    }
    return true;
  }

  /**
   * Walks the properties of `object`, a value of `typeName` at element `elementPath` (the resource's type at its root,
   * `isResource`) inside `resource`; `container` is the resource a local reference resolves in (see
   * {@link CollectedReference}), which is also FHIRPath's %rootResource.
   */
  function walkObject(
    object: Record<string, unknown>,
    typeName: string,
    path: string,
    resource: Record<string, unknown>,
    container: Record<string, unknown>,
    elementPath: string,
    isResource: boolean,
    out: ElementWalkResult,
  ): void {
    // Where the complex values of this object sit (for the type rules), made once and only when one is met.
    let place: InvariantPlace | undefined;
    for (const key of Object.keys(object)) {
      if (key === 'resourceType') continue;
      if (key.charCodeAt(0) === 95 /* '_' primitive extension */) {
        checkValueless(object, key, path, out);
        continue;
      }
      const info = definitions.property(typeName, key);
      if (!info) continue; // reported as UNKNOWN_ELEMENT by the structural validation
      const raw = object[key];
      const many = Array.isArray(raw);
      if (many && (raw as unknown[]).length === 0) {
        out.findings.push(shapeFinding(`${path}.${key}`, info, 'is an empty array; FHIR JSON leaves out elements that have no value'));
        continue;
      }
      // An array where one value belongs is reported by the structural validation; its items mean nothing here.
      if (many && !info.isArray) continue;
      if (info.isPrimitive) {
        // Most properties are primitives: check them without building paths unless something is wrong.
        if (many) {
          const list = raw as unknown[];
          for (let i = 0; i < list.length; i++) checkPrimitive(info, list[i], path, key, i, out);
        } else {
          checkPrimitive(info, raw, path, key, undefined, out);
        }
        continue;
      }
      if (many) {
        const list = raw as unknown[];
        for (let i = 0; i < list.length; i++) {
          const value = list[i];
          if (value === null || value === undefined) continue;
          place ??= { parentType: typeName, parentPath: elementPath, parentIsResource: isResource };
          walkComplex(info, key, value, `${path}.${key}[${i}]`, resource, container, place, out);
        }
      } else if (raw !== null && raw !== undefined) {
        place ??= { parentType: typeName, parentPath: elementPath, parentIsResource: isResource };
        walkComplex(info, key, raw, `${path}.${key}`, resource, container, place, out);
      }
    }
  }

  /** One complex value (a data type, a backbone element or a nested resource) of property `key` at `field`. */
  function walkComplex(
    info: FhirPropertyInfo,
    key: string,
    value: unknown,
    field: string,
    resource: Record<string, unknown>,
    container: Record<string, unknown>,
    place: InvariantPlace,
    out: ElementWalkResult,
  ): void {
    if (!checkComplexShape(info, value, field, out)) return;
    if (info.binding) {
      const finding = bindings.check(info.binding, info.elementPath, info.type, value, field);
      if (finding) out.findings.push(finding);
    }
    const child = value as Record<string, unknown>;
    if (info.type === 'Reference') checkReference(info, child, field, container, out);
    if (info.type === 'Resource') {
      // A contained resource's local references resolve in its container; any other nested resource (a Bundle
      // entry's, a Parameters value) holds its own contained resources.
      walkResourceAt(child, field, key === 'contained' ? container : child, key === 'contained', out);
      return;
    }
    const plan = invariants?.planFor(info.elementPath, info.type);
    if (plan) invariants?.atValue(plan, child, field, resource, container, place, out.invariantFindings);
    walkObject(child, info.type, field, resource, container, info.elementPath, false, out);
  }

  /** `contained`: the resource is one of its container's `contained`. */
  function walkResourceAt(resource: Record<string, unknown>, path: string, container: Record<string, unknown>, contained: boolean, out: ElementWalkResult): void {
    const type = resource.resourceType;
    if (typeof type !== 'string' || !definitions.isResourceType(type)) {
      out.findings.push({
        field: path,
        code: 'NOT_FHIR_RESOURCE',
        class: 'unreadable',
        message:
          typeof type === 'string'
            ? `${path} has resourceType "${excerpt(type)}", which FHIR R4 does not define.`
            : `${path} must be a resource but has no resourceType.`,
      });
      return;
    }
    if (type === 'Bundle') out.bundles.push({ path, bundle: resource });
    walkRoot(resource, type, path, container, contained, out);
  }

  function walkRoot(resource: Record<string, unknown>, type: string, path: string, container: Record<string, unknown>, contained: boolean, out: ElementWalkResult): void {
    invariants?.atResource(resource, type, definitions.property(type, 'text') !== undefined, path, container, contained, out.invariantFindings);
    walkObject(resource, type, path, resource, container, type, true, out);
  }

  return {
    /** Walks a root resource (its `resourceType` already checked). */
    walk(resource: Record<string, unknown>): ElementWalkResult {
      const out: ElementWalkResult = { findings: [], references: [], malformed: [], bundles: [], invariantFindings: [] };
      const type = resource.resourceType as string;
      walkRoot(resource, type, type, resource, false, out);
      return out;
    },
  };
}

/** The walker type. */
export type ElementWalker = ReturnType<typeof createElementWalker>;
