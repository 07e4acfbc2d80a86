/**
 * The NCPDP standard adapter: a thin assembly of detect, parse, validate, diff, generate, describe and profiles.
 * It throws only for bad requests (unknown message type, unsupported version, unknown profile, an unparseable
 * side of a diff), through the plugin's error catalogue; bad message content is a finding.
 */
import type { StandardAdapter, ValidateOptions } from '../../kernel/standards-registry.ts';
import type { SyntheticDataService } from '../synthetic-data/api.ts';
import { ncpdpErrors } from './errors.ts';
import { describeNcpdpPath, ncpdpPathProblem } from './ncpdp-definitions.ts';
import { detectNcpdp } from './ncpdp-detect.ts';
import { looksLikeNcpdpBatch, splitNcpdpBatch } from './telecom/ncpdp-batch.ts';
import { flattenNcpdpBatch } from './telecom/ncpdp-batch-diff.ts';
import { diffFlattened, diffNcpdp } from './ncpdp-diff.ts';
import { flattenMessage } from './ncpdp-paths.ts';
import { generateNcpdp, NCPDP_MESSAGE_TYPES } from './generation/ncpdp-generator.ts';
import { parseNcpdp } from './ncpdp-parser.ts';
import { summarizeProfile, type NcpdpProfile } from './ncpdp-profiles.ts';
import { validateNcpdp } from './ncpdp-validator.ts';
import { SCRIPT_VERSIONS, type ScriptVersion } from './script/script-definitions.ts';
import { TELECOM_VERSION } from './telecom/telecom-d0-definitions.ts';

/** Versions the adapter validates and generates. */
export const NCPDP_VERSIONS = [...SCRIPT_VERSIONS, TELECOM_VERSION] as const;
/** Version used when a request names none (B1 defaults to D0). */
export const NCPDP_DEFAULT_VERSION = '2017071';

/** What the adapter needs. */
export interface NcpdpAdapterDependencies {
  synthetic: SyntheticDataService;
  profiles?: readonly NcpdpProfile[];
}

const isScriptVersion = (v: string): v is ScriptVersion => (SCRIPT_VERSIONS as readonly string[]).includes(v);

function unsupportedVersion(version: string, reason = ''): Error {
  return ncpdpErrors.create('UNSUPPORTED_VERSION', { version, reason, supported: NCPDP_VERSIONS.join(', ') });
}

/** A diff side flattened: a batch file by record, anything else as one message. */
function flattenSide(content: string, side: 'left' | 'right'): Map<string, string> {
  if (looksLikeNcpdpBatch(content)) return flattenNcpdpBatch(splitNcpdpBatch(content));
  const parsed = parseNcpdp(content);
  if (!parsed.ok) throw ncpdpErrors.create('MESSAGE_UNPARSEABLE', { side, reason: parsed.issue.message });
  return flattenMessage(parsed.message);
}

/** Creates the NCPDP adapter. */
export function createNcpdpAdapter(dependencies: NcpdpAdapterDependencies): StandardAdapter {
  const profiles = dependencies.profiles ?? [];
  const findProfile = (name: string | undefined): NcpdpProfile | undefined => {
    if (name === undefined || name === '') return undefined;
    const profile = profiles.find((p) => p.name === name);
    if (!profile) {
      throw ncpdpErrors.create('PROFILE_NOT_FOUND', { profile: name, available: profiles.map((p) => p.name).join(', ') || '(none)' });
    }
    return profile;
  };
  return {
    id: 'ncpdp',
    displayName: 'NCPDP SCRIPT and Telecommunication',
    versions: NCPDP_VERSIONS,
    defaultVersion: NCPDP_DEFAULT_VERSION,
    // The Telecommunication standard is written "D.0"; the transaction header carries "D0".
    versionAliases: { 'D.0': 'D0', 'd.0': 'D0', d0: 'D0' },
    messageTypes: NCPDP_MESSAGE_TYPES,
    detect: detectNcpdp,
    parse(content) {
      if (looksLikeNcpdpBatch(content)) return splitNcpdpBatch(content);
      const outcome = parseNcpdp(content);
      return outcome.ok ? outcome.message : { error: outcome.issue };
    },
    validate(content: string, options: ValidateOptions) {
      const version = options.version;
      if (version !== undefined && !(NCPDP_VERSIONS as readonly string[]).includes(version)) throw unsupportedVersion(version);
      const profile = findProfile(options.profile);
      return validateNcpdp(content, {
        mode: options.mode,
        maxIssues: options.maxIssues,
        ...(version !== undefined && isScriptVersion(version) ? { scriptVersion: version } : {}),
        ...(profile ? { profile } : {}),
      });
    },
    diff(left, right, options) {
      if (looksLikeNcpdpBatch(left) || looksLikeNcpdpBatch(right)) {
        return diffFlattened(flattenSide(left, 'left'), flattenSide(right, 'right'), options);
      }
      const parsedLeft = parseNcpdp(left);
      if (!parsedLeft.ok) throw ncpdpErrors.create('MESSAGE_UNPARSEABLE', { side: 'left', reason: parsedLeft.issue.message });
      const parsedRight = parseNcpdp(right);
      if (!parsedRight.ok) throw ncpdpErrors.create('MESSAGE_UNPARSEABLE', { side: 'right', reason: parsedRight.issue.message });
      return diffNcpdp(parsedLeft.message, parsedRight.message, options);
    },
    generate(options) {
      const messageType = options.messageType || NCPDP_MESSAGE_TYPES[0];
      if (!(NCPDP_MESSAGE_TYPES as readonly string[]).includes(messageType)) {
        throw ncpdpErrors.create('UNKNOWN_MESSAGE_TYPE', { messageType, supported: NCPDP_MESSAGE_TYPES.join(', ') });
      }
      const telecom = messageType === 'B1' || messageType === 'Batch';
      const version = options.version ?? (telecom ? TELECOM_VERSION : NCPDP_DEFAULT_VERSION);
      if (!(NCPDP_VERSIONS as readonly string[]).includes(version)) throw unsupportedVersion(version);
      if (telecom && version !== TELECOM_VERSION) throw unsupportedVersion(version, ` for ${messageType} (Telecommunication transactions: use ${TELECOM_VERSION})`);
      if (!telecom && !isScriptVersion(version)) throw unsupportedVersion(version, ` for ${messageType} (a SCRIPT transaction: use ${SCRIPT_VERSIONS.join(', ')})`);
      return generateNcpdp(dependencies.synthetic, {
        messageType: messageType as (typeof NCPDP_MESSAGE_TYPES)[number],
        version: version as ScriptVersion | 'D0',
        count: Math.max(0, Math.floor(options.count)),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
      });
    },
    describe(path, options) {
      return describeNcpdpPath(path, options?.version, options);
    },
    pathProblem: ncpdpPathProblem,
    profiles() {
      return profiles.map(summarizeProfile);
    },
  };
}
