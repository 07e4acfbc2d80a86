/**
 * FHIR validation: parse, structural validation by @medplum/core, our one-pass element walk (bindings, reference
 * targets), Bundle rules, and the profiles the resource claims (meta.profile) or the request names. Every check
 * reports findings; the mode turns them into errors or warnings at the end (fhir-issues.ts).
 */
import { IssueList } from '../../kernel/standards/issue-list.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import type { ValidationResult } from '../../kernel/standards-registry.ts';
import { type BundleDefinitions, checkBundleRules } from './fhir-bundle-rules.ts';
import { checkContainedTargets } from './fhir-reference-targets.ts';
import { checkSearchParameterRules } from './fhir-search-parameter-rules.ts';
import { scanFhirContent } from './fhir-content-scan.ts';
import { FHIR_R4_VERSION, stripCanonicalVersion } from './fhir-definitions.ts';
import type { ElementWalker, ElementWalkResult } from './fhir-element-walk.ts';
import type { FhirFinding, FhirValidationMode } from './fhir-issues.ts';
import { toIssue } from './fhir-issues.ts';
import { oncePerExtensionUrl } from './rules/unknown-extension-tally.ts';
import type { FhirParser } from './fhir-parser.ts';
import type { ProfileRules } from './fhir-profile-rules.ts';
import type { FhirProfile } from './fhir-profiles.ts';
import type { StructureCheck } from './fhir-structure-check.ts';
import type { ResourceRules } from './rules/resource-rules.ts';

/** What the validator is assembled from. */
export interface FhirValidatorParts {
  parser: FhirParser;
  structure: StructureCheck;
  /** The element walk, with the core invariants the structural validation does not evaluate in the same pass. */
  walker: ElementWalker;
  /** Resource types, for the Bundle rules (a fullUrl's `Type/id`). */
  definitions: BundleDefinitions;
  profileRules: ProfileRules;
  /** The rules of single resource types (SearchParameter, StructureDefinition...), by resourceType. */
  resourceRules: ResourceRules;
  /** Loaded profiles, looked up by canonical URL for meta.profile. */
  profiles: () => readonly FhirProfile[];
}

/** Options of one validation. */
export interface FhirValidateOptions {
  mode: FhirValidationMode;
  /** A profile named by the request (already resolved by the adapter), applied on top of meta.profile. */
  profile?: FhirProfile;
  /** Most issues listed (kernel/standards/issue-list.ts); every one is counted. */
  maxIssues?: number;
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
  if (findings.length < 2) return findings;
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = f.code === 'INVALID_DATA_TYPE' ? `${f.code} ${f.field}` : `${f.code} ${f.field} ${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Appends a list to another in place. */
function append<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i] as T);
}

/**
 * True when a path lies beneath one of the given element paths (`Patient.name.0` beneath `Patient.name`): each
 * prefix of the path ending at a `.` is one set look-up, so filtering costs the length of the paths, not their
 * count times the number of malformed elements.
 */
function beneathAny(field: string, elements: ReadonlySet<string>): boolean {
  for (let dot = field.indexOf('.'); dot !== -1; dot = field.indexOf('.', dot + 1)) {
    if (elements.has(field.slice(0, dot))) return true;
  }
  return false;
}

/** The key an invariant finding names (`fails invariant per-1:`), with its place. */
function invariantPlace(finding: FhirFinding): string | undefined {
  if (finding.code !== 'CONSTRAINT_FAILED') return undefined;
  const key = /invariant (\S+?):/.exec(finding.message)?.[1];
  return key ? `${finding.field} ${key}` : undefined;
}

/** Invariant findings the structural validation has not already reported at the same place. */
function notYetReported(invariants: FhirFinding[], structural: readonly FhirFinding[]): FhirFinding[] {
  const reported = new Set<string>();
  for (const finding of structural) {
    const place = invariantPlace(finding);
    if (place) reported.add(place);
  }
  if (reported.size === 0) return invariants;
  return invariants.filter((finding) => {
    const place = invariantPlace(finding);
    return !place || !reported.has(place);
  });
}

/** Builds the validator. */
export function createFhirValidator(parts: FhirValidatorParts) {
  /** The rules of the resource if it is a Bundle and of every Bundle inside it, each given the references beneath it. */
  function bundleFindings(resource: Record<string, unknown>, walked: ElementWalkResult): FhirFinding[] {
    const bundles = resource.resourceType === 'Bundle' ? [{ path: 'Bundle', bundle: resource }, ...walked.bundles] : walked.bundles;
    if (bundles.length === 0) return [];
    // Innermost first: a reference belongs to the deepest Bundle whose entries hold it.
    const byDepth = [...bundles].sort((a, b) => b.path.length - a.path.length);
    const references = new Map(bundles.map((b) => [b.path, [] as ElementWalkResult['references']]));
    for (const ref of walked.references) {
      const owner = byDepth.find((b) => ref.field.startsWith(`${b.path}.entry[`));
      if (owner) references.get(owner.path)?.push(ref);
    }
    const findings: FhirFinding[] = [];
    for (const { path, bundle } of bundles) append(findings, checkBundleRules(bundle, path, references.get(path) ?? [], parts.definitions));
    return findings;
  }

  // The loaded profiles by canonical URL, rebuilt only when the list itself changes.
  let indexedProfiles: readonly FhirProfile[] | undefined;
  let indexedCount = 0;
  let byUrl = new Map<string, FhirProfile>();

  function profileFindings(resource: Record<string, unknown>, explicit: FhirProfile | undefined): { findings: FhirFinding[]; applied: string[] } {
    const loaded = parts.profiles();
    if (loaded !== indexedProfiles || loaded.length !== indexedCount) {
      byUrl = new Map(loaded.map((p) => [p.url, p]));
      indexedProfiles = loaded;
      indexedCount = loaded.length;
    }
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
        append(findings, parts.profileRules.apply(profile, target.resource, target.path));
      }
    }
    if (explicit) {
      applied.add(explicit.name);
      // A Bundle checked against a profile of another type: the profile applies to the entries it fits.
      const fitting = targets.filter((t) => t.resource.resourceType === explicit.resourceType);
      for (const target of fitting.length > 0 ? fitting : targets.slice(0, 1)) {
        append(findings, parts.profileRules.apply(explicit, target.resource, target.path));
      }
    }
    return { findings, applied: [...applied] };
  }

  return {
    /** Validates content; never throws for bad content. */
    validate(content: string, options: FhirValidateOptions): ValidationResult {
      const parsed = parts.parser.parse(content);
      const list = new IssueList(options.maxIssues);
      if (!parsed.ok) {
        list.add(toIssue(parsed.finding, options.mode));
        return {
          isValid: false,
          errors: list.errors,
          warnings: list.warnings,
          totals: list.totals(),
          truncated: false,
          summary: { format: parsed.format, version: FHIR_R4_VERSION },
        };
      }
      const resource = parsed.resource;
      // First: it sets aside keys no element can have, which the structural validation would take long to judge.
      const scanned = scanFhirContent(resource, content);
      const walked = parts.walker.walk(resource);
      const structure = parts.structure.check(resource);
      // The structural validator gives up on an unknown nested resource type, which the walk already names.
      const nestedTypeUnknown = walked.findings.some((f) => f.code === 'NOT_FHIR_RESOURCE');
      let findings = structure.gaveUp && nestedTypeUnknown ? [] : structure.findings;
      if (walked.malformed.length > 0) {
        // A string where an object belongs is read by the structural validator as an object of characters.
        const malformed = new Set(walked.malformed);
        findings = findings.filter((f) => !beneathAny(f.field, malformed));
      }
      // Plain loops, not push(...list): a large Bundle's findings must not overflow the call stack.
      append(findings, parsed.findings);
      append(findings, scanned.findings);
      append(findings, walked.findings);
      // Invariants over values the walk or the structural validation found malformed would only repeat them.
      if (walked.malformed.length === 0 && !structure.gaveUp) append(findings, notYetReported(walked.invariantFindings, structure.findings));
      append(findings, checkContainedTargets(walked.references));
      append(findings, bundleFindings(resource, walked));
      append(findings, checkSearchParameterRules(resource));
      append(findings, parts.resourceRules.check(resource));
      const profiles = profileFindings(resource, options.profile);
      append(findings, profiles.findings);
      findings = oncePerExtensionUrl(withoutDuplicates(findings));

      for (const finding of findings) list.add(toIssue(finding, options.mode));
      return {
        isValid: list.errorCount === 0,
        errors: list.errors,
        warnings: list.warnings,
        totals: list.totals(),
        truncated: list.truncated,
        summary: {
          format: parsed.format,
          version: FHIR_R4_VERSION,
          resourceType: typeof resource.resourceType === 'string' ? excerpt(resource.resourceType) : resource.resourceType,
          mode: options.mode,
          profiles: profiles.applied,
        },
      };
    },
  };
}
