/**
 * The rules that apply to one resource type only (rules/*.ts), dispatched by `resourceType` so that a resource pays
 * for the rules of its own type and nothing else: the validated resource and the resources of its Bundle's entries.
 */
import type { FhirDefinitions } from '../fhir-definitions.ts';
import type { FhirFinding } from '../fhir-issues.ts';
import { checkCapabilitySearchParameters } from './capability-search-parameters.ts';
import { checkEnableWhenTargets } from './questionnaire-enable-when.ts';
import { checkSearchParameterDerivation } from './search-parameter-derivation.ts';
import { checkSearchsetEntries } from './searchset-entries.ts';
import { checkStructureDefinitionRules } from './structure-definition-rules.ts';

/** A rule of one resource type: the resource, its path (`Patient`, `Bundle.entry[2].resource`), and where to report. */
type ResourceRule = (resource: Record<string, unknown>, field: string, out: FhirFinding[]) => void;

/** What {@link createResourceRules} answers. */
export interface ResourceRules {
  /** The findings of the per-type rules on `resource` and, when it is a Bundle, on its entries' resources. */
  check(resource: Record<string, unknown>): FhirFinding[];
}

/** Builds the dispatcher over the R4 definitions. */
export function createResourceRules(definitions: FhirDefinitions): ResourceRules {
  const isResourceType = (name: string) => definitions.isResourceType(name);
  const byType: Readonly<Record<string, ResourceRule>> = {
    Bundle: (resource, field, out) => checkSearchsetEntries(resource, field, isResourceType, out),
    CapabilityStatement: checkCapabilitySearchParameters,
    Questionnaire: checkEnableWhenTargets,
    SearchParameter: (resource, field, out) => checkSearchParameterDerivation(resource, field, isResourceType, out),
    StructureDefinition: (resource, field, out) => checkStructureDefinitionRules(resource, field, definitions, out),
  };

  function apply(resource: Record<string, unknown>, field: string, out: FhirFinding[]): void {
    const type = resource.resourceType;
    if (typeof type !== 'string' || !Object.hasOwn(byType, type)) return;
    (byType[type] as ResourceRule)(resource, field, out);
  }

  return {
    check(resource) {
      const out: FhirFinding[] = [];
      apply(resource, String(resource.resourceType), out);
      if (resource.resourceType === 'Bundle' && Array.isArray(resource.entry)) {
        resource.entry.forEach((entry: unknown, index) => {
          const inner = (entry as { resource?: unknown } | null)?.resource;
          if (inner && typeof inner === 'object' && !Array.isArray(inner)) apply(inner as Record<string, unknown>, `Bundle.entry[${index}].resource`, out);
        });
      }
      return out;
    },
  };
}
