/**
 * The order in which tables can be filled so every foreign key points at a row that already exists. Foreign keys
 * form a graph from child to parent; tables are taken parents first. A cycle (A references B, B references A) is
 * reported, and broken at a foreign key whose columns are all nullable: those columns are inserted as NULL. A cycle
 * with no nullable foreign key cannot be filled and is reported with `brokenBy: null`. Self-references are noted
 * the same way but never block the order.
 */

/** The part of a table the order needs. */
export interface OrderableTable {
  name: string;
  foreignKeys: ReadonlyArray<{ name: string; columns: readonly string[]; refTable: string }>;
  /** Nullable column names. */
  nullable: ReadonlySet<string>;
}

/** A cycle and how it was broken. */
export interface ForeignKeyCycle {
  /** The tables of the cycle, in reference order (each references the next; the last references the first). */
  tables: string[];
  /** The nullable foreign key that breaks it: inserted as NULL. */
  brokenBy: { table: string; columns: string[]; foreignKey: string } | null;
}

/** The insert order and the cycles met on the way. */
export interface InsertOrder {
  order: string[];
  cycles: ForeignKeyCycle[];
}

/** Computes the insert order of the tables (unknown referenced tables are ignored). */
export function computeInsertOrder(tables: readonly OrderableTable[]): InsertOrder {
  const names = new Set(tables.map((t) => t.name));
  const byName = new Map(tables.map((t) => [t.name, t]));
  // Edges child -> parent, by foreign key; self-references and references outside the set are not edges.
  const edges = new Map<string, Array<{ parent: string; fk: OrderableTable['foreignKeys'][number] }>>();
  for (const t of tables) {
    edges.set(
      t.name,
      t.foreignKeys.filter((fk) => fk.refTable !== t.name && names.has(fk.refTable)).map((fk) => ({ parent: fk.refTable, fk })),
    );
  }
  const cycles: ForeignKeyCycle[] = [];
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      if (fk.refTable !== t.name) continue;
      const nullable = fk.columns.every((c) => t.nullable.has(c));
      cycles.push({ tables: [t.name], brokenBy: nullable ? { table: t.name, columns: [...fk.columns], foreignKey: fk.name } : null });
    }
  }
  const order: string[] = [];
  const placed = new Set<string>();
  const sorted = [...names].sort();
  while (placed.size < names.size) {
    const ready = sorted.filter((n) => !placed.has(n) && (edges.get(n) ?? []).every((e) => placed.has(e.parent)));
    if (ready.length > 0) {
      for (const n of ready) {
        order.push(n);
        placed.add(n);
      }
      continue;
    }
    // Every remaining table waits on another: find one cycle by walking parents from the first remaining table.
    const start = sorted.find((n) => !placed.has(n)) as string;
    const path: string[] = [];
    const seenAt = new Map<string, number>();
    let current = start;
    while (!seenAt.has(current)) {
      seenAt.set(current, path.length);
      path.push(current);
      const next = (edges.get(current) ?? []).find((e) => !placed.has(e.parent));
      current = next ? next.parent : current;
    }
    const cycle = path.slice(seenAt.get(current));
    // Break it at a foreign key inside the cycle whose columns are all nullable.
    let broken: ForeignKeyCycle['brokenBy'] = null;
    for (let i = 0; i < cycle.length && !broken; i++) {
      const child = cycle[i];
      const parent = cycle[(i + 1) % cycle.length];
      const table = byName.get(child);
      const edge = (edges.get(child) ?? []).find((e) => e.parent === parent && e.fk.columns.every((c) => table?.nullable.has(c)));
      if (edge) {
        broken = { table: child, columns: [...edge.fk.columns], foreignKey: edge.fk.name };
        edges.set(child, (edges.get(child) ?? []).filter((e) => e !== edge));
      }
    }
    if (!broken) {
      // Nothing to break: drop the cycle's edges so the order can go on, and say the cycle cannot be filled.
      for (const child of cycle) edges.set(child, (edges.get(child) ?? []).filter((e) => !cycle.includes(e.parent)));
    }
    cycles.push({ tables: cycle, brokenBy: broken });
  }
  return { order, cycles };
}
