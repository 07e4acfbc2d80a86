/**
 * The FHIR R4 StandardAdapter: a thin assembly of the parts (detect, parse, validate, profiles, diff, generate,
 * describe). Definitions and terminology load lazily on the first call that needs them.
 */
import { DifferenceList } from '../../kernel/standards/issue-list.ts';
import type { ProfilePack } from '../../kernel/standards/profile-packs.ts';
import type {
  DescribeOptions,
  DiffOptions,
  DiffResult,
  FieldDescription,
  GenerateOptions,
  ProfileSummary,
  StandardAdapter,
  ValidateOptions,
  ValidationResult,
} from '../../kernel/standards-registry.ts';
import type { SyntheticDataService } from '../synthetic-data/api.ts';
import { fhirErrors } from './errors.ts';
import { createBindingChecker } from './fhir-bindings.ts';
import { FHIR_R4_VERSION, type FhirDefinitions, createFhirDefinitions, stripCanonicalVersion } from './fhir-definitions.ts';
import { detectFhir } from './fhir-detect.ts';
import { createIgnoreMatcher, diffResources, unmatchedIgnoredFields } from './fhir-diff.ts';
import { createElementWalker } from './fhir-element-walk.ts';
import { createInvariantChecker } from './fhir-invariants.ts';
import { createTypeRules } from './fhir-type-rules.ts';
import { extensionPlaces } from './rules/extension-places.ts';
import { FHIR_MESSAGE_TYPES, type FhirMessageType, createFhirGenerator } from './fhir-generator.ts';
import { createFhirParser } from './fhir-parser.ts';
import { createFhirDescriber } from './fhir-describe.ts';
import { createProfileRules } from './fhir-profile-rules.ts';
import { type FhirProfile, type FhirProfileProblem, loadFhirProfiles } from './fhir-profiles.ts';
import { createStructureCheck } from './fhir-structure-check.ts';
import { createFhirTerminology, type FhirTerminology } from './fhir-terminology.ts';
import { createFhirValidator } from './fhir-validator.ts';
import { createResourceRules } from './rules/resource-rules.ts';

/** Version spellings accepted for R4. */
const VERSION_ALIASES = new Set([FHIR_R4_VERSION, 'R4', 'r4', '4.0']);

/** What the adapter is built from. */
export interface FhirAdapterOptions {
  /** The synthetic-data service (generation only; without it `generate` is unavailable). */
  synthetic?: SyntheticDataService;
  /** Profile packs (all standards; the adapter keeps those whose manifest.standard is "fhir"). */
  profilePacks?: readonly ProfilePack[];
  /** Shared definitions (tests and the bench pass one to measure or reuse the load). */
  definitions?: FhirDefinitions;
  terminology?: FhirTerminology;
}

/** The FHIR adapter with its FHIR-specific extras. */
export interface FhirAdapter extends StandardAdapter {
  /** Profile files that could not be loaded, naming the file and the problem. */
  profileProblems(): FhirProfileProblem[];
  /** The lazily loaded definitions (load figures for the README and the bench). */
  readonly definitions: FhirDefinitions;
}

/** Builds the FHIR adapter. */
export function createFhirAdapter(options: FhirAdapterOptions = {}): FhirAdapter {
  const definitions = options.definitions ?? createFhirDefinitions();
  const terminology = options.terminology ?? createFhirTerminology();
  const { profiles, problems } = loadFhirProfiles(options.profilePacks ?? []);
  const parser = createFhirParser(definitions);
  const validator = createFhirValidator({
    parser,
    structure: createStructureCheck(definitions),
    // The core invariants the structural validation does not evaluate, in the same pass as the element checks.
    walker: createElementWalker(definitions, createBindingChecker(terminology), createInvariantChecker(createTypeRules(terminology, extensionPlaces(definitions)))),
    definitions,
    profileRules: createProfileRules(terminology),
    resourceRules: createResourceRules(definitions),
    profiles: () => profiles,
  });
  const describer = createFhirDescriber(definitions, terminology);
  const generator = options.synthetic ? createFhirGenerator(options.synthetic) : undefined;

  function checkVersion(version: string | undefined): void {
    if (version !== undefined && !VERSION_ALIASES.has(version)) {
      throw fhirErrors.create('UNSUPPORTED_VERSION', { version, supported: `${FHIR_R4_VERSION} (R4)` });
    }
  }

  function findProfile(name: string): FhirProfile {
    const wanted = stripCanonicalVersion(name);
    const profile = profiles.find((p) => p.name === wanted || p.url === wanted);
    if (!profile) {
      throw fhirErrors.create('PROFILE_NOT_FOUND', { profile: name, available: profiles.map((p) => p.name).join(', ') || 'none' });
    }
    return profile;
  }

  function parseSide(content: string, side: 'left' | 'right'): Record<string, unknown> {
    const parsed = parser.parse(content);
    if (!parsed.ok) throw fhirErrors.create('MESSAGE_UNPARSEABLE', { side, reason: parsed.finding.message });
    return parsed.resource;
  }

  return {
    id: 'fhir',
    displayName: 'HL7 FHIR R4',
    versions: [FHIR_R4_VERSION],
    defaultVersion: FHIR_R4_VERSION,
    messageTypes: FHIR_MESSAGE_TYPES,
    definitions,

    detect: detectFhir,

    parse(content: string): unknown {
      return parser.parse(content);
    },

    validate(content: string, validateOptions: ValidateOptions): ValidationResult {
      checkVersion(validateOptions.version);
      const profile = validateOptions.profile ? findProfile(validateOptions.profile) : undefined;
      return validator.validate(content, { mode: validateOptions.mode, profile, maxIssues: validateOptions.maxIssues });
    },

    diff(left: string, right: string, diffOptions: DiffOptions): DiffResult {
      const ignoredFields = diffOptions.ignoredFields ?? [];
      // The patterns are checked (and refused when over the limits) before either side is parsed.
      const ignore = createIgnoreMatcher(ignoredFields);
      const differences = new DifferenceList(diffOptions.maxDifferences);
      const [leftResource, rightResource] = [parseSide(left, 'left'), parseSide(right, 'right')];
      diffResources(leftResource, rightResource, ignore, differences);
      return {
        differences: differences.differences,
        totalDifferences: differences.count,
        totals: differences.totals(),
        truncated: differences.truncated,
        ignoredFields,
        unmatchedIgnoredFields: unmatchedIgnoredFields(ignoredFields, leftResource, rightResource),
      };
    },

    generate(generateOptions: GenerateOptions): string[] {
      checkVersion(generateOptions.version);
      const messageType = FHIR_MESSAGE_TYPES.find((t) => t.toLowerCase() === generateOptions.messageType.toLowerCase());
      if (!messageType) {
        throw fhirErrors.create('UNKNOWN_MESSAGE_TYPE', {
          messageType: generateOptions.messageType,
          supported: FHIR_MESSAGE_TYPES.join(', '),
        });
      }
      if (!generator) throw new Error('FHIR generation needs the synthetic-data service, which was not provided.');
      return generator.generate(messageType as FhirMessageType, Math.max(0, Math.floor(generateOptions.count)), generateOptions.seed);
    },

    describe(path: string, describeOptions?: DescribeOptions): FieldDescription | undefined {
      if (describeOptions?.version !== undefined && !VERSION_ALIASES.has(describeOptions.version)) return undefined;
      return describer.describe(path, describeOptions);
    },

    pathProblem: describer.pathProblem,

    profiles(): ProfileSummary[] {
      return profiles.map((p) => ({
        name: p.name,
        pack: p.pack,
        standard: 'fhir',
        description: p.title ?? p.description,
        version: p.version,
        messageTypes: [p.resourceType],
      }));
    },

    profileProblems: () => problems,
  };
}
