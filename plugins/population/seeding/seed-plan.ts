/**
 * How a generated population maps onto the connected schema: which of its tables receive rows (those named like a
 * default patient table, with a single-column primary key so every inserted key can be recorded), in foreign-key
 * order, and where each target column's value comes from:
 *
 * - the key: the generated id moved past the table's current largest key (integer keys) or given the run's prefix
 *   (text keys), so inserted keys never collide with rows already there and form one exact range to clean up;
 * - a foreign key to a seeded table: the parent's translated key; to another table: an existing parent key, or NULL
 *   when nullable; the nullable foreign key that breaks a cycle: NULL;
 * - a column with a unique constraint of its own: a value no row already there holds (integers numbered past the
 *   column's largest value; numbered text such as MRNs past the largest number of that shape; other text given the
 *   run's prefix), so a second seed never collides with the first;
 * - a column the generator makes (same name): its value, fitted to an enum or check list and to the column length;
 * - a column filled by the database (identity, default): left out;
 * - any other column: drawn from the learned profile when there is one (frequencies, patterns, ranges), else NULL
 *   when nullable, else a typed placeholder.
 */
import { type CellValue, DEFAULT_TABLES, type DefaultTable } from '../output/default-patient-schema.ts';
import type { LearnedProfile, ColumnProfile } from '../database/profile-learner.ts';
import type { ColumnInfo, SchemaInfo, TableInfo } from '../database/schema-analysis.ts';
import { sqlTimestamp } from '../output/sql-dialect.ts';
import type { PatientRecord } from '../generation/patient-record.ts';

/** Where a target column's value comes from. */
export type ColumnSource = 'key' | 'parent-key' | 'existing-parent' | 'unique' | 'generated' | 'profile' | 'placeholder' | 'null';

/**
 * How the values of a unique column are made: integers past `offset`; `prefix` and a number past `offset` padded to
 * `width` digits (numbered text); or the run's text prefix and the row id (any other text).
 */
export type UniquePlan =
  | { kind: 'integer'; offset: number }
  | { kind: 'numbered'; prefix: string; width: number; offset: number }
  | { kind: 'text'; prefix: string };

/** One target column of a seeded table. */
export interface ColumnPlan {
  column: string;
  source: ColumnSource;
  /** For generated values: the default-schema column read. For parent keys: the referenced table. */
  from?: string;
  /** For a unique column: how its values are made. */
  unique?: UniquePlan;
}

/** How keys of a seeded table are made. */
export type KeyPlan = { kind: 'integer'; offset: number } | { kind: 'text'; prefix: string };

/** One seeded table. */
export interface TablePlan {
  table: string;
  /** The default table its rows come from. */
  source: DefaultTable['name'];
  keyColumn: string;
  key: KeyPlan;
  /** The database fills the key column itself (serial/identity), so explicit keys need its permission. */
  keyIsGenerated: boolean;
  columns: ColumnPlan[];
}

/** The whole plan. */
export interface SeedPlan {
  tables: TablePlan[];
  /** Tables of the schema that receive nothing, with the reason. */
  untouched: Array<{ table: string; reason: string }>;
  /** Columns inserted as NULL to break a foreign-key cycle. */
  cycleBreakers: Array<{ table: string; columns: string[] }>;
}

/** Current state of the target the plan depends on. */
export interface PlanInputs {
  schema: SchemaInfo;
  profiles: readonly LearnedProfile[];
  /** Largest integer key of each candidate table (0 when empty). */
  maxKeys: ReadonlyMap<string, number>;
  /** Some existing keys of tables referenced but not seeded. */
  existingKeys: ReadonlyMap<string, readonly CellValue[]>;
  /** Prefix of text keys of this run. */
  textKeyPrefix: string;
  /**
   * Per unique column (`table.column`), the largest number already used: the largest value of an integer column,
   * the largest number of a numbered text column's shape. Missing: 0.
   */
  uniqueOffsets?: ReadonlyMap<string, number>;
}

/** The single-column unique constraints of a table, other than its key: the columns whose values must not repeat. */
export function uniqueColumnsOf(table: TableInfo, keyColumn: string): Set<string> {
  return new Set(table.uniques.filter((columns) => columns.length === 1 && columns[0] !== keyColumn).map((columns) => columns[0] as string));
}

const INTEGER_TYPE = /int|serial|numeric|decimal|number/i;

function profileOf(profiles: readonly LearnedProfile[], table: string, column: string): ColumnProfile | undefined {
  for (const profile of profiles) {
    const found = profile.tables.find((t) => t.table === table)?.columns.find((c) => c.name === column);
    if (found && (found.frequencies?.values.length || found.range || found.strings?.patterns.length)) return found;
  }
  return undefined;
}

/** Builds the plan. */
export function buildSeedPlan(inputs: PlanInputs): SeedPlan {
  const { schema } = inputs;
  const byName = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  const untouched: SeedPlan['untouched'] = [];
  const candidates = new Map<string, { table: TableInfo; source: DefaultTable }>();
  for (const source of DEFAULT_TABLES) {
    const table = byName.get(source.name);
    if (!table) continue;
    if (table.primaryKey.length !== 1) {
      untouched.push({ table: table.name, reason: 'it has no single-column primary key, so its inserted rows could not be recorded for cleanup' });
      continue;
    }
    candidates.set(table.name, { table, source });
  }
  for (const t of schema.tables) {
    if (!candidates.has(t.name) && !untouched.some((u) => u.table === t.name)) {
      untouched.push({ table: t.name, reason: 'the population has no table of that name' });
    }
  }
  const breakers = schema.cycles.filter((c) => c.brokenBy).map((c) => c.brokenBy as NonNullable<typeof c.brokenBy>);
  const cycleBreakers: SeedPlan['cycleBreakers'] = [];
  const tables: TablePlan[] = [];
  for (const name of schema.insertOrder) {
    const candidate = candidates.get(name);
    if (!candidate) continue;
    const { table, source } = candidate;
    const keyColumn = table.primaryKey[0];
    const keyInfo = table.columns.find((c) => c.name === keyColumn) as ColumnInfo;
    const key: KeyPlan = INTEGER_TYPE.test(keyInfo.dataType)
      ? { kind: 'integer', offset: inputs.maxKeys.get(name) ?? 0 }
      : { kind: 'text', prefix: inputs.textKeyPrefix };
    const nulled = new Set(breakers.filter((b) => b.table === name).flatMap((b) => b.columns));
    if (nulled.size > 0) cycleBreakers.push({ table: name, columns: [...nulled] });
    const generatedColumns = new Map(source.columns.map((c) => [c.name.toLowerCase(), c]));
    const uniqueColumns = uniqueColumnsOf(table, keyColumn);
    const columns: ColumnPlan[] = [];
    for (const column of table.columns) {
      const lower = column.name.toLowerCase();
      const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === column.name);
      if (column.name === keyColumn) {
        columns.push({ column: column.name, source: 'key' });
      } else if (nulled.has(column.name)) {
        columns.push({ column: column.name, source: 'null' });
      } else if (fk && candidates.has(fk.refTable)) {
        // The parent's generated id: a same-named generated column, else the one referencing that default table.
        const parentSource = candidates.get(fk.refTable)?.source.name;
        const generated = generatedColumns.get(lower) ?? source.columns.find((c) => c.references === parentSource);
        columns.push(generated ? { column: column.name, source: 'parent-key', from: fk.refTable } : { column: column.name, source: column.nullable ? 'null' : 'existing-parent', from: fk.refTable });
      } else if (fk) {
        columns.push({ column: column.name, source: column.nullable ? 'null' : 'existing-parent', from: fk.refTable });
      } else if (uniqueColumns.has(column.name) && !column.generated) {
        const offset = inputs.uniqueOffsets?.get(`${name}.${column.name}`) ?? 0;
        const numbered = generatedColumns.get(lower)?.numbered;
        const unique: UniquePlan = INTEGER_TYPE.test(column.dataType)
          ? { kind: 'integer', offset }
          : numbered
            ? { kind: 'numbered', prefix: numbered.prefix, width: numbered.width, offset }
            : { kind: 'text', prefix: inputs.textKeyPrefix };
        columns.push({ column: column.name, source: 'unique', unique });
      } else if (generatedColumns.has(lower)) {
        columns.push({ column: column.name, source: 'generated', from: generatedColumns.get(lower)?.name });
      } else if (column.generated || column.default !== null) {
        continue;
      } else if (profileOf(inputs.profiles, table.name, column.name)) {
        columns.push({ column: column.name, source: 'profile' });
      } else {
        columns.push({ column: column.name, source: column.nullable ? 'null' : 'placeholder' });
      }
    }
    tables.push({ table: name, source: source.name, keyColumn, key, keyIsGenerated: keyInfo.generated, columns });
  }
  return { tables, untouched, cycleBreakers };
}

/** The key a generated id becomes in a seeded table. */
export function translateKey(key: KeyPlan, generatedId: number): CellValue {
  return key.kind === 'integer' ? key.offset + generatedId : `${key.prefix}${generatedId}`;
}

/** A tiny deterministic generator for profile draws, so a seed run is reproducible. */
export function createDrawSource(seed: number): (max: number) => number {
  let state = (seed ^ 0x5bd1e995) >>> 0;
  return (max) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return max <= 0 ? 0 : state % max;
  };
}

function fromProfile(profile: ColumnProfile, draw: (max: number) => number): CellValue {
  if (profile.frequencies && profile.frequencies.values.length > 0) {
    const total = profile.frequencies.values.reduce((s, v) => s + v.count, 0);
    let point = draw(total);
    for (const v of profile.frequencies.values) {
      point -= v.count;
      if (point < 0) return profile.kind === 'number' ? Number(v.value) : v.value;
    }
  }
  if (profile.range) {
    const { min, max } = profile.range;
    if (typeof min === 'number' && typeof max === 'number') {
      const value = min + (draw(1_000_001) / 1_000_000) * (max - min);
      return /int/i.test(profile.dataType) ? Math.round(value) : Math.round(value * 100) / 100;
    }
    const from = Date.parse(String(min));
    const to = Date.parse(String(max));
    return sqlTimestamp(new Date(from + (draw(1_000_001) / 1_000_000) * (to - from)).toISOString());
  }
  const pattern = profile.strings?.patterns[draw(profile.strings.patterns.length)]?.value ?? 'AAAA';
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return pattern.replace(/[A9]/g, (c) => (c === 'A' ? letters[draw(26)] : String(draw(10))));
}

function placeholder(column: ColumnInfo, reference: string): CellValue {
  if (column.allowedValues?.length) return column.allowedValues[0];
  const t = column.dataType.toLowerCase();
  if (/int|numeric|decimal|real|double|float|money|bit|bool/.test(t)) return 0;
  if (/timestamp|datetime/.test(t)) return sqlTimestamp(reference);
  if (/date/.test(t)) return reference.slice(0, 10);
  return 'SYNTHETIC'.slice(0, column.maxLength ?? 9);
}

/** Fits a value to an enum/check list (case-insensitive, then by first letter) and to the column's length. */
export function fitValue(column: ColumnInfo, value: CellValue): CellValue {
  if (value === null) return null;
  if (column.allowedValues && column.allowedValues.length > 0) {
    const text = String(value);
    if (column.allowedValues.includes(text)) return text;
    const lower = text.toLowerCase();
    return (
      column.allowedValues.find((v) => v.toLowerCase() === lower) ??
      column.allowedValues.find((v) => v[0]?.toLowerCase() === lower[0]) ??
      column.allowedValues[0]
    );
  }
  if (typeof value === 'string' && column.maxLength !== null && column.maxLength > 0 && value.length > column.maxLength) {
    return value.slice(0, column.maxLength);
  }
  return value;
}

/** Receives the rows of a table one by one: the values (in column order, reused for the next row) and the row's generated id. */
export interface RowSink {
  add(values: readonly CellValue[], generatedId: number): void;
}

/**
 * Compiles the plan into row builders: called with a table and a patient, it gives the patient's rows of that table, in
 * column order; its `visit` hands the same rows to a sink one by one without building arrays (the seed's fast path).
 * Both draw profile values in the same order, so they give the same rows.
 */
export function createRowBuilder(plan: SeedPlan, inputs: PlanInputs, seed: number, reference: string) {
  const draw = createDrawSource(seed);
  const keyOf = new Map(plan.tables.map((t) => [t.table, t.key]));
  type Cell = (row: unknown, patient: PatientRecord) => CellValue;
  const compiled = new Map<string, { source: DefaultTable; cells: Cell[]; scratch: CellValue[] }>();
  for (const tablePlan of plan.tables) {
    const source = DEFAULT_TABLES.find((t) => t.name === tablePlan.source) as DefaultTable;
    const info = inputs.schema.tables.find((t) => t.name === tablePlan.table) as TableInfo;
    const cells = tablePlan.columns.map((c): Cell => {
      const column = info.columns.find((x) => x.name === c.column) as ColumnInfo;
      // Each cell is specialised to its case: these run for every column of every seeded row.
      switch (c.source) {
        case 'key': {
          const key = tablePlan.key;
          if (key.kind === 'integer') {
            const offset = key.offset;
            return (row) => offset + (row as { id: number }).id;
          }
          const prefix = key.prefix;
          return (row) => `${prefix}${(row as { id: number }).id}`;
        }
        case 'parent-key': {
          const parentSource = plan.tables.find((t) => t.table === c.from)?.source;
          const generated =
            source.columns.find((g) => g.name.toLowerCase() === c.column.toLowerCase()) ?? source.columns.find((g) => g.references === parentSource);
          const parentKey = keyOf.get(c.from as string) as KeyPlan;
          if (!generated) return () => null;
          return (row, patient) => {
            const id = generated.value(row, patient);
            return typeof id === 'number' ? translateKey(parentKey, id) : null;
          };
        }
        case 'unique': {
          const unique = c.unique as UniquePlan;
          // Row ids are unique per table within a job, so each is one new value past what the column holds.
          if (unique.kind === 'integer') {
            const offset = unique.offset;
            return (row) => offset + (row as { id: number }).id;
          }
          if (unique.kind === 'numbered') {
            const { prefix, width, offset } = unique;
            return (row) => `${prefix}${String(offset + (row as { id: number }).id).padStart(width, '0')}`;
          }
          const prefix = unique.prefix;
          return (row) => `${prefix}${(row as { id: number }).id}`;
        }
        case 'existing-parent': {
          const keys = inputs.existingKeys.get(c.from as string) ?? [];
          return () => (keys.length > 0 ? keys[draw(keys.length)] : null);
        }
        case 'generated': {
          const generated = source.columns.find((g) => g.name === c.from);
          if (!generated) return () => null;
          const read = generated.value;
          const max = column.maxLength;
          const fit: (value: CellValue) => CellValue = column.allowedValues?.length
            ? (value) => fitValue(column, value)
            : max !== null && max > 0
              ? (value) => (typeof value === 'string' && value.length > max ? value.slice(0, max) : value)
              : (value) => value;
          if (generated.type === 'timestamp') {
            // Rows of one parent often share a time (an encounter's observations): convert each distinct one once.
            let lastIn: CellValue = null;
            let lastOut: CellValue = null;
            return (row, patient) => {
              const value = read(row, patient);
              if (value !== lastIn) {
                lastIn = value;
                lastOut = fit(typeof value === 'string' ? sqlTimestamp(value) : value);
              }
              return lastOut;
            };
          }
          return (row, patient) => fit(read(row, patient));
        }
        case 'profile': {
          const profile = profileOf(inputs.profiles, tablePlan.table, c.column) as ColumnProfile;
          return () => fitValue(column, fromProfile(profile, draw));
        }
        case 'placeholder': {
          const value = placeholder(column, reference);
          return () => value;
        }
        case 'null':
          return () => null;
      }
    });
    compiled.set(tablePlan.table, { source, cells, scratch: new Array<CellValue>(cells.length) });
  }
  const visit = (tablePlan: TablePlan, patient: PatientRecord, sink: RowSink): void => {
    const { source, cells, scratch } = compiled.get(tablePlan.table) as { source: DefaultTable; cells: Cell[]; scratch: CellValue[] };
    for (const row of source.rows(patient)) {
      for (let i = 0; i < cells.length; i++) scratch[i] = cells[i](row, patient);
      sink.add(scratch, (row as { id: number }).id);
    }
  };
  const rowsOf = (tablePlan: TablePlan, patient: PatientRecord): CellValue[][] => {
    const out: CellValue[][] = [];
    visit(tablePlan, patient, { add: (values) => void out.push(values.slice()) });
    return out;
  };
  return Object.assign(rowsOf, { visit });
}
