/**
 * The report of a de-identification: what was replaced, by kind and path, with counts, never the values (the report
 * travels with the de-identified message, to a vendor for instance).
 */
import type { IdentifierKind } from './pseudonyms.ts';

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
}

/** Collects replacements while an engine walks a message. */
export class ReportBuilder {
  private readonly entries = new Map<string, ReplacementEntry>();
  private readonly notes = new Set<string>();

  /** Counts one replaced value. */
  add(path: string, kind: IdentifierKind): void {
    const key = `${kind}\0${path}`;
    const entry = this.entries.get(key);
    if (entry) entry.count++;
    else this.entries.set(key, { path, kind, count: 1 });
  }

  /** Adds a note (kept once). */
  note(text: string): void {
    this.notes.add(text);
  }

  /** The report, entries by path then kind. */
  build(): DeidentificationReport {
    const replacements = [...this.entries.values()].sort((a, b) => a.path.localeCompare(b.path) || a.kind.localeCompare(b.kind));
    const byKind: Partial<Record<IdentifierKind, number>> = {};
    let total = 0;
    for (const entry of replacements) {
      byKind[entry.kind] = (byKind[entry.kind] ?? 0) + entry.count;
      total += entry.count;
    }
    return { replacements, byKind, total, notes: [...this.notes] };
  }
}
