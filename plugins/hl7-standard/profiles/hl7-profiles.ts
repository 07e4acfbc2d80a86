/**
 * HL7 v2 profiles: data (JSON or YAML) that refines a version for some message types, shipped in profile packs
 * (`profiles/<pack>/`, manifest `standard: "hl7"`). A profile states segment usage and cardinality, field and
 * component usage (R, RE, O, X), fixed values, value sets, lengths, repetitions, and defines Z-segments. A profile
 * may `extend` another one by name: the parent's rules apply, the child's override them rule by rule.
 *
 * Loading never fails as a whole: a broken file is reported with its path and the problem, the rest still loads.
 */
import { z } from 'zod';
import type { ProfilePack } from '../../../kernel/standards/profile-packs.ts';
import { ProfileFileError, readProfileFile } from '../../../kernel/standards/profile-file.ts';
import type { ProfileSummary } from '../../../kernel/standards-registry.ts';
import type { Hl7FieldDefinition, Hl7SegmentDefinition } from '../hl7-definitions.ts';

/** Usage codes of conformance profiles: Required, Required-but-may-be-Empty, Optional, not supported (X). */
export const HL7_USAGES = ['R', 'RE', 'O', 'X'] as const;

const usageSchema = z.enum(HL7_USAGES);
const maxSchema = z.union([z.number().int().min(0), z.literal('*')]);

const fieldRuleSchema = z
  .object({
    usage: usageSchema.optional(),
    fixed: z.string().optional(),
    valueSet: z.array(z.string()).min(1).optional(),
    maxLength: z.number().int().positive().optional(),
    maxRepetitions: maxSchema.optional(),
    description: z.string().optional(),
  })
  .strict();

const segmentRuleSchema = z
  .object({
    usage: usageSchema.optional(),
    min: z.number().int().min(0).optional(),
    max: maxSchema.optional(),
  })
  .strict();

const zFieldSchema = z
  .object({
    name: z.string().min(1),
    dataType: z.string().min(2).default('ST'),
    usage: usageSchema.default('O'),
    maxLength: z.number().int().positive().optional(),
    maxRepetitions: maxSchema.default(1),
  })
  .strict();

const zSegmentSchema = z
  .object({
    description: z.string().default(''),
    fields: z.array(zFieldSchema).default([]),
  })
  .strict();

/** Schema of one profile document. */
export const hl7ProfileSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be lower-case letters, digits, ".", "_" or "-"'),
    description: z.string().optional(),
    /** HL7 version the profile refines (`2.5.1`). */
    version: z.string().optional(),
    extends: z.string().optional(),
    /** Message types it applies to (`ORU^R01`); empty means any. */
    messageTypes: z.array(z.string().regex(/^[A-Z0-9]{3}(\^[A-Z0-9]{3})?$/, 'must look like ORU^R01')).default([]),
    segments: z.record(z.string().regex(/^[A-Z][A-Z0-9]{2}$/, 'must be a segment name'), segmentRuleSchema).default({}),
    /** Keys are paths: `PID.5`, `PID.3.5`. */
    fields: z.record(z.string().regex(/^[A-Z][A-Z0-9]{2}\.\d+(\.\d+)?$/, 'must be a path such as PID.5 or PID.3.5'), fieldRuleSchema).default({}),
    zSegments: z.record(z.string().regex(/^Z[A-Z0-9]{2}$/, 'must be a Z-segment name'), zSegmentSchema).default({}),
  })
  .strict();

/** A profile document as written. */
export type Hl7ProfileDocument = z.infer<typeof hl7ProfileSchema>;
/** Rule of one field or component. */
export type Hl7FieldRule = z.infer<typeof fieldRuleSchema>;
/** Rule of one segment. */
export type Hl7SegmentRule = z.infer<typeof segmentRuleSchema>;

/** A profile ready to apply: its `extends` chain merged, Z-segments turned into segment definitions. */
export interface Hl7Profile {
  name: string;
  pack: string;
  description?: string;
  version?: string;
  messageTypes: string[];
  segments: Map<string, Hl7SegmentRule>;
  fields: Map<string, Hl7FieldRule>;
  zSegments: Map<string, Hl7SegmentDefinition>;
  /** Names of the profiles merged in, parent first. */
  chain: string[];
}

/** A profile file that could not be used; `problem` completes the sentence "the file ...". */
export interface Hl7ProfileProblem {
  file: string;
  problem: string;
}

/** The profiles of all packs, by name. */
export interface Hl7ProfileSet {
  get(name: string): Hl7Profile | undefined;
  list(): ProfileSummary[];
  problems: Hl7ProfileProblem[];
}

function toMax(value: number | '*'): number {
  return value === '*' ? Number.POSITIVE_INFINITY : value;
}

function zSegmentDefinition(name: string, doc: Hl7ProfileDocument['zSegments'][string]): Hl7SegmentDefinition {
  const fields: Hl7FieldDefinition[] = doc.fields.map((field, i) => ({
    position: i + 1,
    name: field.name,
    dataType: field.dataType,
    optionality: field.usage === 'R' ? 'R' : field.usage === 'X' ? 'W' : 'O',
    maxRepetitions: toMax(field.maxRepetitions),
    maxLength: field.maxLength,
  }));
  return { name, description: doc.description, fields };
}

/**
 * Reads every HL7 profile of the given packs (those whose manifest says `standard: "hl7"`). Names must be unique
 * across packs; a duplicate, a file that does not parse or does not match the format, or an `extends` that names
 * no profile (or loops) is reported and skipped.
 */
export function loadHl7Profiles(packs: readonly ProfilePack[]): Hl7ProfileSet {
  const problems: Hl7ProfileProblem[] = [];
  const documents = new Map<string, { doc: Hl7ProfileDocument; pack: string; file: string }>();
  for (const pack of packs) {
    if (pack.manifest.standard !== 'hl7') continue;
    for (const file of pack.files) {
      let doc: Hl7ProfileDocument;
      try {
        doc = readProfileFile(file, hl7ProfileSchema, 'HL7 profile');
      } catch (error) {
        if (!(error instanceof ProfileFileError)) throw error;
        problems.push({ file, problem: error.message });
        continue;
      }
      const other = documents.get(doc.name);
      if (other) {
        problems.push({ file, problem: `uses the profile name "${doc.name}", which ${other.file} already uses` });
        continue;
      }
      documents.set(doc.name, { doc, pack: pack.manifest.id, file });
    }
  }

  const resolved = new Map<string, Hl7Profile>();
  const failed = new Set<string>();
  const resolve = (name: string, seen: string[]): Hl7Profile | undefined => {
    const done = resolved.get(name);
    if (done) return done;
    const entry = documents.get(name);
    if (!entry || failed.has(name)) return undefined;
    const { doc, pack, file } = entry;
    let parent: Hl7Profile | undefined;
    if (doc.extends) {
      if (seen.includes(doc.extends)) {
        problems.push({ file, problem: `extends "${doc.extends}", which leads back to itself (${[...seen, doc.extends].join(' -> ')})` });
        failed.add(name);
        return undefined;
      }
      parent = resolve(doc.extends, [...seen, doc.extends]);
      if (!parent) {
        if (!failed.has(name)) problems.push({ file, problem: `extends "${doc.extends}", which is not a loaded HL7 profile` });
        failed.add(name);
        return undefined;
      }
    }
    const profile: Hl7Profile = {
      name,
      pack,
      description: doc.description ?? parent?.description,
      version: doc.version ?? parent?.version,
      messageTypes: doc.messageTypes.length > 0 ? doc.messageTypes : (parent?.messageTypes ?? []),
      segments: new Map([...(parent?.segments ?? []), ...Object.entries(doc.segments)]),
      fields: new Map(parent?.fields ?? []),
      zSegments: new Map([...(parent?.zSegments ?? []), ...Object.entries(doc.zSegments).map(([n, z]) => [n, zSegmentDefinition(n, z)] as const)]),
      chain: [...(parent?.chain ?? []), name],
    };
    for (const [path, rule] of Object.entries(doc.fields)) profile.fields.set(path, { ...(profile.fields.get(path) ?? {}), ...rule });
    resolved.set(name, profile);
    return profile;
  };
  for (const name of documents.keys()) resolve(name, [name]);

  return {
    problems,
    get: (name) => resolved.get(name),
    list: () =>
      [...resolved.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((p) => ({
          name: p.name,
          pack: p.pack,
          standard: 'hl7',
          description: p.description,
          version: p.version,
          messageTypes: p.messageTypes,
        })),
  };
}
