/**
 * The manifest of a seed run: per table, the keys it inserted, as ranges. A batch inserts one gap-free run of generated
 * ids per table, and its keys are those ids translated (moved past the table's largest key, or given the run's text
 * prefix). Batches load side by side and commit in any order, so when one fails while others commit, a table's keys
 * have a hole: an entry is the overall range with its holes listed, and cleanup deletes exactly the segments between.
 */
import type { KeyPlan, SeedPlan } from './seed-plan.ts';

/** A range of keys, both ends included (integer keys; for text keys, the numbers after the prefix). */
export interface KeyRange {
  from: number;
  to: number;
}

/** Recorded keys of one table: the range from the first to the last inserted key, without the holes in `gaps`. */
export type TableManifest = {
  table: string;
  keyColumn: string;
  rows: number;
  /** Ranges inside `from`..`to` that were not inserted (a batch rolled back between committed ones); absent when none. */
  gaps?: KeyRange[];
} & ({ kind: 'integer'; from: number; to: number } | { kind: 'text'; prefix: string; from: number; to: number });

/** The generated ids one batch inserted into one table (first and last included, consecutive). */
export interface BatchIds {
  table: string;
  first: number;
  last: number;
}

function keyNumber(key: KeyPlan, generatedId: number): number {
  return key.kind === 'integer' ? key.offset + generatedId : generatedId;
}

/** The manifest of the given batches (the committed ones, in any order), tables in the plan's (foreign-key) order. */
export function manifestOf(plan: SeedPlan, batches: ReadonlyArray<readonly BatchIds[]>): TableManifest[] {
  const out: TableManifest[] = [];
  for (const table of plan.tables) {
    const ranges = batches
      .flatMap((ids) => ids.filter((b) => b.table === table.table))
      .map((b) => ({ from: keyNumber(table.key, b.first), to: keyNumber(table.key, b.last) }))
      .sort((a, b) => a.from - b.from);
    if (ranges.length === 0) continue;
    const gaps: KeyRange[] = [];
    let rows = 0;
    for (let i = 0; i < ranges.length; i++) {
      rows += ranges[i].to - ranges[i].from + 1;
      if (i > 0 && ranges[i].from > ranges[i - 1].to + 1) gaps.push({ from: ranges[i - 1].to + 1, to: ranges[i].from - 1 });
    }
    const span = { from: ranges[0].from, to: ranges[ranges.length - 1].to };
    const base = { table: table.table, keyColumn: table.keyColumn, rows, ...(gaps.length > 0 ? { gaps } : {}) };
    out.push(table.key.kind === 'integer' ? { ...base, kind: 'integer', ...span } : { ...base, kind: 'text', prefix: table.key.prefix, ...span });
  }
  return out;
}

/** The inserted key ranges of an entry: its range cut at its gaps. */
export function keySegments(entry: TableManifest): KeyRange[] {
  const segments: KeyRange[] = [];
  let from = entry.from;
  for (const gap of [...(entry.gaps ?? [])].sort((a, b) => a.from - b.from)) {
    if (gap.from > from) segments.push({ from, to: gap.from - 1 });
    from = Math.max(from, gap.to + 1);
  }
  if (from <= entry.to) segments.push({ from, to: entry.to });
  return segments;
}
