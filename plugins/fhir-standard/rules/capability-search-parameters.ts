/**
 * A CapabilityStatement's search parameters agree with the definitions they name (R4 capabilitystatement.html:
 * `rest.resource.searchParam.definition` is "an absolute URI that is a formal reference to where this parameter was
 * first defined", and `type` is "the type of value a search parameter refers to"): when the definition is a core
 * SearchParameter, the type stated is its type, as HL7's validator checks.
 *
 * Only a resource's search parameters (`rest.resource.searchParam`) are judged, the ones HL7's validator judges
 * (InstanceValidator.validateCapabilityStatement walks rest.resource.searchParam alone). The server-wide ones
 * (`rest.searchParam`, "search parameters for searching all resources") name the common parameters every resource
 * has, which R4 itself states as a server offers them rather than as their definitions type them: its base
 * CapabilityStatement declares `_source` (Resource-source, a `uri` SearchParameter) as `token`.
 */
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from '../fhir-issues.ts';
import { coreSearchParameter } from './core-search-parameters.ts';

function objects(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)) : [];
}

function checkParams(params: unknown, field: string, out: FhirFinding[]): void {
  objects(params).forEach((param, index) => {
    if (typeof param.definition !== 'string' || typeof param.type !== 'string') return;
    const core = coreSearchParameter(param.definition);
    if (!core || core.type === param.type) return;
    out.push({
      field: `${field}[${index}].type`,
      code: 'CONSTRAINT_FAILED',
      class: 'nonconformant',
      message: `${field}[${index}].type is ${excerpt(param.type)}, but its definition ${excerpt(param.definition)} is a SearchParameter of type ${core.type}.`,
      expected: core.type,
      actual: actualValue(param.type),
    });
  });
}

/** Checks the search parameters of the resources of one CapabilityStatement at `field` (not its server-wide ones). */
export function checkCapabilitySearchParameters(resource: Record<string, unknown>, field: string, out: FhirFinding[]): void {
  objects(resource.rest).forEach((rest, r) => {
    objects(rest.resource).forEach((entry, i) => checkParams(entry.searchParam, `${field}.rest[${r}].resource[${i}].searchParam`, out));
  });
}
