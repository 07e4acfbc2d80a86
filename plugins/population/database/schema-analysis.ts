/**
 * Reads the connected database's schema: tables, columns (type, nullable, default, length), primary keys, unique
 * constraints, foreign keys, enum and check-constraint values, row counts, and the insert order that respects the
 * foreign keys. One query set per engine over its catalogue (information_schema where it is enough, pg_catalog and
 * sys views where it is not).
 */
import { type Kysely, sql } from 'kysely';
import { computeInsertOrder, type ForeignKeyCycle } from '../seeding/insert-order.ts';
import { quoteIdentifier, type Provider } from '../output/sql-dialect.ts';

/** One column. */
export interface ColumnInfo {
  name: string;
  dataType: string;
  nullable: boolean;
  default: string | null;
  maxLength: number | null;
  /** Values an enum type or a check constraint allows, when the column has such a list. */
  allowedValues: string[] | null;
  /** The database fills it (serial, identity, auto_increment). */
  generated: boolean;
}

/** One foreign key. */
export interface ForeignKeyInfo {
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

/** One table. */
export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  uniques: string[][];
  foreignKeys: ForeignKeyInfo[];
  checks: Array<{ name: string; clause: string }>;
  rowCount: number;
}

/** The analysed schema. */
export interface SchemaInfo {
  provider: Provider;
  database: string;
  analysedAt: string;
  tables: TableInfo[];
  insertOrder: string[];
  cycles: ForeignKeyCycle[];
}

// Catalogue rows differ per engine; each query names its columns.
type Row = Record<string, any>;

async function rows(db: Kysely<any>, query: ReturnType<typeof sql>): Promise<Row[]> {
  return (await query.execute(db)).rows as Row[];
}

/** Values listed by a check clause such as `col IN ('a','b')` or `col = ANY (ARRAY['a'::text, 'b'::text])`. */
export function valuesOfCheckClause(clause: string): { column: string; values: string[] } | undefined {
  // SQL Server stores `col IN ('a','b')` as `([col]='b' OR [col]='a')`.
  const alternatives = [...clause.matchAll(/\[?(\w+)\]?\s*=\s*N?'((?:[^']|'')*)'/g)];
  if (alternatives.length > 1 && /^[\s(]*(?:\[?\w+\]?\s*=\s*N?'(?:[^']|'')*'[\s)]*(?:\bOR\b[\s(]*)?)+$/i.test(clause)) {
    const column = alternatives[0][1];
    if (alternatives.every((a) => a[1] === column)) return { column, values: alternatives.map((a) => a[2].replace(/''/g, "'")).reverse() };
  }
  const match = /[`"[]?(\w+)[`"\]]?\)?(?:::\w+)?\s*(?:IN\s*\(|=\s*ANY\s*\(\s*\(?\s*ARRAY\s*\[)([^\])]*)/i.exec(clause);
  if (!match) return undefined;
  const values = [...match[2].matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));
  return values.length > 0 ? { column: match[1], values } : undefined;
}

function group<T>(list: Row[], key: (row: Row) => string, map: (row: Row) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of list) {
    const k = key(row);
    if (!out.has(k)) out.set(k, []);
    out.get(k)?.push(map(row));
  }
  return out;
}

interface RawCatalogue {
  tables: string[];
  columns: Row[];
  keys: Row[];
  foreignKeys: Row[];
  checks: Row[];
  enums: Map<string, string[]>;
}

async function postgresCatalogue(db: Kysely<any>): Promise<RawCatalogue> {
  const tables = await rows(db, sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`);
  const columns = await rows(db, sql`
    select table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length, ordinal_position, is_identity
    from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`);
  const keys = await rows(db, sql`
    select tc.table_name, tc.constraint_name, tc.constraint_type, kcu.column_name, kcu.ordinal_position
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
    where tc.table_schema = current_schema() and tc.constraint_type in ('PRIMARY KEY', 'UNIQUE')
    order by tc.table_name, tc.constraint_name, kcu.ordinal_position`);
  const foreignKeys = await rows(db, sql`
    select con.conname as constraint_name, cl.relname as table_name, att.attname as column_name, fcl.relname as ref_table, fatt.attname as ref_column, k.ord as ordinal_position
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_namespace ns on ns.oid = cl.relnamespace
    join lateral unnest(con.conkey, con.confkey) with ordinality as k(col, fcol, ord) on true
    join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.col
    join pg_class fcl on fcl.oid = con.confrelid
    join pg_attribute fatt on fatt.attrelid = con.confrelid and fatt.attnum = k.fcol
    where con.contype = 'f' and ns.nspname = current_schema()
    order by cl.relname, con.conname, k.ord`);
  const checks = await rows(db, sql`
    select cl.relname as table_name, con.conname as constraint_name, pg_get_constraintdef(con.oid) as check_clause
    from pg_constraint con join pg_class cl on cl.oid = con.conrelid join pg_namespace ns on ns.oid = cl.relnamespace
    where con.contype = 'c' and ns.nspname = current_schema()`);
  const enumRows = await rows(db, sql`
    select t.typname, e.enumlabel from pg_type t join pg_enum e on e.enumtypid = t.oid order by t.typname, e.enumsortorder`);
  return {
    tables: tables.map((r) => r.table_name),
    columns: columns.map((c) => ({ ...c, generated: c.is_identity === 'YES' || /^nextval\(/.test(c.column_default ?? '') })),
    keys,
    foreignKeys,
    checks,
    enums: new Map([...group(enumRows, (r) => r.typname, (r) => String(r.enumlabel))]),
  };
}

async function mysqlCatalogue(db: Kysely<any>): Promise<RawCatalogue> {
  const tables = await rows(db, sql`select table_name as table_name from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE' order by table_name`);
  const columns = await rows(db, sql`
    select table_name as table_name, column_name as column_name, data_type as data_type, column_type as column_type, is_nullable as is_nullable,
      column_default as column_default, character_maximum_length as character_maximum_length, ordinal_position as ordinal_position, extra as extra
    from information_schema.columns where table_schema = database() order by table_name, ordinal_position`);
  const keys = await rows(db, sql`
    select tc.table_name as table_name, tc.constraint_name as constraint_name, tc.constraint_type as constraint_type, kcu.column_name as column_name, kcu.ordinal_position as ordinal_position
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
    where tc.table_schema = database() and tc.constraint_type in ('PRIMARY KEY', 'UNIQUE')
    order by tc.table_name, tc.constraint_name, kcu.ordinal_position`);
  const foreignKeys = await rows(db, sql`
    select constraint_name as constraint_name, table_name as table_name, column_name as column_name, referenced_table_name as ref_table,
      referenced_column_name as ref_column, ordinal_position as ordinal_position
    from information_schema.key_column_usage
    where table_schema = database() and referenced_table_name is not null order by table_name, constraint_name, ordinal_position`);
  let checks: Row[] = [];
  try {
    checks = await rows(db, sql`select table_name as table_name, constraint_name as constraint_name, check_clause as check_clause from information_schema.check_constraints where constraint_schema = database()`);
  } catch {
    // Servers before MySQL 8.0.16 / MariaDB 10.2 have no check constraints to read.
  }
  const enums = new Map<string, string[]>();
  for (const c of columns) {
    const match = /^(?:enum|set)\((.*)\)$/i.exec(String(c.column_type));
    if (match) enums.set(`${c.table_name}.${c.column_name}`, [...match[1].matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'")));
  }
  return {
    tables: tables.map((r) => r.table_name),
    columns: columns.map((c) => ({ ...c, udt_name: `${c.table_name}.${c.column_name}`, generated: /auto_increment/i.test(String(c.extra ?? '')) })),
    keys,
    foreignKeys,
    checks,
    enums,
  };
}

async function sqlServerCatalogue(db: Kysely<any>): Promise<RawCatalogue> {
  const tables = await rows(db, sql`select table_name from information_schema.tables where table_schema = schema_name() and table_type = 'BASE TABLE' order by table_name`);
  const columns = await rows(db, sql`
    select c.table_name, c.column_name, c.data_type, c.data_type as udt_name, c.is_nullable, c.column_default, c.character_maximum_length, c.ordinal_position,
      columnproperty(object_id(quotename(c.table_schema) + '.' + quotename(c.table_name)), c.column_name, 'IsIdentity') as is_identity
    from information_schema.columns c where c.table_schema = schema_name() order by c.table_name, c.ordinal_position`);
  const keys = await rows(db, sql`
    select tc.table_name, tc.constraint_name, tc.constraint_type, kcu.column_name, kcu.ordinal_position
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
    where tc.table_schema = schema_name() and tc.constraint_type in ('PRIMARY KEY', 'UNIQUE')
    order by tc.table_name, tc.constraint_name, kcu.ordinal_position`);
  const foreignKeys = await rows(db, sql`
    select fk.name as constraint_name, tp.name as table_name, cp.name as column_name, tr.name as ref_table, cr.name as ref_column, fkc.constraint_column_id as ordinal_position
    from sys.foreign_keys fk
    join sys.foreign_key_columns fkc on fkc.constraint_object_id = fk.object_id
    join sys.tables tp on tp.object_id = fkc.parent_object_id
    join sys.columns cp on cp.object_id = fkc.parent_object_id and cp.column_id = fkc.parent_column_id
    join sys.tables tr on tr.object_id = fkc.referenced_object_id
    join sys.columns cr on cr.object_id = fkc.referenced_object_id and cr.column_id = fkc.referenced_column_id
    where schema_name(tp.schema_id) = schema_name()
    order by tp.name, fk.name, fkc.constraint_column_id`);
  const checks = await rows(db, sql`
    select object_name(cc.parent_object_id) as table_name, cc.name as constraint_name, cc.definition as check_clause
    from sys.check_constraints cc where schema_name(cc.schema_id) = schema_name()`);
  return {
    tables: tables.map((r) => r.table_name),
    columns: columns.map((c) => ({ ...c, generated: Number(c.is_identity) === 1 })),
    keys,
    foreignKeys,
    checks,
    enums: new Map(),
  };
}

/** Reads the schema of the connected database. */
export async function analyseSchema(db: Kysely<any>, provider: Provider, database: string, now: Date): Promise<SchemaInfo> {
  const catalogue =
    provider === 'postgres' ? await postgresCatalogue(db) : provider === 'mysql' ? await mysqlCatalogue(db) : await sqlServerCatalogue(db);
  const columnsByTable = group(catalogue.columns, (r) => r.table_name, (r) => r);
  const keysByTable = group(catalogue.keys, (r) => r.table_name, (r) => r);
  const fksByTable = group(catalogue.foreignKeys, (r) => r.table_name, (r) => r);
  const checksByTable = group(catalogue.checks, (r) => r.table_name, (r) => ({ name: String(r.constraint_name), clause: String(r.check_clause) }));
  const tables: TableInfo[] = [];
  for (const name of catalogue.tables) {
    const checks = checksByTable.get(name) ?? [];
    const checkValues = new Map<string, string[]>();
    for (const check of checks) {
      const listed = valuesOfCheckClause(check.clause);
      if (listed) checkValues.set(listed.column, listed.values);
    }
    const columns: ColumnInfo[] = (columnsByTable.get(name) ?? []).map((c) => ({
      name: String(c.column_name),
      dataType: String(provider === 'mysql' ? c.column_type : c.data_type === 'USER-DEFINED' ? c.udt_name : c.data_type),
      nullable: String(c.is_nullable).toUpperCase() === 'YES',
      default: c.column_default === null || c.column_default === undefined ? null : String(c.column_default),
      maxLength: c.character_maximum_length === null || c.character_maximum_length === undefined ? null : Number(c.character_maximum_length),
      allowedValues: catalogue.enums.get(String(provider === 'postgres' ? c.udt_name : `${name}.${c.column_name}`)) ?? checkValues.get(String(c.column_name)) ?? null,
      generated: Boolean(c.generated),
    }));
    const keyGroups = group(keysByTable.get(name) ?? [], (r) => `${r.constraint_type}|${r.constraint_name}`, (r) => String(r.column_name));
    const primaryKey = [...keyGroups].find(([k]) => k.startsWith('PRIMARY KEY|'))?.[1] ?? [];
    const uniques = [...keyGroups].filter(([k]) => k.startsWith('UNIQUE|')).map(([, cols]) => cols);
    const fkGroups = group(fksByTable.get(name) ?? [], (r) => String(r.constraint_name), (r) => r);
    const foreignKeys = [...fkGroups].map(([fkName, parts]) => ({
      name: fkName,
      columns: parts.map((p) => String(p.column_name)),
      refTable: String(parts[0].ref_table),
      refColumns: parts.map((p) => String(p.ref_column)),
    }));
    const counted = await rows(db, sql`select count(*) as n from ${sql.raw(quoteIdentifier(provider, name))}`);
    tables.push({ name, columns, primaryKey, uniques, foreignKeys, checks, rowCount: Number(counted[0]?.n ?? 0) });
  }
  const { order, cycles } = computeInsertOrder(
    tables.map((t) => ({ name: t.name, foreignKeys: t.foreignKeys, nullable: new Set(t.columns.filter((c) => c.nullable).map((c) => c.name)) })),
  );
  return { provider, database, analysedAt: now.toISOString(), tables, insertOrder: order, cycles };
}
