/**
 * FHIRPath-like locations inside a resource: `Patient.name[0].given[1]`, `Bundle.entry[3].resource.status`.
 * Every issue and difference the adapter reports uses this spelling; the helpers here parse it, resolve
 * @medplum/core's `value[x]` spelling to the property actually present, and find the element definition behind a path.
 */
import type { FhirDefinitions, FhirPropertyInfo } from './fhir-definitions.ts';

/** One step of a path: a property name and, for a repeated element, the index. */
export interface PathSegment {
  name: string;
  index?: number;
}

const SEGMENT = /^([^[\]]+)((?:\[[^\]]*\])*)$/;

/** Splits a path into segments; `[x]` (a choice marker, not an index) stays part of the name. */
export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const raw of path.split('.')) {
    const match = SEGMENT.exec(raw);
    if (!match) {
      out.push({ name: raw });
      continue;
    }
    let name = match[1];
    let index: number | undefined;
    for (const bracket of match[2].match(/\[[^\]]*\]/g) ?? []) {
      const inner = bracket.slice(1, -1);
      if (/^\d+$/.test(inner)) index = Number(inner);
      else name += bracket;
    }
    out.push(index === undefined ? { name } : { name, index });
  }
  return out;
}

/** Joins segments back into a path. */
export function formatPath(segments: readonly PathSegment[]): string {
  return segments.map((s) => (s.index === undefined ? s.name : `${s.name}[${s.index}]`)).join('.');
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Replaces `value[x]` segments (as @medplum/core spells choice elements) with the property present in the resource
 * (`valueQuantity`), so a reader can find the place. Unresolvable segments are left as they are.
 */
export function resolveChoiceSegments(root: unknown, path: string): string {
  if (!path.includes('[x]')) return path;
  const segments = parsePath(path);
  let current: unknown = root;
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    const object = asRecord(current);
    if (segment.name.endsWith('[x]') && object) {
      const stem = segment.name.slice(0, -3);
      const key = Object.keys(object).find((k) => k.startsWith(stem) && /^[A-Z]/.test(k.slice(stem.length)));
      if (key) segment.name = key;
    }
    let next: unknown = object?.[segment.name];
    if (Array.isArray(next)) next = segment.index === undefined ? next[0] : next[segment.index];
    current = next;
  }
  return formatPath(segments);
}

/** The element a path points at, with the value found there (if any). */
export interface ResolvedElement {
  /** Element definition path (`Patient.contact.name`), or the path itself when unknown. */
  elementPath: string;
  info?: FhirPropertyInfo;
  value: unknown;
}

/** Follows a path from the root resource along the element definitions. */
export function resolveElement(definitions: FhirDefinitions, root: unknown, path: string): ResolvedElement {
  const segments = parsePath(path);
  let typeName = asRecord(root)?.resourceType;
  let current: unknown = root;
  let info: FhirPropertyInfo | undefined;
  if (typeof typeName !== 'string') return { elementPath: path, value: undefined };
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    const object = asRecord(current);
    info = definitions.property(typeName as string, segment.name);
    if (!info && segment.name.endsWith('[x]')) {
      const element = definitions.element(typeName as string, segment.name);
      if (element) return { elementPath: element.path, value: undefined };
    }
    if (!info) return { elementPath: path, value: undefined };
    let next: unknown = object?.[segment.name];
    if (Array.isArray(next)) next = segment.index === undefined ? next : next[segment.index];
    current = next;
    const nested = asRecord(current)?.resourceType;
    typeName = info.type === 'Resource' && typeof nested === 'string' ? nested : info.type;
  }
  return { elementPath: info?.elementPath ?? path, info, value: current };
}

/** The JSON value at a concrete path (`Patient.name[0].given[1]`) of a resource, or undefined. */
export function valueAtPath(root: unknown, path: string): unknown {
  const segments = parsePath(path);
  let current: unknown = root;
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as PathSegment;
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment.name];
    if (segment.index !== undefined) current = Array.isArray(current) ? current[segment.index] : undefined;
  }
  return current;
}
