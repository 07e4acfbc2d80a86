/**
 * FHIR validation: parse, structural validation by @medplum/core, our one-pass element walk (bindings, reference
 * targets), Bundle rules, and the profiles the resource claims (meta.profile) or the request names. Every check
 * reports findings; the mode turns them into errors or warnings at the end (fhir-issues.ts).
 */
import type { ValidationIssue, ValidationResult } from '../../kernel/standards-registry.ts';
import { checkBundleRules } from './fhir-bundle-rules.ts';
import { FHIR_R4_VERSION, stripCanonicalVersion } from './fhir-definitions.ts';
import type { ElementWalker } from './fhir-element-walk.ts';
import type { FhirFinding, FhirValidationMode } from './fhir-issues.ts';
import { toIssue } from './fhir-issues.ts';
import type { FhirParser } from './fhir-parser.ts';
import type { ProfileRules } from './fhir-profile-rules.ts';
import type { FhirProfile } from './fhir-profiles.ts';
import type { StructureCheck } from './fhir-structure-check.ts';

/** What the validator is assembled from. */
export interface FhirValidatorParts {
  parser: FhirParser;
  structure: StructureCheck;
  walker: ElementWalker;
  profileRules: ProfileRules;
  /** Loaded profiles, looked up by canonical URL for meta.profile. */
  profiles: () => readonly FhirProfile[];
}

/** Options of one validation. */
export interface FhirValidateOptions {
  mode: FhirValidationMode;
  /** A profile named by the request (already resolved by the adapter), applied on top of meta.profile. */
  profile?: FhirProfile;
}

interface ProfileTarget {
  resource: Record<string, unknown>;
  path: string;
}

function profileTargets(resource: Record<string, unknown>): ProfileTarget[] {
  const targets: ProfileTarget[] = [{ resource, path: String(resource.resourceType) }];
  if (resource.resourceType === 'Bundle' && Array.isArray(resource.entry)) {
    resource.entry.forEach((entry, index) => {
      const inner = (entry as { resource?: unknown } | null)?.resource;
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        targets.push({ resource: inner as Record<string, unknown>, path: `Bundle.entry[${index}].resource` });
      }
    });
  }
  return targets;
}

/**
 * Drops repeated findings: the same sentence twice, or a second wrong-shape report at one place (the structural
 * validation and the element walk both see, say, an empty object).
 */
function withoutDuplicates(findings: FhirFinding[]): FhirFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = f.code === 'INVALID_DATA_TYPE' ? `${f.code} ${f.field}` : `${f.code} ${f.field} ${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Builds the validator. */
export function createFhirValidator(parts: FhirValidatorParts) {
  function profileFindings(resource: Record<string, unknown>, explicit: FhirProfile | undefined): { findings: FhirFinding[]; applied: string[] } {
    const byUrl = new Map(parts.profiles().map((p) => [p.url, p]));
    const findings: FhirFinding[] = [];
    const applied = new Set<string>();
    const targets = profileTargets(resource);
    for (const target of targets) {
      const claimed = (target.resource.meta as { profile?: unknown } | undefined)?.profile;
      for (const raw of Array.isArray(claimed) ? claimed : []) {
        if (typeof raw !== 'string') continue;
        const profile = byUrl.get(stripCanonicalVersion(raw));
        if (!profile) {
          findings.push({
            field: `${target.path}.meta.profile`,
            code: 'PROFILE_NOT_LOADED',
            class: 'advisory',
            message: `${target.path}.meta.profile claims ${raw}, which no loaded profile pack provides; it was not checked.`,
          });
          continue;
        }
        if (explicit && profile.url === explicit.url) continue;
        applied.add(profile.name);
        findings.push(...parts.profileRules.apply(profile, target.resource, target.path));
      }
    }
    if (explicit) {
      applied.add(explicit.name);
      // A Bundle checked against a profile of another type: the profile applies to the entries it fits.
      const fitting = targets.filter((t) => t.resource.resourceType === explicit.resourceType);
      for (const target of fitting.length > 0 ? fitting : targets.slice(0, 1)) {
        findings.push(...parts.profileRules.apply(explicit, target.resource, target.path));
      }
    }
    return { findings, applied: [...applied] };
  }

  return {
    /** Validates content; never throws for bad content. */
    validate(content: string, options: FhirValidateOptions): ValidationResult {
      const parsed = parts.parser.parse(content);
      if (!parsed.ok) {
        const issue = toIssue(parsed.finding, options.mode);
        return { isValid: false, errors: [issue], warnings: [], summary: { format: parsed.format, version: FHIR_R4_VERSION } };
      }
      const resource = parsed.resource;
      const walked = parts.walker.walk(resource);
      const structure = parts.structure.check(resource);
      // The structural validator gives up on an unknown nested resource type, which the walk already names.
      const nestedTypeUnknown = walked.findings.some((f) => f.code === 'NOT_FHIR_RESOURCE');
      let findings = structure.gaveUp && nestedTypeUnknown ? [] : structure.findings;
      if (walked.malformed.length > 0) {
        // A string where an object belongs is read by the structural validator as an object of characters.
        const prefixes = walked.malformed.map((field) => `${field}.`);
        findings = findings.filter((f) => !prefixes.some((prefix) => f.field.startsWith(prefix)));
      }
      findings.push(...walked.findings);
      if (resource.resourceType === 'Bundle') findings.push(...checkBundleRules(resource, walked.references));
      const profiles = profileFindings(resource, options.profile);
      findings.push(...profiles.findings);
      findings = withoutDuplicates(findings);

      const errors: ValidationIssue[] = [];
      const warnings: ValidationIssue[] = [];
      for (const finding of findings) {
        const issue = toIssue(finding, options.mode);
        (issue.severity === 'error' ? errors : warnings).push(issue);
      }
      return {
        isValid: errors.length === 0,
        errors,
        warnings,
        summary: {
          format: parsed.format,
          version: FHIR_R4_VERSION,
          resourceType: resource.resourceType,
          mode: options.mode,
          profiles: profiles.applied,
        },
      };
    },
  };
}

/** The validator type. */
export type FhirValidator = ReturnType<typeof createFhirValidator>;
