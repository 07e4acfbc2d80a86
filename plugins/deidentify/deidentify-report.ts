/**
 * The report of a de-identification: what was replaced, by kind and path, with counts, never the values (the report
 * travels with the de-identified message, to a vendor for instance).
 */
import type { IdentifierKind } from './replacement/pseudonyms.ts';

/** One line of the report: how many values of a kind were replaced at a path. */
export interface ReplacementEntry {
  /** Path in the standard's own syntax with repetition indexes dropped (`PID.5.1`, `Patient.name.family`). */
  path: string;
  kind: IdentifierKind;
  count: number;
}

/** The whole report. */
export interface DeidentificationReport {
  replacements: ReplacementEntry[];
  /** Replacements per kind. */
  byKind: Partial<Record<IdentifierKind, number>>;
  total: number;
  /** Things the engine saw but left as they were, and why (a Z-segment without a profile, say). */
  notes: string[];
  /**
   * Paths whose values the engine could not classify (a Z-segment no profile defines, fields past a segment's
   * definition, an extension it does not know) and so replaced by placeholders of the same shape. Mark one safe in
   * `plugins.deidentify.safePaths` to keep its values.
   */
  redacted: string[];
}

/** Collects replacements while an engine walks a message. */
export class ReportBuilder {
  // By path: nearly every path holds one kind, so one look-up finds its entry without a key string or a map per
  // path; another kind at a path already seen (rare) is kept by path and kind. `list` keeps the entries in the order
  // first seen, so building the report needs no walk over the maps.
  private readonly byPath = new Map<string, ReplacementEntry>();
  private otherKinds: Map<string, ReplacementEntry> | undefined;
  private readonly list: ReplacementEntry[] = [];
  private readonly notes = new Set<string>();
  private readonly redactedPaths = new Set<string>();

  /** Counts one replaced value. */
  add(path: string, kind: IdentifierKind): void {
    const first = this.byPath.get(path);
    if (first === undefined) {
      const created = { path, kind, count: 1 };
      this.byPath.set(path, created);
      this.list.push(created);
      return;
    }
    if (first.kind === kind) {
      first.count++;
      return;
    }
    this.otherKinds ??= new Map();
    const key = `${path}\u0000${kind}`;
    const entry = this.otherKinds.get(key);
    if (entry) entry.count++;
    else {
      const created = { path, kind, count: 1 };
      this.otherKinds.set(key, created);
      this.list.push(created);
    }
  }

  /** Records a path whose values were redacted as unclassifiable (kept once). */
  redact(path: string): void {
    this.redactedPaths.add(path);
  }

  /** Adds a note (kept once). */
  note(text: string): void {
    this.notes.add(text);
  }

  /** The report, entries by path then kind (code-unit order: the same everywhere, and cheap per message). */
  build(): DeidentificationReport {
    const replacements = this.list.sort(byPathThenKind);
    const byKind: Partial<Record<IdentifierKind, number>> = {};
    let total = 0;
    for (const entry of replacements) {
      byKind[entry.kind] = (byKind[entry.kind] ?? 0) + entry.count;
      total += entry.count;
    }
    return { replacements, byKind, total, notes: [...this.notes], redacted: [...this.redactedPaths].sort() };
  }
}

function byPathThenKind(a: ReplacementEntry, b: ReplacementEntry): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}
