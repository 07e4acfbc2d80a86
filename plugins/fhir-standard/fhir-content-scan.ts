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
 * The walk is iterative (an explicit stack), so it costs one visit per value and no call-stack depth.
 */
import type { FhirFinding } from './fhir-issues.ts';

/** Names of the members of Object.prototype (read from the running engine, so none is missed). */
const INHERITED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

/** Most keys of inherited names listed as findings; the rest are counted in the last one. */
const MAX_KEY_FINDINGS = 20;

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
  let inheritedKeys = 0;
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
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, key: i });
      continue;
    }
    const keys = Object.keys(value);
    // Children are pushed last first, so they are visited (and reported) in document order.
    const children: Pending[] = [];
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const child: Pending = { value: (value as Record<string, unknown>)[key], parent: node, key };
      if (INHERITED_NAMES.has(key)) {
        inheritedKeys++;
        if (inheritedKeys <= MAX_KEY_FINDINGS) {
          const field = pathOf(child, root);
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
      children.push(child);
    }
    for (let c = children.length - 1; c >= 0; c--) stack.push(children[c] as Pending);
  }
  if (inheritedKeys > MAX_KEY_FINDINGS) {
    const last = findings[findings.length - 1] as FhirFinding;
    last.message += ` ${inheritedKeys - MAX_KEY_FINDINGS} more key(s) of such names were not listed.`;
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
