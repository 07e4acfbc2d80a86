/**
 * EXTENSION_UNKNOWN once per distinct extension URL per resource: a feed that stamps its own extension on every
 * element (ReportStream's Bundles) would otherwise repeat one sentence thousands of times. The first occurrence keeps
 * its place and says how many more the same resource holds; a modifier and a plain use of one URL stay apart, since
 * they differ in severity.
 */
import type { FhirFinding } from '../fhir-issues.ts';

/** Where a resource nested in another begins: a Bundle entry's or a Parameters' `resource`, a contained one. */
const RESOURCE_START = /\.(?:resource|contained\[\d+\])(?=\.)/g;

/** The path of the resource a field lies in (`Bundle.entry[3].resource`, `Patient.contained[0]`, `Patient`). */
function resourceOf(field: string): string {
  let end = field.indexOf('.');
  if (end === -1) return field;
  for (const match of field.matchAll(RESOURCE_START)) end = match.index + match[0].length;
  return field.slice(0, end);
}

/** Keeps the first EXTENSION_UNKNOWN finding of each URL in each resource and counts the others in its message. */
export function oncePerExtensionUrl(findings: FhirFinding[]): FhirFinding[] {
  const first = new Map<string, { finding: FhirFinding; more: number }>();
  const kept: FhirFinding[] = [];
  for (const finding of findings) {
    if (finding.code !== 'EXTENSION_UNKNOWN') {
      kept.push(finding);
      continue;
    }
    const key = `${resourceOf(finding.field)} ${finding.class} ${finding.actual ?? finding.message}`;
    const seen = first.get(key);
    if (seen) {
      seen.more++;
      continue;
    }
    const copy = { ...finding };
    first.set(key, { finding: copy, more: 0 });
    kept.push(copy);
  }
  for (const { finding, more } of first.values()) {
    if (more > 0) finding.message = `${finding.message} (and ${more} more in this resource)`;
  }
  return kept;
}
