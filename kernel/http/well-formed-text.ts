/**
 * JSON text may spell a lone UTF-16 surrogate (`"\ud800x"`), which no Unicode text contains: stored, hashed or
 * exported it turns into something else on the way (U+FFFD, or bytes another reader refuses), so whatever was
 * signed over it can never be checked again. Bodies holding one are refused with 400 before any route sees them.
 */

import { MAX_JSON_DEPTH } from '../lib/input/json-depth.ts';

// String.prototype.isWellFormed (Node 20) is a native scan; the project's TypeScript lib (ES2023) does not list it.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Nesting followed at most: the service's one JSON depth limit, which every body was checked against before parsing. */
const MAX_DEPTH = MAX_JSON_DEPTH;

/**
 * The path (`userId`, `items.3.name`, a key itself) of the first string in `value` that holds a lone surrogate, or
 * undefined when every string is well-formed. Visits each value once: linear in the body's size.
 */
export function loneSurrogatePath(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof current === 'string') {
      if (!isWellFormed(current)) return path || '(root)';
      continue;
    }
    if (typeof current !== 'object' || current === null || depth >= MAX_DEPTH) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(current)) {
      const at = path ? `${path}.${key}` : key;
      if (!isWellFormed(key)) return at;
      stack.push({ value: (current as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
  return undefined;
}
