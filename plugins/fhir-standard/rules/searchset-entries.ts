/**
 * What each entry of a searchset Bundle holds, by its `search.mode` (R4 bundle.html and search.html): a `match` is a
 * resource of the type searched for (the self link's `Type?...`, or its `_type` list) and an `include` a resource
 * with an id, as search results are resources on the server; an `outcome` is an OperationOutcome about the search.
 * HL7's validator checks the same.
 */
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from '../fhir-issues.ts';

type Entry = { search?: { mode?: unknown }; resource?: Record<string, unknown> };

/** The resource types a search URL asks for: the last step before `?`, else its `_type` list. */
function searchedTypes(url: string, isResourceType: (name: string) => boolean): string[] {
  const [path = '', query = ''] = url.split('?', 2);
  const last = path.split('/').pop() ?? '';
  if (isResourceType(last)) return [last];
  const types = query.split('&').find((pair) => pair.startsWith('_type='));
  return types ? types.slice('_type='.length).split(',').filter((t) => t !== '') : [];
}

/** Checks the entries of one searchset Bundle at `field`. */
export function checkSearchsetEntries(bundle: Record<string, unknown>, field: string, isResourceType: (name: string) => boolean, out: FhirFinding[]): void {
  if (bundle.type !== 'searchset' || !Array.isArray(bundle.entry)) return;
  const self = Array.isArray(bundle.link) ? bundle.link.find((link: { relation?: unknown } | null) => link?.relation === 'self') : undefined;
  const selfUrl = (self as { url?: unknown } | undefined)?.url;
  const types = typeof selfUrl === 'string' ? searchedTypes(selfUrl, isResourceType) : [];
  bundle.entry.forEach((raw: unknown, index) => {
    const entry = raw as Entry | null;
    const mode = entry?.search?.mode;
    const resource = entry?.resource;
    if (typeof mode !== 'string' || !resource || typeof resource !== 'object') return;
    const at = `${field}.entry[${index}].resource`;
    const type = String(resource.resourceType);
    if (mode === 'outcome') {
      if (type !== 'OperationOutcome') {
        out.push({ field: at, code: 'BUNDLE_RULE_VIOLATED', class: 'nonconformant', message: `${at} is ${excerpt(type)}, but an entry with search.mode outcome holds an OperationOutcome.`, expected: 'OperationOutcome', actual: actualValue(type) });
      }
      return;
    }
    if (resource.id === undefined) {
      out.push({ field: `${at}.id`, code: 'REQUIRED_FIELD_MISSING', class: 'nonconformant', message: `${at} has no id; a search result (search.mode ${excerpt(mode)}) is a resource on the server, with its id.` });
    }
    if (mode === 'match' && types.length > 0 && !types.includes(type)) {
      out.push({
        field: at,
        code: 'BUNDLE_RULE_VIOLATED',
        class: 'nonconformant',
        message: `${at} is ${excerpt(type)}, but the search (self link) asked for ${types.slice(0, 8).join(', ')}; a match is of a type searched for.`,
        expected: types.slice(0, 8).join(' or '),
        actual: actualValue(type),
      });
    }
  });
}
