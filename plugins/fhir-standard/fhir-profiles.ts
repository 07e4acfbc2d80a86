/**
 * FHIR profiles from profile packs (`profiles/<pack>/`, manifest.standard === "fhir"). A data file is either
 *   - a FHIR StructureDefinition (JSON): its differential (or snapshot) becomes rules: min >= 1 -> required,
 *     mustSupport -> recommended, fixed[x] -> fixed value, pattern[x] -> pattern (also on a slice, as "some value
 *     matches"), binding -> value set; or
 *   - our simple format (JSON or YAML, `format: workbench-fhir-profile`): the same rules written directly.
 * A broken file is reported naming the file and the problem; the other files and packs still load.
 */
import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { ProfilePack } from '../../kernel/standards/profile-packs.ts';
import { describeSchemaProblems, readProfileData } from '../../kernel/standards/profile-file.ts';
import { stripCanonicalVersion } from './fhir-definitions.ts';

/** Marker of the simple profile format. */
export const SIMPLE_PROFILE_FORMAT = 'workbench-fhir-profile';

const codeSchema = z.object({ system: z.string().optional(), code: z.string().min(1), display: z.string().optional() });

/** Schema of the simple profile format. */
export const simpleProfileSchema = z
  .object({
    format: z.literal(SIMPLE_PROFILE_FORMAT),
    url: z.string().min(1),
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash or underscore'),
    version: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    resourceType: z.string().regex(/^[A-Z][A-Za-z]+$/, 'a FHIR resource type'),
    required: z.array(z.string()).default([]),
    mustSupport: z.array(z.string()).default([]),
    fixed: z.array(z.object({ path: z.string(), value: z.unknown() })).default([]),
    patterns: z.array(z.object({ path: z.string(), value: z.unknown() })).default([]),
    valueSets: z
      .array(
        z
          .object({
            path: z.string(),
            strength: z.enum(['required', 'extensible']).default('required'),
            valueSet: z.string().optional(),
            codes: z.array(codeSchema).optional(),
          })
          .refine((v) => v.valueSet !== undefined || (v.codes?.length ?? 0) > 0, 'needs valueSet or codes'),
      )
      .default([]),
  })
  .strict();

/** A value-set rule of a profile: a canonical URL expanded by the terminology, or codes listed inline. */
export interface ProfileValueSetRule {
  path: string;
  strength: 'required' | 'extensible';
  valueSet?: string;
  codes?: Array<{ system?: string; code: string; display?: string }>;
}

/** A loaded profile, whatever file format it came from. */
export interface FhirProfile {
  name: string;
  url: string;
  version?: string;
  title?: string;
  description?: string;
  resourceType: string;
  pack: string;
  file: string;
  /** Element paths that must be present (`Patient.identifier`, `Patient.identifier.system`: per identifier). */
  required: string[];
  /** Element paths that should be present (RECOMMENDED_FIELD_EMPTY when absent). */
  mustSupport: string[];
  fixed: Array<{ path: string; value: unknown }>;
  /** At least one value at the path must contain the pattern. */
  patterns: Array<{ path: string; value: unknown }>;
  valueSets: ProfileValueSetRule[];
}

/** A profile file that could not be used. */
export interface FhirProfileProblem {
  file: string;
  problem: string;
}

interface ElementDefinitionLike {
  id?: string;
  path?: string;
  sliceName?: string;
  min?: number;
  mustSupport?: boolean;
  binding?: { strength?: string; valueSet?: string };
  [key: string]: unknown;
}

function prefixedValue(element: ElementDefinitionLike, prefix: 'fixed' | 'pattern'): unknown {
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith(prefix) && /^[A-Z]/.test(key.slice(prefix.length))) return value;
  }
  return undefined;
}

/** Turns a StructureDefinition's differential (or snapshot) into profile rules. */
export function profileFromStructureDefinition(sd: Record<string, unknown>, pack: string, file: string): FhirProfile {
  const url = sd.url;
  const type = sd.type;
  if (typeof url !== 'string' || typeof type !== 'string') throw new Error('a StructureDefinition needs url and type');
  const elements = ((sd.differential as { element?: ElementDefinitionLike[] })?.element ??
    (sd.snapshot as { element?: ElementDefinitionLike[] })?.element ??
    []) as ElementDefinitionLike[];
  if (elements.length === 0) throw new Error('the StructureDefinition has neither differential nor snapshot elements');
  const profile: FhirProfile = {
    name: typeof sd.name === 'string' ? sd.name : basename(file, extname(file)),
    url: stripCanonicalVersion(url),
    version: typeof sd.version === 'string' ? sd.version : undefined,
    title: typeof sd.title === 'string' ? sd.title : undefined,
    description: typeof sd.description === 'string' ? sd.description : undefined,
    resourceType: type,
    pack,
    file,
    required: [],
    mustSupport: [],
    fixed: [],
    patterns: [],
    valueSets: [],
  };
  for (const element of elements) {
    const path = element.path;
    if (!path || path === type) continue;
    const id = element.id ?? path;
    const inSlice = id.split('.').some((part) => part.includes(':'));
    if (inSlice) {
      // A slice is kept only where it states its discriminating pattern: "some value must match" when min >= 1.
      const pattern = prefixedValue(element, 'pattern') ?? prefixedValue(element, 'fixed');
      const isSliceRoot = id.endsWith(`:${element.sliceName ?? ''}`) && element.sliceName;
      if (isSliceRoot && pattern !== undefined && (element.min ?? 0) >= 1) profile.patterns.push({ path, value: pattern });
      continue;
    }
    if ((element.min ?? 0) >= 1) profile.required.push(path);
    else if (element.mustSupport) profile.mustSupport.push(path);
    const fixed = prefixedValue(element, 'fixed');
    if (fixed !== undefined) profile.fixed.push({ path, value: fixed });
    const pattern = prefixedValue(element, 'pattern');
    if (pattern !== undefined) profile.patterns.push({ path, value: pattern });
    const strength = element.binding?.strength;
    if (element.binding?.valueSet && (strength === 'required' || strength === 'extensible')) {
      profile.valueSets.push({ path, strength, valueSet: stripCanonicalVersion(element.binding.valueSet) });
    }
  }
  return profile;
}

/** Reads one profile file. Throws with a reason when the file cannot be used. */
export function readProfileFile(file: string, pack: string): FhirProfile {
  const data = readProfileData(file);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('the file must hold one JSON/YAML object');
  const record = data as Record<string, unknown>;
  if (record.resourceType === 'StructureDefinition') return profileFromStructureDefinition(record, pack, file);
  if (record.format !== SIMPLE_PROFILE_FORMAT) {
    throw new Error(`the file is neither a StructureDefinition nor a profile with format "${SIMPLE_PROFILE_FORMAT}"`);
  }
  const parsed = simpleProfileSchema.safeParse(record);
  if (!parsed.success) {
    throw new Error(describeSchemaProblems(parsed.error));
  }
  const { format: _format, ...rules } = parsed.data;
  return { ...rules, url: stripCanonicalVersion(rules.url), pack, file };
}

/** Loads every profile of the FHIR packs; broken files are returned as problems, never thrown. */
export function loadFhirProfiles(packs: readonly ProfilePack[]): { profiles: FhirProfile[]; problems: FhirProfileProblem[] } {
  const profiles: FhirProfile[] = [];
  const problems: FhirProfileProblem[] = [];
  const byName = new Map<string, string>();
  for (const pack of packs) {
    if (pack.manifest.standard !== 'fhir') continue;
    for (const file of pack.files) {
      try {
        const profile = readProfileFile(file, pack.manifest.id);
        const clash = byName.get(profile.name) ?? byName.get(profile.url);
        if (clash) throw new Error(`profile ${profile.name} (${profile.url}) is already defined by ${clash}`);
        byName.set(profile.name, file);
        byName.set(profile.url, file);
        profiles.push(profile);
      } catch (error) {
        problems.push({ file, problem: (error as Error).message });
      }
    }
  }
  return { profiles, problems };
}
