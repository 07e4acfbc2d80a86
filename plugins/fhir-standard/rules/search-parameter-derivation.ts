/**
 * Rules of a SearchParameter that HL7's validator applies beyond the invariants (R4 searchparameter.html):
 * - one derived from a core SearchParameter (`derivedFrom`) keeps its type, and each of its `base` types is one the
 *   core parameter applies to ("a constrained version of the parent": same type, a subset of the bases);
 * - the `expression` starts each of its `|` alternatives from a type the parameter is for: a path rooted in a resource
 *   type that is not in `base` can find nothing in the resources the parameter searches.
 */
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from '../fhir-issues.ts';
import { coreSearchParameter } from './core-search-parameters.ts';

/** Bases that stand for every resource type. */
const ANY_RESOURCE = new Set(['Resource', 'DomainResource']);

/** The `|` alternatives at the top level of a FHIRPath expression (not inside parentheses, brackets or strings). */
export function unionTerms(expression: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '|' && depth === 0) {
      terms.push(expression.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(expression.slice(start));
  return terms.map((term) => term.trim()).filter((term) => term !== '');
}

/** The identifier a path term starts from (`Organization` of `(Organization.name as string)`), if any. */
function rootName(term: string): string | undefined {
  return /^\(*\s*([A-Za-z][A-Za-z0-9_]*)/.exec(term)?.[1];
}

/**
 * Checks one SearchParameter at `field` (`SearchParameter`, `Bundle.entry[1].resource`); `isResourceType` tells a
 * resource type name from an element name.
 */
export function checkSearchParameterDerivation(resource: Record<string, unknown>, field: string, isResourceType: (name: string) => boolean, out: FhirFinding[]): void {
  const bases = Array.isArray(resource.base) ? resource.base.filter((b): b is string => typeof b === 'string') : [];
  if (typeof resource.expression === 'string' && bases.length > 0 && !bases.some((b) => ANY_RESOURCE.has(b))) {
    for (const term of unionTerms(resource.expression)) {
      const root = rootName(term);
      if (!root || !isResourceType(root) || bases.includes(root)) continue;
      out.push({
        field: `${field}.expression`,
        code: 'CONSTRAINT_FAILED',
        class: 'nonconformant',
        message: `${field}.expression starts "${excerpt(term)}" from ${root}, which is not one of the parameter's base types (${bases.join(', ')}); it can match nothing in the resources searched.`,
        expected: `a path from ${bases.join(' or ')}`,
        actual: actualValue(root),
      });
    }
  }
  if (typeof resource.derivedFrom !== 'string') return;
  const parent = coreSearchParameter(resource.derivedFrom);
  if (!parent) return;
  if (typeof resource.type === 'string' && resource.type !== parent.type) {
    out.push({
      field: `${field}.type`,
      code: 'CONSTRAINT_FAILED',
      class: 'nonconformant',
      message: `${field}.type is ${excerpt(resource.type)}, but the SearchParameter it is derived from (${excerpt(parent.url)}) has the type ${parent.type}; a derived parameter keeps its type.`,
      expected: parent.type,
      actual: actualValue(resource.type),
    });
  }
  if (parent.base.some((b) => ANY_RESOURCE.has(b))) return;
  bases.forEach((base, index) => {
    if (parent.base.includes(base)) return;
    out.push({
      field: `${field}.base[${index}]`,
      code: 'CONSTRAINT_FAILED',
      class: 'nonconformant',
      message: `${field}.base[${index}] is ${excerpt(base)}, which the SearchParameter it is derived from (${excerpt(parent.url)}) does not apply to; its bases are ${parent.base.slice(0, 8).join(', ')}.`,
      expected: `one of ${parent.base.slice(0, 8).join(', ')}`,
      actual: actualValue(base),
    });
  });
}
