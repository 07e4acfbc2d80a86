/**
 * FHIR JSON paths placed in a resource's text: `Patient.name[0].family`, `Bundle.entry[2].resource.subject`
 * (the root resource type first, then member names, array indexes 0-based). The text is scanned, never parsed
 * whole: each step skips the members and items before the one it wants, so the work is linear in the text. An
 * absent element is placed, not exact, at its nearest present parent.
 */
import { treePosition, type FindingPosition } from './position.ts';

interface Step {
  name: string;
  index?: number;
}

/** The steps of a dotted path with `[n]` indexes; undefined when it is not one. */
export function pathSteps(path: string, indexBase: 0 | 1): Step[] | undefined {
  const steps: Step[] = [];
  for (const token of path.split('.')) {
    const match = /^([A-Za-z_][\w-]*)(?:\[(\d{1,6})\])?$/.exec(token);
    if (!match) return undefined;
    steps.push(match[2] === undefined ? { name: match[1] } : { name: match[1], index: Number(match[2]) - indexBase });
  }
  return steps.some((step) => step.index !== undefined && step.index < 0) ? undefined : steps;
}

function skipSpace(raw: string, at: number): number {
  while (at < raw.length && (raw[at] === ' ' || raw[at] === '\t' || raw[at] === '\r' || raw[at] === '\n' || raw[at] === '\uFEFF')) at++;
  return at;
}

/** End (exclusive) of the string starting at `at` (a quote). */
function stringEnd(raw: string, at: number): number {
  let i = at + 1;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return raw.length;
}

/** End (exclusive) of the value starting at `at`. */
function valueEnd(raw: string, at: number): number {
  const c = raw[at];
  if (c === '"') return stringEnd(raw, at);
  if (c === '{' || c === '[') {
    let depth = 0;
    let i = at;
    while (i < raw.length) {
      const d = raw[i];
      if (d === '"') {
        i = stringEnd(raw, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return raw.length;
  }
  let i = at;
  while (i < raw.length && !',}] \t\r\n'.includes(raw[i])) i++;
  return i;
}

function decodeKey(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The value of member `name` of the object at `at`: [start, end), or undefined. */
function member(raw: string, at: number, name: string): { start: number; end: number } | undefined {
  if (raw[at] !== '{') return undefined;
  let i = skipSpace(raw, at + 1);
  while (i < raw.length && raw[i] === '"') {
    const keyEnd = stringEnd(raw, i);
    const key = decodeKey(raw.slice(i, keyEnd));
    i = skipSpace(raw, keyEnd);
    if (raw[i] !== ':') return undefined;
    const start = skipSpace(raw, i + 1);
    const end = valueEnd(raw, start);
    if (key === name) return { start, end };
    i = skipSpace(raw, end);
    if (raw[i] !== ',') return undefined;
    i = skipSpace(raw, i + 1);
  }
  return undefined;
}

/** Item `index` of the array at `at`: [start, end), or undefined. */
function item(raw: string, at: number, index: number): { start: number; end: number } | undefined {
  if (raw[at] !== '[') return undefined;
  let i = skipSpace(raw, at + 1);
  for (let n = 0; i < raw.length && raw[i] !== ']'; n++) {
    const end = valueEnd(raw, i);
    if (n === index) return { start: i, end };
    i = skipSpace(raw, end);
    if (raw[i] !== ',') return undefined;
    i = skipSpace(raw, i + 1);
  }
  return undefined;
}

/** Where a FHIR path is in a JSON resource's text; undefined when the path is not one or the text is no object. */
export function locateJson(raw: string, path: string): FindingPosition | undefined {
  const steps = pathSteps(path, 0);
  if (!steps) return undefined;
  const rootStart = skipSpace(raw, 0);
  if (raw[rootStart] !== '{') return undefined;
  let current = { start: rootStart, end: valueEnd(raw, rootStart) };
  let located = steps[0].name;
  // the first step names the root resource's type
  const type = member(raw, rootStart, 'resourceType');
  let rest = steps;
  if (type && decodeKey(raw.slice(type.start, type.end)) === steps[0].name && steps[0].index === undefined) rest = steps.slice(1);
  else located = '';
  for (const step of rest) {
    const found = member(raw, current.start, step.name);
    if (!found) return treePosition(located, current.start, current.end, false);
    const name = located === '' ? step.name : `${located}.${step.name}`;
    if (step.index === undefined) {
      current = found;
      located = name;
      continue;
    }
    const at = raw[found.start] === '[' ? item(raw, found.start, step.index) : step.index === 0 ? found : undefined;
    if (!at) return treePosition(name, found.start, found.end, false);
    current = at;
    located = `${name}[${step.index}]`;
  }
  return treePosition(located, current.start, current.end, true);
}
