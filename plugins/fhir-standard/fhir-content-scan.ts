/**
 * One pass over the whole parsed JSON tree for what element definitions cannot see:
 *
 * - keys that name members every JavaScript object inherits (`__proto__`, `constructor`, `toString`...). They are
 *   never FHIR element names, and a lookup by such a key in an ordinary object finds the inherited member instead of
 *   nothing, which is how they slip past structural validation (and, copied carelessly, how they change an object's
 *   prototype). JSON.parse keeps them as plain own data properties, so they are reported here, never acted on;
 * - U+FFFD replacement characters in keys or string values: the sender's bytes were not valid in the character set
 *   they were read as, and the original characters are lost.
 *
 * Keys too long to name any element are reported the same way and removed from the parsed resource before the
 * other checks run. The walk is iterative (an explicit stack), so it costs one visit per value and no call-stack
 * depth.
 */
import type { FhirFinding } from './fhir-issues.ts';

/** Names of the members of Object.prototype (read from the running engine, so none is missed). */
const INHERITED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

/** Most keys of inherited names listed as findings; the rest are counted in the last one. */
const MAX_KEY_FINDINGS = 20;

/**
 * Longest key that could name a FHIR element (R4's longest are about 40 characters). A longer key is set aside before
 * the structural validation sees it: @medplum/core splits an unknown key at each capital letter and builds every
 * prefix, which takes time quadratic in the key's length (a 260,000-character key held a worker for seconds).
 */
const MAX_ELEMENT_NAME = 64;

/** What the scan found. */
export interface ContentScanResult {
  findings: FhirFinding[];
}

/** True when the key names an inherited member (`constructor`) rather than anything FHIR could define. */
export function isInheritedMemberName(key: string): boolean {
  return INHERITED_NAMES.has(key);
}

/** A value still to visit; its path is put together only when a finding needs it. */
interface Pending {
  value: unknown;
  parent: Pending | undefined;
  /** Key in the parent object, or index in the parent array. */
  key: string | number;
}

function pathOf(node: Pending, root: string): string {
  const parts: string[] = [];
  for (let at: Pending | undefined = node; at?.parent !== undefined; at = at.parent) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
  }
  return root + parts.reverse().join('');
}

/**
 * Scans a parsed resource. `content` is the text it was parsed from: the search for U+FFFD runs only when the text
 * holds one, so a clean resource pays a native substring search and one set look-up per property.
 */
export function scanFhirContent(resource: Record<string, unknown>, content: string): ContentScanResult {
  const findings: FhirFinding[] = [];
  const root = String(resource.resourceType);
  const lookForReplacement = content.includes('\uFFFD');
  let setAsideKeys = 0;
  let replacementFirst: string | undefined;
  let replacementCount = 0;
  const stack: Pending[] = [{ value: resource, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const node = stack.pop() as Pending;
    const value = node.value;
    // A key is judged with its value, so the first place reported is the first in document order.
    if (lookForReplacement && ((typeof node.key === 'string' && node.key.includes('\uFFFD')) || (typeof value === 'string' && value.includes('\uFFFD')))) {
      replacementCount++;
      replacementFirst ??= pathOf(node, root);
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        // Without U+FFFD in the text a primitive has nothing to judge: only objects and arrays are visited.
        if (lookForReplacement || (item !== null && typeof item === 'object')) stack.push({ value: item, parent: node, key: i });
      }
      continue;
    }
    const keys = Object.keys(value);
    // Children are pushed in document order, then that stretch of the stack is reversed, so they are visited (and
    // reported) in document order.
    const firstChild = stack.length;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      if (key.length > MAX_ELEMENT_NAME) {
        setAsideKeys++;
        if (setAsideKeys <= MAX_KEY_FINDINGS) {
          const field = `${pathOf(node, root)}.${key.slice(0, 40)}...`;
          findings.push({
            field,
            code: 'UNKNOWN_ELEMENT',
            class: 'nonconformant',
            message: `${field} is not an element of FHIR R4: a key of ${key.length} characters names no element; it was not read.`,
          });
        }
        // Removed from the parsed resource (which nothing else holds), so no later check reads it.
        delete (value as Record<string, unknown>)[key];
        continue;
      }
      if (INHERITED_NAMES.has(key)) {
        setAsideKeys++;
        if (setAsideKeys <= MAX_KEY_FINDINGS) {
          const field = pathOf({ value: undefined, parent: node, key }, root);
          findings.push({
            field,
            code: 'UNKNOWN_ELEMENT',
            class: 'nonconformant',
            message: `${field} is not an element of FHIR R4: "${key}" names a member every JavaScript object inherits, never a FHIR element; it was not read.`,
          });
        }
        // Its content is no FHIR data: nothing below it is judged.
        continue;
      }
      const child: unknown = (value as Record<string, unknown>)[key];
      if (lookForReplacement || (child !== null && typeof child === 'object')) stack.push({ value: child, parent: node, key });
    }
    for (let low = firstChild, high = stack.length - 1; low < high; low++, high--) {
      const swap = stack[low] as Pending;
      stack[low] = stack[high] as Pending;
      stack[high] = swap;
    }
  }
  if (setAsideKeys > MAX_KEY_FINDINGS) {
    const last = findings[findings.length - 1] as FhirFinding;
    last.message += ` ${setAsideKeys - MAX_KEY_FINDINGS} more key(s) of such names were not listed.`;
  }
  if (replacementFirst !== undefined) {
    const where = replacementCount > 1 ? `${replacementFirst} and ${replacementCount - 1} more value(s) hold` : `${replacementFirst} holds`;
    findings.push({
      field: replacementFirst,
      code: 'INVALID_ENCODING',
      class: 'nonconformant',
      message: `${where} U+FFFD, the replacement character: the sender's bytes were not valid in the character set they were read as (UTF-8, the character set of FHIR JSON) and were replaced, so the original characters are lost.`,
    });
  }
  return { findings };
}
