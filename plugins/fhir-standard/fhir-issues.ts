/**
 * Issue codes of the FHIR adapter and the one rule that turns a finding into an error or a warning per mode.
 * Checks report *what* they found (a code and a class); only {@link toIssue} decides the severity, so the strict /
 * compatibility table in the README is this file.
 */
import type { ValidationIssue } from '../../kernel/standards-registry.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';

/** Codes the FHIR adapter reports (shared names where the meaning matches other standards). */
export const FHIR_ISSUE_CODES = {
  PARSE_ERROR: 'The content is neither well-formed JSON nor well-formed XML, or is refused (DOCTYPE, entities, too deep or too large).',
  NOT_FHIR_RESOURCE: 'The content parses but is not a FHIR resource: no resourceType, or one R4 does not define.',
  REQUIRED_FIELD_MISSING: 'An element with minimum cardinality 1 (in R4 or in the profile) is absent.',
  RECOMMENDED_FIELD_EMPTY: 'A must-support element of the profile is absent.',
  TOO_MANY_REPETITIONS: 'An element repeats more often than its maximum cardinality allows.',
  INVALID_DATA_TYPE: 'A value has the wrong JSON type or format for its FHIR type (array vs single, string vs number, id, uri, empty or null values...), or is a relative URI where R4 requires an absolute one (ValueSet.url, Coding.system...).',
  INVALID_DATE: 'A date, dateTime, instant or time value is malformed, or names a day its month does not have.',
  VALUE_NOT_IN_VALUE_SET: 'A code is outside the value set of its binding (required: error; extensible: warning).',
  UNKNOWN_ELEMENT: 'A property that the element definitions of the type do not define.',
  CONSTRAINT_FAILED: 'An invariant (FHIRPath constraint such as pat-1, bdl-7) or a profile fixed/pattern value is not met.',
  CODE_NOT_IN_CODE_SYSTEM: 'A Coding claims a code system FHIR R4 defines completely (administrative-gender, v3-MaritalStatus...) but its code is not in it, whatever the binding.',
  INVALID_REFERENCE: 'A reference points at a resource type the element does not allow (by its URL, or by the contained resource or Bundle entry it resolves to), or does not resolve inside its Bundle.',
  BUNDLE_RULE_VIOLATED: 'A Bundle.type rule is broken (request/response/search per entry, duplicate fullUrl), or a fullUrl is relative or disagrees with its resource\'s type or id.',
  PROFILE_NOT_LOADED: 'meta.profile names a profile no loaded pack provides, so it was not checked.',
  EXTENSION_UNKNOWN: 'An extension outside FHIR\'s own namespace (an implementation guide\'s) whose definition is not loaded, so it was not checked (an error when it is a modifierExtension); once per URL per resource.',
  CONSTRAINT_NOT_EVALUATED: 'An invariant could not be evaluated by the FHIRPath engine (reported, not failed).',
  NARRATIVE_INVALID: 'A Narrative div that is not well-formed XHTML in the XHTML namespace, holds active content (script, event-handler attributes, javascript: URLs, frames, forms, objects) or elements txt-1 does not allow.',
  INVALID_ENCODING: 'A value holds U+FFFD replacement characters: the sender\'s bytes were not valid in the character set they were read as, and the original characters are lost.',
} as const;

/** One of {@link FHIR_ISSUE_CODES}. */
export type FhirIssueCode = keyof typeof FHIR_ISSUE_CODES;

/**
 * How serious a finding is, independent of mode:
 * - `unreadable`: a receiver cannot interpret the content (not FHIR, wrong types, codes outside required sets) -> error in both modes;
 * - `nonconformant`: the spec or profile says "SHALL" but the content is still interpretable -> error in strict, warning in compatibility;
 * - `advisory`: a "SHOULD" (must-support, extensible binding, unloaded profile) -> warning in both modes.
 */
export type FindingClass = 'unreadable' | 'nonconformant' | 'advisory';

/** A finding before the mode decides its severity. */
export interface FhirFinding {
  field: string;
  code: FhirIssueCode;
  message: string;
  class: FindingClass;
  /** What the check wanted (kernel/standards/issue-detail.ts), when it knows. */
  expected?: string;
  /** The value found, excerpted, when the check knows it. */
  actual?: string;
}

/** Validation mode. */
export type FhirValidationMode = 'strict' | 'compatibility';

/** Applies the mode table. */
export function toIssue(finding: FhirFinding, mode: FhirValidationMode): ValidationIssue {
  const severity =
    finding.class === 'unreadable' || (finding.class === 'nonconformant' && mode === 'strict') ? 'error' : 'warning';
  const issue: ValidationIssue = { field: finding.field, code: finding.code, message: finding.message, severity };
  if (finding.expected !== undefined) issue.expected = finding.expected;
  if (finding.actual !== undefined) issue.actual = finding.actual;
  return issue;
}

/** Formats of FHIR R4's date and time types, as a finding's `expected` names them. */
const TYPE_FORMATS: Readonly<Record<string, string>> = {
  date: 'YYYY[-MM[-DD]]',
  dateTime: 'YYYY[-MM[-DD[Thh:mm:ss[.sss](Z|+hh:mm)]]]',
  instant: 'YYYY-MM-DDThh:mm:ss[.sss](Z|+hh:mm)',
  time: 'hh:mm:ss[.sss]',
};

/** `expected` of a value of an R4 type it does not have: the type and, for dates and times, its format. */
export function expectedOfType(type: string): string {
  const format = TYPE_FORMATS[type];
  return format ? `${type} ${format}` : `a valid ${type}`;
}

/** Shortens an element description to its first sentence, for messages. */
export function shortDescription(description: string | undefined, limit = 90): string {
  if (!description) return '';
  const firstSentence = description.split(/(?<=\.)\s+(?=[A-Z])/)[0].replace(/\s+/g, ' ').trim();
  return firstSentence.length > limit ? `${firstSentence.slice(0, limit - 1).trimEnd()}…` : firstSentence;
}

/**
 * Names a place for a sentence: the concrete path, followed by its element definition when that adds something
 * (`Bundle.entry[2].resource.gender (Patient.gender)`, but just `Patient.gender`).
 */
export function nameField(field: string, elementPath: string | undefined): string {
  // A path can hold a property name the sender made up: a sentence names at most an excerpt of it.
  const shown = excerpt(field);
  if (!elementPath || field.replace(/\[\d+\]/g, '') === elementPath) return shown;
  return `${shown} (${excerpt(elementPath)})`;
}
