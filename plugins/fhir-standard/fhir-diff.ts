/**
 * Differences between two FHIR resources by FHIR path. Objects are compared property by property; arrays are
 * aligned by `id` or by identifier (system|value) when every item carries one, otherwise by index. A subtree present
 * on one side only is one `added`/`removed` difference (its JSON as the value), not one per leaf. Resources of
 * different types are a single top-level difference. Ignored fields take paths and wildcards (see
 * {@link createIgnoreMatcher}).
 */
import type { DifferenceList } from '../../kernel/standards/issue-list.ts';
import { createPathMatcher, type PathPatternOptions } from '../../kernel/lib/paths/path-pattern.ts';
import { unmatchedPathPatterns } from '../../kernel/lib/paths/pattern-usage.ts';

/**
 * Compiles ignore patterns with the kernel's step matcher (kernel/lib/paths/path-pattern.ts): dot-separated steps, `*` is one
 * step (or part of a name, `valueQuantity` matches `value*`), `**` any number of steps; indexes in the path are
 * ignored unless the pattern gives one (`name[0]`; `name[*]` is any). A pattern matches a path, or any part of it that
 * starts at a step boundary (so `meta.lastUpdated` covers `Patient.meta.lastUpdated` and every
 * `Bundle.entry[n].resource.meta.lastUpdated`), and it ignores the whole subtree below what it matches. More than
 * 100 patterns, or one longer than 256 characters, is refused with 400 naming the entry (`ignoredFields[3]`).
 */
export function createIgnoreMatcher(patterns: readonly string[]): (path: string) => boolean {
  return createPathMatcher(patterns, 'ignoredFields', FHIR_PATTERN_OPTIONS);
}

/** How FHIR paths read to the kernel's step matcher: a pattern may start at any step. */
const FHIR_PATTERN_OPTIONS: PathPatternOptions = { anchor: 'any-step' };

/** Every path of a resource as the diff writes them (`Patient.name[0].family`), each node before what it holds. */
function* resourcePaths(resource: Record<string, unknown>): Generator<string> {
  const root = String(resource.resourceType);
  const stack: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(resource)) if (key !== 'resourceType') stack.push([`${root}.${key}`, value]);
  stack.reverse();
  while (stack.length > 0) {
    const [path, value] = stack.pop() as [string, unknown];
    yield path;
    const children: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((item, i) => [`${path}[${i}]`, item])
      : isObject(value)
        ? Object.entries(value).map(([key, item]) => [`${path}.${key}`, item])
        : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as [string, unknown]);
  }
}

/** The ignore patterns that match no path of either resource; undefined when the check ran out of budget. */
export function unmatchedIgnoredFields(patterns: readonly string[], left: Record<string, unknown>, right: Record<string, unknown>): string[] | undefined {
  function* both(): Generator<string> {
    yield* resourcePaths(left);
    yield* resourcePaths(right);
  }
  return unmatchedPathPatterns(patterns, FHIR_PATTERN_OPTIONS, both());
}

function render(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * The value of a key the object itself holds; undefined otherwise. A key only the other side has must not find an
 * inherited member (`constructor` would be Object itself) and compare a function with data.
 */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Key aligning array items, when every item of both sides has one. */
function alignmentKey(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  if (typeof item.id === 'string') return `id:${item.id}`;
  if (typeof item.fullUrl === 'string') return `fullUrl:${item.fullUrl}`;
  const identifier = Array.isArray(item.identifier) ? item.identifier[0] : item.identifier;
  if (isObject(identifier) && typeof identifier.value === 'string') {
    return `identifier:${String(identifier.system ?? '')}|${identifier.value}`;
  }
  return undefined;
}

function keysOf(items: unknown[]): string[] | undefined {
  const keys = items.map(alignmentKey);
  if (keys.some((k) => k === undefined)) return undefined;
  return new Set(keys).size === keys.length ? (keys as string[]) : undefined;
}

/** Compares two parsed resources into `differences` (every one counted, at most its limit listed). */
export function diffResources(
  left: Record<string, unknown>,
  right: Record<string, unknown>,
  ignore: (path: string) => boolean,
  differences: DifferenceList,
): void {
  if (left.resourceType !== right.resourceType) {
    differences.add({ field: 'resourceType', leftValue: render(left.resourceType), rightValue: render(right.resourceType), changeType: 'modified' });
    return;
  }

  const push = (field: string, l: unknown, r: unknown): void => {
    if (ignore(field)) return;
    const changeType = l === undefined ? 'added' : r === undefined ? 'removed' : 'modified';
    // A subtree beyond what is listed is counted without being written out as JSON.
    const listed = differences.hasRoom();
    differences.add({ field, leftValue: listed ? render(l) : '', rightValue: listed ? render(r) : '', changeType });
  };

  const compare = (l: unknown, r: unknown, path: string): void => {
    if (ignore(path)) return;
    if (l === undefined || r === undefined) {
      if (l !== r) push(path, l, r);
      return;
    }
    if (Array.isArray(l) && Array.isArray(r)) {
      compareArrays(l, r, path);
      return;
    }
    if (isObject(l) && isObject(r)) {
      const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
      for (const key of keys) compare(own(l, key), own(r, key), `${path}.${key}`);
      return;
    }
    if (JSON.stringify(l) !== JSON.stringify(r)) push(path, l, r);
  };

  const compareArrays = (l: unknown[], r: unknown[], path: string): void => {
    const leftKeys = keysOf(l);
    const rightKeys = keysOf(r);
    if (leftKeys && rightKeys) {
      const rightIndex = new Map(rightKeys.map((k, i) => [k, i]));
      const matched = new Set<number>();
      leftKeys.forEach((key, i) => {
        const j = rightIndex.get(key);
        if (j === undefined) {
          push(`${path}[${i}]`, l[i], undefined);
        } else {
          matched.add(j);
          compare(l[i], r[j], `${path}[${i}]`);
        }
      });
      r.forEach((item, j) => {
        if (!matched.has(j)) push(`${path}[${j}]`, undefined, item);
      });
      return;
    }
    const length = Math.max(l.length, r.length);
    for (let i = 0; i < length; i++) compare(l[i], r[i], `${path}[${i}]`);
  };

  const root = String(left.resourceType);
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  keys.delete('resourceType');
  for (const key of keys) compare(own(left, key), own(right, key), `${root}.${key}`);
}
