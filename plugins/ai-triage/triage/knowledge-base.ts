/**
 * The triage knowledge base: data files, one per standard (`knowledge/hl7.yaml`, `fhir.yaml`, `ncpdp.yaml`), that a
 * reviewer can read and a profile pack can extend (`<pack>/triage/*.yaml`). Each entry is keyed by an issue code (or a
 * signal found in the raw message) and optionally narrowed by field, message type and interface-context keywords; the
 * most specific entry that matches a finding explains it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** Categories a triage answer falls in. */
export const TRIAGE_CATEGORIES = [
  'missing-data',
  'wrong-code',
  'structure',
  'encoding-delimiters',
  'version-mismatch',
  'date-time-format',
  'data-type',
  'length',
  'profile',
  'reference',
  'check-digit',
  'parse-failure',
  'none',
] as const;

/** One category. */
export type TriageCategory = (typeof TRIAGE_CATEGORIES)[number];

const fixSchema = z
  .object({
    side: z.enum(['sender', 'receiver']),
    field: z.string().min(1),
    action: z.string().min(1),
    /** Only for a field bound with one of these strengths (FHIR bindings); a fix for any field when absent. */
    binding: z.array(z.enum(['required', 'extensible', 'preferred', 'example'])).min(1).optional(),
  })
  .strict();

const entrySchema = z
  .object({
    id: z.string().min(1),
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/).optional(),
    /** A path (`PID.5`), a segment wildcard (`Z*`, `OBX.*`). */
    field: z.string().min(1).optional(),
    /** `ORU` or `ORU^R01`. */
    messageType: z.string().min(1).optional(),
    /** Words of the interface context (any of them, case-insensitive). */
    context: z.array(z.string().min(1)).optional(),
    /** A cause found in the raw message (message-signals.ts). */
    signal: z.string().min(1).optional(),
    category: z.enum(TRIAGE_CATEGORIES),
    confidence: z.number().min(0).max(1),
    rootCause: z.string().min(1),
    explanation: z.string().min(1),
    fixes: z.array(fixSchema).min(1),
  })
  .strict();

const fileSchema = z
  .object({
    standard: z.string().min(1),
    version: z.number().int().min(1),
    entries: z.array(entrySchema).default([]),
    signals: z.array(entrySchema.extend({ signal: z.string().min(1) })).default([]),
  })
  .strict();

/** One knowledge entry. */
export type KnowledgeEntry = z.infer<typeof entrySchema> & { standard: string; source: string };

/** What a finding looks like to the matcher. */
export interface FindingKey {
  code: string;
  /** Normalised path (`PID.5.1`, `OBX.5`), or '' when the finding names none. */
  field: string;
  messageType: string;
  context: string;
  signals: ReadonlySet<string>;
}

function fieldMatches(pattern: string, field: string): boolean {
  if (pattern.endsWith('*')) return field.startsWith(pattern.slice(0, -1));
  return field === pattern || field.startsWith(pattern + '.');
}

/** Specificity of a matching entry (higher wins), or -1 when it does not match. */
function score(entry: KnowledgeEntry, key: FindingKey): number {
  if (entry.code !== undefined && entry.code !== key.code) return -1;
  let points = 1;
  if (entry.signal !== undefined) {
    if (!key.signals.has(entry.signal)) return -1;
    points += 8;
  }
  if (entry.field !== undefined) {
    if (!fieldMatches(entry.field, key.field)) return -1;
    points += 4 + entry.field.length / 100;
  }
  if (entry.messageType !== undefined) {
    if (!(key.messageType === entry.messageType || key.messageType.startsWith(entry.messageType + '^'))) return -1;
    points += 2;
  }
  if (entry.context !== undefined) {
    const context = key.context.toLowerCase();
    if (!entry.context.some((word) => context.includes(word.toLowerCase()))) return -1;
    points += 1;
  }
  return points;
}

/** The loaded knowledge, indexed by standard and code. */
export class KnowledgeBase {
  private readonly byCode = new Map<string, KnowledgeEntry[]>();
  private readonly signalEntries = new Map<string, KnowledgeEntry[]>();

  constructor(readonly entries: readonly KnowledgeEntry[]) {
    for (const entry of entries) {
      if (entry.code !== undefined) {
        const key = `${entry.standard}\0${entry.code}`;
        this.byCode.set(key, [...(this.byCode.get(key) ?? []), entry]);
      } else if (entry.signal !== undefined) {
        const key = `${entry.standard}\0${entry.signal}`;
        this.signalEntries.set(key, [...(this.signalEntries.get(key) ?? []), entry]);
      }
    }
  }

  /** Codes with at least one entry, for a standard. */
  codes(standard: string): Set<string> {
    return new Set(this.entries.filter((entry) => entry.standard === standard && entry.code).map((entry) => entry.code!));
  }

  /** The most specific entry for a finding (later files win ties: a pack overrides the shipped base). */
  match(standard: string, key: FindingKey): KnowledgeEntry | undefined {
    let best: KnowledgeEntry | undefined;
    let bestScore = -1;
    for (const entry of this.byCode.get(`${standard}\0${key.code}`) ?? []) {
      const points = score(entry, key);
      if (points >= bestScore && points >= 0) {
        best = entry;
        bestScore = points;
      }
    }
    return best;
  }

  /** The entry explaining a raw-message signal on its own (no finding needed). */
  signal(standard: string, signal: string, key: Omit<FindingKey, 'code'>): KnowledgeEntry | undefined {
    let best: KnowledgeEntry | undefined;
    let bestScore = -1;
    for (const entry of this.signalEntries.get(`${standard}\0${signal}`) ?? []) {
      const points = score(entry, { ...key, code: '' });
      if (points >= bestScore && points >= 0) {
        best = entry;
        bestScore = points;
      }
    }
    return best;
  }
}

/** A knowledge file that could not be used, with the reason (boot goes on without it). */
export interface KnowledgeProblem {
  file: string;
  problem: string;
}

/** Reads one knowledge file. */
export function readKnowledgeFile(file: string): KnowledgeEntry[] {
  const parsed = fileSchema.parse(parseYaml(readFileSync(file, 'utf8')));
  return [...parsed.entries, ...parsed.signals].map((entry) => ({ ...entry, standard: parsed.standard, source: file }));
}

/**
 * Loads the shipped files of `knowledgeDir` and then every `triage/*.yaml` of the given pack folders (pack entries
 * come later, so they win ties). A broken pack file is reported, never fatal; a broken shipped file throws.
 */
export function loadKnowledgeBase(knowledgeDir: string, packDirs: readonly string[] = []): { base: KnowledgeBase; problems: KnowledgeProblem[] } {
  const entries: KnowledgeEntry[] = [];
  for (const name of readdirSync(knowledgeDir).filter((file) => file.endsWith('.yaml')).sort()) {
    entries.push(...readKnowledgeFile(join(knowledgeDir, name)));
  }
  const problems: KnowledgeProblem[] = [];
  for (const dir of packDirs) {
    const triageDir = join(dir, 'triage');
    if (!existsSync(triageDir)) continue;
    for (const name of readdirSync(triageDir).filter((file) => file.endsWith('.yaml') || file.endsWith('.yml')).sort()) {
      const file = join(triageDir, name);
      try {
        entries.push(...readKnowledgeFile(file));
      } catch (error) {
        problems.push({ file, problem: (error as Error).message.slice(0, 300) });
      }
    }
  }
  return { base: new KnowledgeBase(entries), problems };
}
