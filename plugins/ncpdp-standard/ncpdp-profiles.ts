/**
 * NCPDP profile packs: data files (JSON or YAML) in a pack whose `profile-pack.json` names the standard `ncpdp`.
 * A profile narrows the standard for one trading partner or implementation guide: elements it requires,
 * value sets it allows and tighter lengths, by path (ncpdp-paths.ts). A broken file is reported with its name and
 * problem; the other files and packs still load.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import type { ProfilePack } from '../../kernel/standards/profile-packs.ts';
import { ProfileFileError, readProfileFile } from '../../kernel/standards/profile-file.ts';
import type { ProfileSummary } from '../../kernel/standards-registry.ts';
import type { NcpdpMessage } from './ncpdp-model.ts';
import type { IssueCollector } from './ncpdp-issues.ts';
import { flattenMessage, stripOccurrences } from './ncpdp-paths.ts';
import { excerpt } from '../../kernel/lib/text/text-excerpt.ts';
import { actualValue, expectedCodes, MISSING_VALUE } from '../../kernel/standards/issue-detail.ts';

/** Schema of one profile file. */
export const ncpdpProfileSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'letters, digits, dot, dash or underscore'),
  description: z.string().optional(),
  /** Standard version the profile was written for (`2017071`, `D0`...). */
  version: z.string().optional(),
  /** Transactions it applies to (`NewRx`, `B1`...); all when omitted. */
  messageTypes: z.array(z.string()).optional(),
  /** Paths that must be present with a value. */
  required: z.array(z.string()).default([]),
  /** Allowed values per path. */
  valueSets: z.record(z.string(), z.array(z.string())).default({}),
  /** Maximum lengths per path, tighter than the standard's. */
  maxLengths: z.record(z.string(), z.number().int().positive()).default({}),
});

/** A loaded profile. */
export type NcpdpProfile = z.infer<typeof ncpdpProfileSchema> & { pack: string; file: string };

/** A profile file that could not be used. */
export interface NcpdpProfileProblem {
  file: string;
  problem: string;
}

/** Loads the profiles of every pack whose manifest names the `ncpdp` standard. */
export function loadNcpdpProfiles(packs: readonly ProfilePack[]): { profiles: NcpdpProfile[]; problems: NcpdpProfileProblem[] } {
  const profiles: NcpdpProfile[] = [];
  const problems: NcpdpProfileProblem[] = [];
  for (const pack of packs) {
    if (pack.manifest.standard !== 'ncpdp') continue;
    for (const file of pack.files) {
      let profile: z.output<typeof ncpdpProfileSchema>;
      try {
        profile = readProfileFile(file, ncpdpProfileSchema, 'NCPDP profile');
      } catch (error) {
        if (!(error instanceof ProfileFileError)) throw error;
        problems.push({ file, problem: error.message });
        continue;
      }
      if (profiles.some((p) => p.name === profile.name)) {
        problems.push({ file, problem: `profile name "${profile.name}" is already used` });
        continue;
      }
      profiles.push({ ...profile, pack: pack.manifest.id, file: basename(file) });
    }
  }
  return { profiles, problems };
}

/** The summary the adapter lists for a profile. */
export function summarizeProfile(profile: NcpdpProfile): ProfileSummary {
  return {
    name: profile.name,
    pack: profile.pack,
    standard: 'ncpdp',
    ...(profile.description ? { description: profile.description } : {}),
    ...(profile.version ? { version: profile.version } : {}),
    ...(profile.messageTypes ? { messageTypes: profile.messageTypes } : {}),
  };
}

/** Applies a profile's rules on top of the standard's; profile findings are errors in every mode. */
export function applyNcpdpProfile(profile: NcpdpProfile, message: NcpdpMessage, messageType: string | undefined, issues: IssueCollector): void {
  if (profile.messageTypes && (messageType === undefined || !profile.messageTypes.includes(messageType))) {
    issues.warning(
      messageType ?? 'Message',
      'PROFILE_NOT_APPLICABLE',
      `Profile ${profile.name} applies to ${profile.messageTypes.join(', ')}, not to ${messageType ?? 'this message'}; its rules were not applied.`,
      { expected: expectedCodes(profile.messageTypes), actual: messageType ?? 'no message type' },
    );
    return;
  }
  const values = new Map<string, Array<{ path: string; value: string }>>();
  const present = new Set<string>();
  for (const [path, value] of flattenMessage(message)) {
    const key = stripOccurrences(path);
    const list = values.get(key) ?? [];
    list.push({ path, value });
    values.set(key, list);
    if (value !== '') {
      // Every ancestor of a valued path is present too.
      const steps = key.split('.');
      for (let i = steps.length; i > 0; i--) present.add(steps.slice(0, i).join('.'));
    }
  }
  for (const path of profile.required) {
    if (!present.has(path)) issues.error(path, 'REQUIRED_FIELD_MISSING', `${path} is required by profile ${profile.name} but is missing or empty.`, MISSING_VALUE);
  }
  for (const [path, allowed] of Object.entries(profile.valueSets)) {
    for (const entry of values.get(path) ?? []) {
      if (entry.value !== '' && !allowed.includes(entry.value)) {
        issues.error(entry.path, 'VALUE_NOT_IN_VALUE_SET', `${entry.path} "${excerpt(entry.value)}" is not allowed by profile ${profile.name} (allowed: ${allowed.join(', ')}).`, {
          expected: expectedCodes(allowed),
          actual: actualValue(entry.value),
        });
      }
    }
  }
  for (const [path, max] of Object.entries(profile.maxLengths)) {
    for (const entry of values.get(path) ?? []) {
      if (entry.value.length > max) {
        issues.error(entry.path, 'FIELD_TOO_LONG', `${entry.path} is ${entry.value.length} characters long; profile ${profile.name} allows ${max}.`, {
          expected: `at most ${max} characters`,
          actual: `${entry.value.length} characters`,
        });
      }
    }
  }
}
