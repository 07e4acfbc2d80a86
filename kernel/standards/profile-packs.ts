/**
 * Profile packs: drop-in folders of data (`profiles/<pack>/`) with a `profile-pack.json` manifest. The kernel only
 * discovers them and checks the manifest; the plugin of the standard the pack names reads its files.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { z } from 'zod';

/** File name of a pack's manifest. */
export const PROFILE_PACK_MANIFEST = 'profile-pack.json';

/** Schema of `profile-pack.json`. */
export const profilePackManifestSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, 'must be kebab-case'),
  version: z.string().min(1),
  description: z.string().min(1),
  /** Id of the standard adapter that reads this pack (`hl7`, `fhir`, `ncpdp`, ...). */
  standard: z.string().min(1),
  /** Where the rules come from (implementation guide, vendor spec). */
  source: z.string().optional(),
});

/** A validated `profile-pack.json`. */
export type ProfilePackManifest = z.infer<typeof profilePackManifestSchema>;

/** A discovered pack: its manifest, folder and the data files in it (JSON or YAML, manifest excluded). */
export interface ProfilePack {
  manifest: ProfilePackManifest;
  directory: string;
  files: string[];
}

/** A pack folder that could not be used, with the reason. */
export interface ProfilePackProblem {
  directory: string;
  problem: string;
}

const DATA_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/**
 * Finds every pack under the given roots. Broken packs are reported, never fatal: the other packs still load.
 */
export function discoverProfilePacks(roots: string[]): { packs: ProfilePack[]; problems: ProfilePackProblem[] } {
  const packs: ProfilePack[] = [];
  const problems: ProfilePackProblem[] = [];
  const seen = new Map<string, string>();
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root).sort()) {
      const directory = join(root, entry);
      if (!statSync(directory).isDirectory()) continue;
      const manifestPath = join(directory, PROFILE_PACK_MANIFEST);
      if (!existsSync(manifestPath)) {
        problems.push({ directory, problem: `no ${PROFILE_PACK_MANIFEST}` });
        continue;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(manifestPath, 'utf8'));
      } catch (error) {
        problems.push({ directory, problem: `${PROFILE_PACK_MANIFEST} is not valid JSON: ${(error as Error).message}` });
        continue;
      }
      const parsed = profilePackManifestSchema.safeParse(raw);
      if (!parsed.success) {
        const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ');
        problems.push({ directory, problem: `${PROFILE_PACK_MANIFEST} is invalid: ${why}` });
        continue;
      }
      const other = seen.get(parsed.data.id);
      if (other) {
        problems.push({ directory, problem: `pack id "${parsed.data.id}" is already used by ${other}` });
        continue;
      }
      seen.set(parsed.data.id, directory);
      const files = readdirSync(directory)
        .filter((name) => name !== PROFILE_PACK_MANIFEST && DATA_EXTENSIONS.has(extname(name).toLowerCase()))
        .sort()
        .map((name) => join(directory, name));
      packs.push({ manifest: parsed.data, directory, files });
    }
  }
  return { packs, problems };
}
