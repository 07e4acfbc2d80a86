/**
 * Binding checks (what @medplum/core's validator leaves out): a coded value bound `required` must come from its
 * value set (error), one bound `extensible` should (warning). Value sets are compiled once by the terminology; a
 * check is a Set lookup. Sets the shipped terminology cannot expand are skipped (listed in the README).
 */
import type { FhirElementBinding } from './fhir-definitions.ts';
import type { FhirFinding } from './fhir-issues.ts';
import { nameField } from './fhir-issues.ts';
import type { CompiledValueSet, FhirTerminology } from './fhir-terminology.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { ACTUAL_CHARACTERS, actualValue, expectedCodes } from '../../kernel/standards/issue-detail.ts';

/** Types whose values carry codes a binding constrains. */
const CODED_PRIMITIVES = new Set(['code', 'string', 'uri']);
const MAX_LISTED_CODES = 12;

interface CodingLike {
  system?: unknown;
  code?: unknown;
}

function codingMatches(set: CompiledValueSet, coding: CodingLike): boolean | undefined {
  if (typeof coding.code !== 'string') return undefined;
  if (typeof coding.system === 'string') return set.systemCodes.has(`${coding.system}|${coding.code}`);
  // A Coding without system cannot be placed; accept it when the code exists in the set at all.
  return set.codes.has(coding.code);
}

function describeValue(type: string, value: unknown): string {
  if (type === 'CodeableConcept') {
    const codings = ((value as { coding?: CodingLike[] }).coding ?? []).filter((c) => c && typeof c === 'object');
    return codings.map((c) => (c.system ? `${String(c.system)}|${String(c.code)}` : String(c.code))).join(', ');
  }
  if (type === 'Coding') {
    const c = value as CodingLike;
    return c.system ? `${String(c.system)}|${String(c.code)}` : String(c.code);
  }
  return String(value);
}

/**
 * Whether a value satisfies a bound value set: true, false, or undefined when the value holds nothing to check
 * (a CodeableConcept with text only, a wrong JSON type that the structure check reports).
 */
export function valueInValueSet(set: CompiledValueSet, type: string, value: unknown): boolean | undefined {
  if (CODED_PRIMITIVES.has(type)) return typeof value === 'string' ? set.codes.has(value) : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (type === 'Coding') return codingMatches(set, value as CodingLike);
  if (type === 'CodeableConcept') {
    const codings = (value as { coding?: unknown }).coding;
    if (!Array.isArray(codings)) return undefined;
    let checked = false;
    for (const coding of codings) {
      if (!coding || typeof coding !== 'object') continue;
      const match = codingMatches(set, coding as CodingLike);
      if (match) return true;
      if (match === false) checked = true;
    }
    return checked ? false : undefined;
  }
  return undefined;
}

/** A binding checker over one terminology. */
export interface BindingChecker {
  /** Checks one value of an element; returns a finding when it misses its set. */
  check(
    binding: FhirElementBinding,
    elementPath: string,
    type: string,
    value: unknown,
    field: string,
  ): FhirFinding | undefined;
}

/** Builds the checker; value sets are compiled on first use and kept. */
export function createBindingChecker(terminology: FhirTerminology): BindingChecker {
  return {
    check(binding, elementPath, type, value, field) {
      if (binding.strength !== 'required' && binding.strength !== 'extensible') return undefined;
      const set = terminology.valueSet(binding.valueSet);
      if (!set) return undefined;
      const inSet = valueInValueSet(set, type, value);
      if (inSet !== false) return undefined;
      const allowed = set.codes.size <= MAX_LISTED_CODES ? `; allowed: ${[...set.codes].join(', ')}` : '';
      const required = binding.strength === 'required';
      return {
        field,
        code: 'VALUE_NOT_IN_VALUE_SET',
        class: required ? 'unreadable' : 'advisory',
        message: `${nameField(field, elementPath)} value "${excerpt(describeValue(type, value))}" is not in the ${binding.strength} value set ${binding.valueSet}${allowed}.`,
        expected: set.codes.size > 0 ? expectedCodes(set.codes) : `a code of ${excerpt(binding.valueSet, ACTUAL_CHARACTERS)}`,
        actual: actualValue(describeValue(type, value)),
      };
    },
  };
}
