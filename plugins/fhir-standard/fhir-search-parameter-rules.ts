/**
 * A rule of SearchParameter beyond its invariants (R4 searchparameter.html, HL7's validator): a `composite` search
 * parameter combines the values of its components, so it defines two or more. Checked on the validated resource and
 * on the resources of its Bundle's entries.
 */
import type { FhirFinding } from './fhir-issues.ts';

function checkComposite(resource: Record<string, unknown>, field: string, findings: FhirFinding[]): void {
  if (resource.resourceType !== 'SearchParameter' || resource.type !== 'composite') return;
  const count = Array.isArray(resource.component) ? resource.component.length : 0;
  if (count >= 2) return;
  findings.push({
    field: `${field}.component`,
    code: 'CONSTRAINT_FAILED',
    class: 'nonconformant',
    message: `${field} has the type composite but ${count === 0 ? 'no component' : 'one component'}; a composite SearchParameter defines two or more components.`,
    expected: 'two or more components',
    actual: String(count),
  });
}

/** The SearchParameter rules of `resource` and, when it is a Bundle, of its entries' resources. */
export function checkSearchParameterRules(resource: Record<string, unknown>): FhirFinding[] {
  const findings: FhirFinding[] = [];
  checkComposite(resource, 'SearchParameter', findings);
  if (resource.resourceType === 'Bundle' && Array.isArray(resource.entry)) {
    resource.entry.forEach((entry: unknown, index) => {
      const inner = (entry as { resource?: unknown } | null)?.resource;
      if (inner && typeof inner === 'object') checkComposite(inner as Record<string, unknown>, `Bundle.entry[${index}].resource`, findings);
    });
  }
  return findings;
}
