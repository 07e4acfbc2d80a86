/**
 * Applies a loaded profile's rules to a resource: required and must-support elements, fixed values, patterns and
 * value-set bindings, each finding with the concrete path (`Patient.identifier[1].system`).
 */
import { valueInValueSet } from './fhir-bindings.ts';
import type { FhirFinding } from './fhir-issues.ts';
import type { FhirProfile, ProfileValueSetRule } from './fhir-profiles.ts';
import type { CompiledValueSet, FhirTerminology } from './fhir-terminology.ts';

interface Located {
  value: unknown;
  path: string;
}

/** Values at an element path (arrays flattened, `x[x]` matching any choice), with their concrete paths. */
export function valuesAt(root: Located, relativeSegments: readonly string[]): Located[] {
  let current: Located[] = [root];
  for (const segment of relativeSegments) {
    const next: Located[] = [];
    for (const node of current) {
      if (!node.value || typeof node.value !== 'object' || Array.isArray(node.value)) continue;
      const object = node.value as Record<string, unknown>;
      const keys = segment.endsWith('[x]')
        ? Object.keys(object).filter((k) => k.startsWith(segment.slice(0, -3)) && /^[A-Z]/.test(k.slice(segment.length - 3)))
        : [segment];
      for (const key of keys) {
        const value = object[key];
        if (value === undefined || value === null) continue;
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) next.push({ value: value[i], path: `${node.path}.${key}[${i}]` });
        } else {
          next.push({ value, path: `${node.path}.${key}` });
        }
      }
    }
    current = next;
  }
  return current;
}

/** True when `value` contains everything `pattern` has (FHIR pattern[x] semantics: arrays match by inclusion). */
export function matchesPattern(value: unknown, pattern: unknown): boolean {
  if (pattern === null || typeof pattern !== 'object') return value === pattern;
  if (Array.isArray(pattern)) {
    if (!Array.isArray(value)) return false;
    return pattern.every((p) => value.some((v) => matchesPattern(v, p)));
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(pattern as Record<string, unknown>).every(([k, p]) => matchesPattern((value as Record<string, unknown>)[k], p));
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function inferCodedType(value: unknown): string {
  if (typeof value === 'string') return 'code';
  if (value && typeof value === 'object' && 'coding' in value) return 'CodeableConcept';
  return 'Coding';
}

function splitRulePath(profile: FhirProfile, path: string): string[] | undefined {
  const segments = path.split('.');
  return segments[0] === profile.resourceType ? segments.slice(1) : undefined;
}

/** Applies profiles for one terminology (value sets compiled once and shared). */
export function createProfileRules(terminology: FhirTerminology) {
  const inlineSets = new WeakMap<ProfileValueSetRule, CompiledValueSet>();

  function setFor(rule: ProfileValueSetRule): CompiledValueSet | undefined {
    if (rule.valueSet) {
      const expanded = terminology.valueSet(rule.valueSet);
      if (expanded || !rule.codes) return expanded;
    }
    let compiled = inlineSets.get(rule);
    if (!compiled && rule.codes) {
      const codes = rule.codes;
      compiled = {
        url: rule.valueSet ?? '(inline)',
        systemCodes: new Set(codes.filter((c) => c.system).map((c) => `${c.system}|${c.code}`)),
        codes: new Set(codes.map((c) => c.code)),
        systems: new Set(codes.flatMap((c) => (c.system ? [c.system] : []))),
        sample: (limit) => codes.slice(0, limit).map((c) => ({ system: c.system ?? '', code: c.code, display: c.display })),
      };
      inlineSets.set(rule, compiled);
    }
    return compiled;
  }

  return {
    /** Checks `resource` (found at `basePath`) against `profile`. */
    apply(profile: FhirProfile, resource: Record<string, unknown>, basePath: string): FhirFinding[] {
      const findings: FhirFinding[] = [];
      const root: Located = { value: resource, path: basePath };
      const label = `profile ${profile.name}`;
      if (resource.resourceType !== profile.resourceType) {
        return [
          {
            field: basePath,
            code: 'CONSTRAINT_FAILED',
            class: 'nonconformant',
            message: `${basePath} is a ${String(resource.resourceType)}, but ${label} constrains ${profile.resourceType}.`,
          },
        ];
      }
      const presence = (paths: string[], code: 'REQUIRED_FIELD_MISSING' | 'RECOMMENDED_FIELD_EMPTY'): void => {
        for (const path of paths) {
          const segments = splitRulePath(profile, path);
          if (!segments || segments.length === 0) continue;
          // A nested element is required within each occurrence of its parent (Patient.identifier.system per identifier).
          for (const parent of valuesAt(root, segments.slice(0, -1))) {
            if (valuesAt(parent, segments.slice(-1)).length > 0) continue;
            const field = `${parent.path}.${segments[segments.length - 1]}`;
            findings.push({
              field,
              code,
              class: code === 'REQUIRED_FIELD_MISSING' ? 'nonconformant' : 'advisory',
              message:
                code === 'REQUIRED_FIELD_MISSING'
                  ? `${field} (${path}) is required by ${label} but missing.`
                  : `${field} (${path}) is must-support in ${label} and should be sent when known, but it is empty.`,
            });
          }
        }
      };
      presence(profile.required, 'REQUIRED_FIELD_MISSING');
      presence(profile.mustSupport, 'RECOMMENDED_FIELD_EMPTY');
      for (const rule of profile.fixed) {
        const segments = splitRulePath(profile, rule.path);
        if (!segments) continue;
        for (const node of valuesAt(root, segments)) {
          if (deepEqual(node.value, rule.value)) continue;
          findings.push({
            field: node.path,
            code: 'CONSTRAINT_FAILED',
            class: 'nonconformant',
            message: `${node.path} (${rule.path}) must be ${JSON.stringify(rule.value)} in ${label}, but is ${JSON.stringify(node.value)}.`,
          });
        }
      }
      for (const rule of profile.patterns) {
        const segments = splitRulePath(profile, rule.path);
        if (!segments) continue;
        const nodes = valuesAt(root, segments);
        if (nodes.some((node) => matchesPattern(node.value, rule.value))) continue;
        findings.push({
          field: `${basePath}.${segments.join('.')}`,
          code: 'CONSTRAINT_FAILED',
          class: 'nonconformant',
          message: `${basePath}.${segments.join('.')} (${rule.path}) must include ${JSON.stringify(rule.value)} in ${label}.`,
        });
      }
      for (const rule of profile.valueSets) {
        const segments = splitRulePath(profile, rule.path);
        const set = setFor(rule);
        if (!segments || !set) continue;
        for (const node of valuesAt(root, segments)) {
          if (valueInValueSet(set, inferCodedType(node.value), node.value) !== false) continue;
          findings.push({
            field: node.path,
            code: 'VALUE_NOT_IN_VALUE_SET',
            class: rule.strength === 'required' ? 'nonconformant' : 'advisory',
            message: `${node.path} (${rule.path}) value ${JSON.stringify(node.value)} is not in the ${rule.strength} value set ${set.url} of ${label}.`,
          });
        }
      }
      return findings;
    },
  };
}

/** The profile rules type. */
export type ProfileRules = ReturnType<typeof createProfileRules>;
