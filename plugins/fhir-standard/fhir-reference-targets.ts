/**
 * What a reference resolves to must be a resource its element may refer to: a `#id` reference to a contained
 * resource, or (fhir-bundle-rules.ts) a `urn:uuid:` or URL reference to a Bundle entry. The element walk already
 * judges a reference that names its type (`Organization/1`); this judges those that do not, by their target.
 */
import type { CollectedReference } from './fhir-element-walk.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { nameField } from './fhir-issues.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../kernel/standards/issue-detail.ts';

/** `a Patient`, `an Organization`. */
export function withArticle(type: string): string {
  return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${excerpt(type)}`;
}

/**
 * The finding of a reference whose resolved target has a type the element does not allow, or undefined when it is
 * allowed (or any type is). `where` says where the target was found (`the contained resource #org`).
 */
export function wrongTargetType(ref: CollectedReference, targetType: unknown, where: string): FhirFinding | undefined {
  if (ref.targetTypes.length === 0 || typeof targetType !== 'string' || ref.targetTypes.includes(targetType)) return undefined;
  return {
    field: `${ref.field}.reference`,
    code: 'INVALID_REFERENCE',
    class: 'nonconformant',
    message: `${nameField(ref.field, ref.elementPath)} refers to ${where}, ${withArticle(targetType)}, but may only refer to ${ref.targetTypes.join(', ')}.`,
    expected: `a reference to ${ref.targetTypes.join(' or ')}`,
    actual: actualValue(targetType),
  };
}

/** Checks the target type of every `#id` reference that finds its contained resource (ref-1 reports those that do not). */
export function checkContainedTargets(references: readonly CollectedReference[]): FhirFinding[] {
  const findings: FhirFinding[] = [];
  for (const ref of references) {
    if (ref.reference.length < 2 || !ref.reference.startsWith('#') || ref.targetTypes.length === 0) continue;
    const contained = ref.container.contained;
    if (!Array.isArray(contained)) continue;
    const id = ref.reference.slice(1);
    const target = contained.find((resource) => (resource as { id?: unknown } | null)?.id === id) as { resourceType?: unknown } | undefined;
    const finding = target && wrongTargetType(ref, target.resourceType, `the contained resource ${excerpt(ref.reference)}`);
    if (finding) findings.push(finding);
  }
  return findings;
}
