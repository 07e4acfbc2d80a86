/**
 * A Questionnaire item is not enabled by one of its own inner items (R4 questionnaire.html: an item's descendants
 * are displayed only when the item is enabled, so an answer inside it can never be given while it is disabled; HL7's
 * validator: "Questions with an enableWhen cannot refer to an inner question for its enableWhen condition").
 */
import { excerpt } from '../../../kernel/lib/text/text-excerpt.ts';
import { actualValue } from '../../../kernel/standards/issue-detail.ts';
import type { FhirFinding } from '../fhir-issues.ts';

type Item = Record<string, unknown>;

function items(value: unknown): Item[] {
  return Array.isArray(value) ? value.filter((v): v is Item => v !== null && typeof v === 'object' && !Array.isArray(v)) : [];
}

/** Collects the linkIds beneath `item` into `into`, and checks each item on the way (depth-first, children first). */
function walk(item: Item, field: string, out: FhirFinding[], into: Set<string>): void {
  const inner = new Set<string>();
  items(item.item).forEach((child, index) => {
    if (typeof child.linkId === 'string') inner.add(child.linkId);
    walk(child, `${field}.item[${index}]`, out, inner);
  });
  items(item.enableWhen).forEach((condition, index) => {
    if (typeof condition.question !== 'string' || !inner.has(condition.question)) return;
    out.push({
      field: `${field}.enableWhen[${index}].question`,
      code: 'CONSTRAINT_FAILED',
      class: 'nonconformant',
      message: `${field} (linkId "${excerpt(String(item.linkId ?? ''))}") is enabled by "${excerpt(condition.question)}", one of its own inner items, which cannot be answered while it is disabled.`,
      expected: 'a question outside the item',
      actual: actualValue(condition.question),
    });
  });
  for (const linkId of inner) into.add(linkId);
}

/** Checks the enableWhen of every item of one Questionnaire at `field`. */
export function checkEnableWhenTargets(resource: Record<string, unknown>, field: string, out: FhirFinding[]): void {
  const all = new Set<string>();
  items(resource.item).forEach((item, index) => walk(item, `${field}.item[${index}]`, out, all));
}
