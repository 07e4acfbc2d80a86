/**
 * Two interfaces must not count the same file: a file read by both would be two messages in the totals, two alerts
 * for one bad file, and two answers for one question. An interface overlaps another when both watch the same folder
 * (or one watches a folder inside the other's, which watches subfolders) and their patterns can match one name.
 * Whether two globs share a match is decided by probing, a deliberate, documented approximation: each pattern's
 * literal expansions (`*` and `?` as `x`, every `{a,b}` alternative, `[..]` as its first character) are tried against
 * the other's matcher, both ways. Equal patterns, `*`-only patterns and extension clashes are caught; two patterns
 * that share only contrived names may pass.
 */
import { isAbsolute, relative } from 'node:path';
import type { MonitoredInterface } from '../api.ts';
import { compileFilePattern } from './file-pattern.ts';

/** The watch settings compared. */
export interface WatchedPlace {
  id?: string;
  directoryPath: string;
  filePattern: string;
  recursive: boolean;
}

/** Most probe names one pattern expands to (braces multiply). */
const MAX_PROBES = 64;

/** Literal names a pattern matches, as probes. */
function probes(pattern: string): string[] {
  let names = [''];
  for (let i = 0; i < pattern.length && names.length <= MAX_PROBES; i++) {
    const c = pattern[i];
    if (c === '{') {
      const end = pattern.indexOf('}', i);
      if (end < 0) {
        names = names.map((n) => n + c);
        continue;
      }
      const options = pattern.slice(i + 1, end).split(',');
      names = names.flatMap((n) => options.map((o) => n + o.replace(/[*?]/g, 'x')));
      i = end;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i);
      const first = end > i + 1 ? pattern[i + 1] === '!' || pattern[i + 1] === '^' ? 'x' : pattern[i + 1] : c;
      names = names.map((n) => n + first);
      if (end > i) i = end;
    } else if (c === '*' || c === '?') {
      names = names.map((n) => n + 'x');
    } else if (c === '\\' && i + 1 < pattern.length) {
      names = names.map((n) => n + pattern[i + 1]);
      i++;
    } else {
      names = names.map((n) => n + c);
    }
  }
  // `**/` collapses to nothing as well as to one folder
  return [...new Set(names.flatMap((n) => [n, n.replace(/(^|\/)xx\//g, '$1')]))].slice(0, MAX_PROBES);
}

/** Whether `inner` (watching `sub`, a folder inside `outer`'s, or the same folder when `sub` is '') shares a file with `outer`. */
function shares(outer: WatchedPlace, inner: WatchedPlace, sub: string): boolean {
  const outerMatches = compileFilePattern(outer.filePattern, outer.recursive);
  const innerMatches = compileFilePattern(inner.filePattern, inner.recursive);
  const prefix = sub === '' ? '' : `${sub.split('\\').join('/')}/`;
  for (const name of probes(inner.filePattern)) if (outerMatches(prefix + name) && innerMatches(name)) return true;
  for (const name of probes(outer.filePattern)) {
    if (prefix === '') {
      if (innerMatches(name) && outerMatches(name)) return true;
    } else if (name.startsWith(prefix) && innerMatches(name.slice(prefix.length)) && outerMatches(name)) return true;
  }
  return false;
}

/** Where `b` lies relative to `a`: '' same folder, a relative path inside it, or undefined elsewhere. */
function inside(a: string, b: string): string | undefined {
  const rel = relative(a, b);
  if (rel === '') return '';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel;
}

/** The first other interface that would count files of `candidate`, or undefined. */
export function overlappingInterface(candidate: WatchedPlace, others: readonly MonitoredInterface[]): MonitoredInterface | undefined {
  for (const other of others) {
    if (other.id === candidate.id) continue;
    const down = inside(other.directoryPath, candidate.directoryPath);
    if (down !== undefined && (down === '' || other.recursive) && shares(other, candidate, down)) return other;
    const up = inside(candidate.directoryPath, other.directoryPath);
    if (up !== undefined && up !== '' && candidate.recursive && shares(candidate, other, up)) return other;
  }
  return undefined;
}
