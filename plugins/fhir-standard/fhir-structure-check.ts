/**
 * Structural validation by @medplum/core's `validateResource` over the R4 StructureDefinitions (cardinality, JSON
 * types, primitive formats, unknown properties, FHIRPath invariants), with its
 * OperationOutcome issues mapped to our codes, FHIRPath-like paths and sentences naming the element.
 */
import { medplumCore } from './medplum-core.ts';
// The Bundle invariants are checked per entry with clearer sentences (fhir-bundle-rules.ts), all of them where
// @medplum/core reports an element's first failure only: its report of the same rule would be a duplicate.
import { BUNDLE_INVARIANTS } from './fhir-bundle-rules.ts';
import type { FhirDefinitions } from './fhir-definitions.ts';
import type { FhirFinding, FhirIssueCode, FindingClass } from './fhir-issues.ts';
import { expectedOfType, nameField, shortDescription } from './fhir-issues.ts';
import { resolveChoiceSegments, resolveElement, valueAtPath } from './fhir-paths.ts';
import { validateStructure } from './structure/structure-validator.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue, MISSING_VALUE } from '../../kernel/standards/issue-detail.ts';

interface MedplumIssue {
  severity?: string;
  code?: string;
  details?: { text?: string };
  expression?: string[];
  diagnostics?: string;
}


const DATE_TYPES = /^Invalid (date|dateTime|instant|time) format$/;

function classify(issue: MedplumIssue): { code: FhirIssueCode; class: FindingClass } | undefined {
  const text = issue.details?.text ?? '';
  if (issue.code === 'invariant') return { code: 'CONSTRAINT_FAILED', class: 'nonconformant' };
  if (issue.code === 'processing') return { code: 'CONSTRAINT_NOT_EVALUATED', class: 'advisory' };
  if (text.startsWith('Invalid reference:')) return undefined; // the element walk checks targets, URL-aware
  if (text === 'Missing required property') return { code: 'REQUIRED_FIELD_MISSING', class: 'nonconformant' };
  if (text.startsWith('Invalid additional property')) return { code: 'UNKNOWN_ELEMENT', class: 'nonconformant' };
  if (text.startsWith('Invalid number of values')) {
    const match = /expected (\d+)\.\.(\d+|\*), but found (\d+)/.exec(text);
    const tooFew = match ? Number(match[3]) < Number(match[1]) : false;
    return tooFew
      ? { code: 'REQUIRED_FIELD_MISSING', class: 'nonconformant' }
      : { code: 'TOO_MANY_REPETITIONS', class: 'nonconformant' };
  }
  if (text.startsWith('Incorrect number of values provided for slice') || text === 'Value did not match expected pattern') {
    return { code: 'CONSTRAINT_FAILED', class: 'nonconformant' };
  }
  if (DATE_TYPES.test(text)) return { code: 'INVALID_DATE', class: 'unreadable' };
  return { code: 'INVALID_DATA_TYPE', class: 'unreadable' };
}

function sentence(code: FhirIssueCode, path: string, elementName: string, description: string, detail: string): string {
  // The path can hold a property name the sender made up, and the validator's text can quote it: excerpts only.
  const field = excerpt(path);
  const text = excerpt(detail);
  const base = nameField(path, elementName);
  const named = description ? (base === field ? `${field} (${description})` : `${base.slice(0, -1)}: ${description})`) : base;
  switch (code) {
    case 'REQUIRED_FIELD_MISSING':
      return `${named} is required but missing.`;
    case 'UNKNOWN_ELEMENT':
      return `${field} is not an element of ${elementName} in FHIR R4.`;
    case 'TOO_MANY_REPETITIONS':
      return `${named} repeats too often: ${text.replace(/^Invalid number of values: /, '')}.`;
    case 'CONSTRAINT_FAILED':
      return `${named} fails ${text.replace(/^Constraint (\S+) not met: /, 'invariant $1: ')}`;
    case 'CONSTRAINT_NOT_EVALUATED':
      return `${named}: an invariant could not be evaluated (${text}).`;
    default:
      return `${named} is invalid: ${text}.`;
  }
}

/** What a value found is, for `actual`: the primitive itself (excerpted), else its JSON kind. */
function describeFound(value: unknown): string {
  if (value === undefined || value === null) return 'empty';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return actualValue(String(value));
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** `expected` and `actual` of a structural finding: the cardinality the validator names, or the type and its format. */
function detailOf(code: FhirIssueCode, text: string, type: string | undefined, value: () => unknown): { expected?: string; actual?: string } {
  const cardinality = /expected (\d+)\.\.(\d+|\*), but found (\d+)/.exec(text);
  if (cardinality) return { expected: `${cardinality[1]}..${cardinality[2]} value(s)`, actual: `${cardinality[3]} value(s)` };
  if (code === 'REQUIRED_FIELD_MISSING') return { ...MISSING_VALUE };
  if ((code === 'INVALID_DATA_TYPE' || code === 'INVALID_DATE') && type) {
    return { expected: expectedOfType(type), actual: describeFound(value()) };
  }
  return {};
}

/**
 * R4's base64Binary pattern, `(\\s*([0-9a-zA-Z\\+\\=]){4}\\s*)+`, lets whitespace stand between groups of four (line-wrapped
 * base64); @medplum/core's check does not. Such a value is valid.
 */
function isBase64WithWhitespace(value: unknown): boolean {
  return typeof value === 'string' && /\s/.test(value) && /^(?:\s*[0-9a-zA-Z+/=]{4}\s*)+$/.test(value);
}

/** Structural validation of one parsed resource. */
export function createStructureCheck(definitions: FhirDefinitions) {
  function mapIssue(root: unknown, issue: MedplumIssue): FhirFinding | undefined {
    const text = issue.details?.text ?? 'invalid';
    if (issue.code === 'invariant') {
      const key = /^Constraint (\S+) not met/.exec(text)?.[1];
      if (key && BUNDLE_INVARIANTS.has(key)) return undefined;
    }
    const kind = classify(issue);
    if (!kind) return undefined;
    const field = resolveChoiceSegments(root, issue.expression?.[0] ?? String((root as { resourceType?: unknown }).resourceType));
    if (kind.code === 'UNKNOWN_ELEMENT') {
      // Name the type that lacks the property: the element definition of the parent.
      const parent = field.slice(0, field.lastIndexOf('.'));
      const owner = parent.includes('.') ? resolveElement(definitions, root, parent).elementPath : parent;
      return { field, code: kind.code, class: kind.class, message: sentence(kind.code, field, owner, '', text) };
    }
    const resolved = resolveElement(definitions, root, field);
    if (kind.code === 'INVALID_DATA_TYPE' && resolved.info?.type === 'base64Binary' && isBase64WithWhitespace(valueAtPath(root, field))) {
      return undefined;
    }
    const description = shortDescription(resolved.info?.element.description);
    return {
      field,
      code: kind.code,
      class: kind.class,
      message: sentence(kind.code, field, resolved.elementPath, description, text),
      ...detailOf(kind.code, text, resolved.info?.type, () => valueAtPath(root, field)),
    };
  }

  return {
    /**
     * Validates against the base definitions. `gaveUp` is true when the validator stopped early (a type it cannot
     * resolve, such as an unknown nested resourceType): its single finding then says so.
     */
    check(resource: Record<string, unknown>): { findings: FhirFinding[]; gaveUp: boolean } {
      let issues: MedplumIssue[];
      try {
        issues = validateStructure(resource) as MedplumIssue[];
      } catch (error) {
        if (error instanceof medplumCore().OperationOutcomeError) {
          issues = (error.outcome.issue ?? []) as MedplumIssue[];
        } else {
          // The validator gave up (a type it cannot resolve, a stack too deep): report it, never rethrow.
          const finding: FhirFinding = {
            field: String(resource.resourceType),
            code: 'INVALID_DATA_TYPE',
            class: 'unreadable',
            message: `${String(resource.resourceType)} could not be validated structurally: ${(error as Error).message}.`,
          };
          return { findings: [finding], gaveUp: true };
        }
      }
      const findings: FhirFinding[] = [];
      for (const issue of issues) {
        const finding = mapIssue(resource, issue);
        if (finding) findings.push(finding);
      }
      return { findings, gaveUp: false };
    },
  };
}

/** The structure check type. */
export type StructureCheck = ReturnType<typeof createStructureCheck>;
