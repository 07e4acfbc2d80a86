/**
 * The HL7 v2 standard adapter: a thin assembly of the parser, validator, profiles, generator, diff and definitions.
 * It throws only for bad requests (unknown version, message type or profile), never for bad message content.
 */
import type { GenerateOptions, StandardAdapter, ValidateOptions } from '../../kernel/standards-registry.ts';
import type { SyntheticDataService } from '../synthetic-data/api.ts';
import { hl7Errors } from './errors.ts';
import { HL7_VERSIONS, type Hl7Version, isSupportedVersion } from './hl7-definitions.ts';
import { detectHl7 } from './parsing/hl7-detect.ts';
import { diffHl7Messages } from './diff/hl7-diff.ts';
import { generateHl7Messages, HL7_GENERATED_MESSAGE_TYPES } from './generation/hl7-generator.ts';
import { parseHl7 } from './parsing/hl7-parser.ts';
import { describeHl7Path, hl7PathProblem } from './hl7-describe.ts';
import type { Hl7Profile, Hl7ProfileSet } from './profiles/hl7-profiles.ts';
import { validateHl7 } from './validation/hl7-validator.ts';

/** What the adapter needs. */
export interface Hl7AdapterDeps {
  synthetic: SyntheticDataService;
  profiles: Hl7ProfileSet;
}

/** Version used when a request names none (SPEC: generate hl7Version defaults to 2.3). */
export const HL7_DEFAULT_VERSION: Hl7Version = '2.3';

function requireVersion(version: string): Hl7Version {
  if (!isSupportedVersion(version)) throw hl7Errors.create('UNSUPPORTED_VERSION', { version, supported: HL7_VERSIONS.join(', ') });
  return version;
}

/** The loaded profile of a name (undefined for none asked); PROFILE_NOT_FOUND, listing the loaded ones, otherwise. */
export function requireHl7Profile(profiles: Hl7ProfileSet, name: string | undefined): Hl7Profile | undefined {
  if (!name) return undefined;
  const profile = profiles.get(name);
  if (!profile) {
    throw hl7Errors.create('PROFILE_NOT_FOUND', { profile: name, loaded: profiles.list().map((p) => p.name).join(', ') || 'none' });
  }
  return profile;
}

/** Creates the HL7 v2 adapter. */
export function createHl7Adapter(deps: Hl7AdapterDeps): StandardAdapter {
  return {
    id: 'hl7',
    displayName: 'HL7 v2',
    versions: HL7_VERSIONS,
    defaultVersion: HL7_DEFAULT_VERSION,
    messageTypes: HL7_GENERATED_MESSAGE_TYPES,
    detect: detectHl7,
    parse: (content) => parseHl7(content),
    validate(content: string, options: ValidateOptions) {
      const version = options.version === undefined ? undefined : requireVersion(options.version);
      const profile = requireHl7Profile(deps.profiles, options.profile);
      return validateHl7(content, { mode: options.mode, version, profile, maxIssues: options.maxIssues });
    },
    diff: (left, right, options) => diffHl7Messages(left, right, options),
    generate(options: GenerateOptions) {
      return generateHl7Messages({ ...options, version: options.version ?? HL7_DEFAULT_VERSION }, { synthetic: deps.synthetic });
    },
    describe(path, options) {
      return describeHl7Path(path, requireVersion(options?.version ?? HL7_DEFAULT_VERSION), options);
    },
    pathProblem: hl7PathProblem,
    profiles: () => deps.profiles.list(),
  };
}
