/**
 * How each database engine spells identifiers, literals, column types and transactions, for the SQL scripts a
 * population is written as and the dry-run plans of a seed.
 */
import type { CellValue, DefaultColumn, DefaultTable, PortableType } from './default-patient-schema.ts';

/** The engines a population can target. */
export const PROVIDERS = ['postgres', 'mysql', 'sqlserver'] as const;

/** Other names of the providers, accepted wherever a provider is named (`mariadb` is served by the MySQL driver). */
export const PROVIDER_ALIASES = { mariadb: 'mysql', postgresql: 'postgres', mssql: 'sqlserver' } as const;

/** One of {@link PROVIDERS}. */
export type Provider = (typeof PROVIDERS)[number];

/** An identifier quoted for the engine (embedded quote characters doubled). */
export function quoteIdentifier(provider: Provider, name: string): string {
  if (provider === 'mysql') return `\`${name.replace(/`/g, '``')}\``;
  if (provider === 'sqlserver') return `[${name.replace(/]/g, ']]')}]`;
  return `"${name.replace(/"/g, '""')}"`;
}

/** A literal for the engine: NULL, a number, or a quoted string (MySQL also escapes backslashes). */
export function sqlLiteral(provider: Provider, value: CellValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NULL';
  let text = value.replace(/'/g, "''");
  if (provider === 'mysql') text = text.replace(/\\/g, '\\\\');
  return provider === 'sqlserver' ? `N'${text}'` : `'${text}'`;
}

/** `YYYY-MM-DDTHH:MM:SSZ` as `YYYY-MM-DD HH:MM:SS`, the form every engine's timestamp type takes. */
export function sqlTimestamp(iso: string): string {
  return iso.length >= 19 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso;
}

const TYPES: Record<Provider, Record<PortableType, (length?: number) => string>> = {
  postgres: { integer: () => 'bigint', text: (n) => `varchar(${n ?? 255})`, date: () => 'date', timestamp: () => 'timestamp', decimal: () => 'numeric(12,3)' },
  mysql: { integer: () => 'bigint', text: (n) => `varchar(${n ?? 255})`, date: () => 'date', timestamp: () => 'datetime', decimal: () => 'decimal(12,3)' },
  sqlserver: { integer: () => 'bigint', text: (n) => `nvarchar(${n ?? 255})`, date: () => 'date', timestamp: () => 'datetime2(0)', decimal: () => 'decimal(12,3)' },
};

/** The column type of a portable column for the engine. */
export function columnType(provider: Provider, column: Pick<DefaultColumn<unknown>, 'type' | 'length'>): string {
  return TYPES[provider][column.type](column.length);
}

/** `CREATE TABLE` of a default table (primary key `id`, foreign keys to the referenced tables' `id`). */
export function createTableSql(provider: Provider, table: DefaultTable): string {
  const q = (name: string) => quoteIdentifier(provider, name);
  const lines = table.columns.map((c) => `  ${q(c.name)} ${columnType(provider, c)}${c.nullable ? '' : ' NOT NULL'}`);
  lines.push(`  PRIMARY KEY (${q('id')})`);
  for (const c of table.columns) {
    if (c.references) lines.push(`  FOREIGN KEY (${q(c.name)}) REFERENCES ${q(c.references)} (${q('id')})`);
  }
  return `CREATE TABLE ${q(table.name)} (\n${lines.join(',\n')}\n);`;
}

/**
 * `CREATE INDEX` on every foreign-key column of a default table: PostgreSQL and SQL Server do not index them on their
 * own, and without the index every parent row deleted (cleanup) scans the whole child table.
 */
export function createForeignKeyIndexesSql(provider: Provider, table: DefaultTable): string[] {
  const q = (name: string) => quoteIdentifier(provider, name);
  return table.columns.filter((c) => c.references).map((c) => `CREATE INDEX ${q(`${table.name}_${c.name}_idx`)} ON ${q(table.name)} (${q(c.name)});`);
}

/** Statements that open and close a transaction on the engine. */
export function transactionSql(provider: Provider): { begin: string; commit: string } {
  if (provider === 'sqlserver') return { begin: 'BEGIN TRANSACTION;', commit: 'COMMIT TRANSACTION;' };
  if (provider === 'mysql') return { begin: 'START TRANSACTION;', commit: 'COMMIT;' };
  return { begin: 'BEGIN;', commit: 'COMMIT;' };
}

/** One multi-row `INSERT` (SQL Server allows at most 1,000 rows per VALUES list; callers batch below that). */
export function insertSql(provider: Provider, table: string, columns: readonly string[], rows: ReadonlyArray<readonly CellValue[]>): string {
  const q = (name: string) => quoteIdentifier(provider, name);
  const values = rows.map((row) => `(${row.map((v) => sqlLiteral(provider, v)).join(', ')})`).join(',\n  ');
  return `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES\n  ${values};`;
}
