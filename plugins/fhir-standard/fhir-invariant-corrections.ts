/**
 * R4 invariants published with an expression that does not say what their rule says, and the expression that does.
 * HL7's validator evaluates the same corrections (its FHIRPath expression fixer), so a resource is judged by the rule
 * the specification states: que-12 "if there are more than one enableWhen" counted from three, ras-2 failing on a
 * prediction without probability, ref-1 refusing `#` (the reference to the containing resource), dom-3 blind to the
 * narrative's `#id` links (`%narrativeLinks`: R4 counts a contained resource shown in the narrative), and eld-19/eld-20
 * with unanchored regular expressions written in a syntax JavaScript's engine refuses.
 * The corrections are applied once, to the definitions as they are loaded, so they cost nothing per element.
 */

/** One correction: the expression as published in R4 4.0.1 and the one evaluated instead. */
interface Correction {
  published: string;
  corrected: string;
}

const CORRECTIONS: Readonly<Record<string, Correction>> = {
  'que-12': {
    published: 'enableWhen.count() > 2 implies enableBehavior.exists()',
    corrected: 'enableWhen.count() > 1 implies enableBehavior.exists()',
  },
  'ras-2': {
    published: 'probability is decimal implies (probability as decimal) <= 100',
    corrected: 'probability.empty() or ((probability is decimal) implies ((probability as decimal) <= 100))',
  },
  'ref-1': {
    published: "reference.startsWith('#').not() or (reference.substring(1).trace('url') in %rootResource.contained.id.trace('ids'))",
    corrected: "reference = '#' or reference.startsWith('#').not() or (reference.substring(1) in %rootResource.contained.id)",
  },
  'dom-3': {
    published: "contained.where((('#'+id in (%resource.descendants().reference | %resource.descendants().as(canonical) | %resource.descendants().as(uri) | %resource.descendants().as(url))) or descendants().where(reference = '#').exists() or descendants().where(as(canonical) = '#').exists() or descendants().where(as(canonical) = '#').exists()).not()).trace('unmatched', id).empty()",
    corrected: "contained.where((('#'+id in (%resource.descendants().reference | %resource.descendants().as(canonical) | %resource.descendants().as(uri) | %resource.descendants().as(url) | %narrativeLinks)) or descendants().where(reference = '#').exists() or descendants().where(as(canonical) = '#').exists() or descendants().where(as(canonical) = '#').exists()).not()).trace('unmatched', id).empty()",
  },
  'eld-19': {
    published: String.raw`path.matches('[^\\s\\.,:;\\\'"\\/|?!@#$%&*()\\[\\]{}]{1,64}(\\.[^\\s\\.,:;\\\'"\\/|?!@#$%&*()\\[\\]{}]{1,64}(\\[x\\])?(\\:[^\\s\\.]+)?)*')`,
    corrected: String.raw`path.matches('^[^\\s.,:;\'"/|?!@#$%&*()\\[\\]{}]{1,64}(\\.[^\\s.,:;\'"/|?!@#$%&*()\\[\\]{}]{1,64}(\\[x\\])?(:[^\\s.]+)?)*$')`,
  },
  'eld-20': {
    published: String.raw`path.matches('[A-Za-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*(\\[x])?)*')`,
    corrected: String.raw`path.matches('^[A-Za-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*(\\[x\\])?)*$')`,
  },
};

/** The expression to evaluate for an invariant: the correction when the published expression is a known wrong one. */
export function correctedExpression(key: string, expression: string): string {
  const correction = CORRECTIONS[key];
  return correction && correction.published === expression ? correction.corrected : expression;
}

interface ConstraintsBundle {
  entry?: Array<{ resource?: { snapshot?: { element?: Array<{ constraint?: Array<{ key?: string; expression?: string }> }> } } }>;
}

/** Rewrites, in place, the corrected invariants of a bundle of StructureDefinitions before it is indexed. */
export function correctInvariants(bundle: ConstraintsBundle): void {
  for (const entry of bundle.entry ?? []) {
    for (const element of entry.resource?.snapshot?.element ?? []) {
      for (const constraint of element.constraint ?? []) {
        if (constraint.key && constraint.expression && CORRECTIONS[constraint.key]) {
          constraint.expression = correctedExpression(constraint.key, constraint.expression);
        }
      }
    }
  }
}
