/**
 * Learns the statistical shape of a connected database's tables from a random sample: per column the null fraction,
 * distinct count, value frequencies of low-cardinality columns, numeric and date ranges and histograms, string
 * lengths and character-class patterns (`AAA-9999`), and per foreign key the fan-out (children per parent).
 *
 * Only aggregates leave this module, never rows, and k-anonymity holds throughout: a category value, pattern or
 * histogram bin is kept only when at least k sampled rows share it, and ranges run from the k-th smallest to the
 * k-th largest value, so no single row's value can be read back. When a table holds people (given and family name,
 * birth date and ZIP columns), each sampled person is kept only as a salted hash for the no-PHI check.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { identityHash } from './identity-hash.ts';
import type { SchemaInfo, TableInfo } from './schema-analysis.ts';
import { quoteIdentifier, type Provider } from '../output/sql-dialect.ts';

/** Count of a kept category value. */
export interface ValueFrequency {
  value: string;
  count: number;
  fraction: number;
}

/** A histogram bin (half-open, the last closed). */
export interface HistogramBin {
  from: number | string;
  to: number | string;
  count: number;
}

/** What was learned about one column. */
export interface ColumnProfile {
  name: string;
  dataType: string;
  kind: 'number' | 'date' | 'string' | 'boolean' | 'other';
  nullFraction: number;
  distinctCount: number;
  /** Low-cardinality columns: values seen at least k times; `suppressed` counts the rows of rarer values. */
  frequencies: { values: ValueFrequency[]; suppressed: number } | null;
  /** Numbers and dates: k-th smallest to k-th largest, the mean (numbers) and a histogram of bins with at least k rows. */
  range: { min: number | string; max: number | string; mean: number | null; histogram: HistogramBin[] } | null;
  /** Strings: length distribution and the character-class patterns seen at least k times. */
  strings: { minLength: number; maxLength: number; meanLength: number; patterns: ValueFrequency[] } | null;
}

/** Children per parent along one foreign key, over the sample. */
export interface FanOut {
  foreignKey: string;
  columns: string[];
  refTable: string;
  parents: number;
  mean: number;
  min: number;
  max: number;
}

/** What was learned about one table. */
export interface TableProfile {
  table: string;
  rowCount: number;
  sampledRows: number;
  columns: ColumnProfile[];
  fanOut: FanOut[];
}

/** A stored profile. */
export interface LearnedProfile {
  name: string;
  provider: Provider;
  database: string;
  learnedAt: string;
  k: number;
  sampleSize: number;
  tables: TableProfile[];
  /** Salted identity hashes of sampled people (null when no table holds people). */
  identities: { salt: string; tables: string[]; count: number; hashes: string[] } | null;
}

/** Options of a learn run. */
export interface LearnOptions {
  name: string;
  tables: string[];
  sampleSize: number;
  k: number;
  now: Date;
}

const LOW_CARDINALITY = 50;
const HISTOGRAM_BINS = 10;

/** `AAA-9999`: letters as A, digits as 9, anything else kept. */
export function characterPattern(value: string): string {
  return value.replace(/\p{L}/gu, 'A').replace(/\p{N}/gu, '9');
}

function kindOf(dataType: string): ColumnProfile['kind'] {
  const t = dataType.toLowerCase();
  if (/^(tinyint\(1\)|bool|boolean|bit)$/.test(t)) return 'boolean';
  if (/int|numeric|decimal|real|double|float|money|serial/.test(t)) return 'number';
  if (/date|time/.test(t)) return 'date';
  if (/char|text|enum|set|uuid|string|clob|sex_code|user-defined/.test(t)) return 'string';
  return 'string';
}

function toText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  return String(value);
}

/** Keeps only entries of a count map seen at least k times, most frequent first. */
function keptFrequencies(counts: Map<string, number>, total: number, k: number, limit: number): { values: ValueFrequency[]; suppressed: number } {
  const values: ValueFrequency[] = [];
  let suppressed = 0;
  for (const [value, count] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (count >= k && values.length < limit) values.push({ value, count, fraction: Math.round((count / total) * 10_000) / 10_000 });
    else suppressed += count;
  }
  return { values, suppressed };
}

/** 0-based rank of the smallest value kept (the k-th), moved to the middle when the k-th from each end would cross. */
function keptRank(count: number, k: number): number {
  return Math.min(k - 1, Math.floor((count - 1) / 2));
}

function rangeOf(values: number[], k: number, asDate: boolean): ColumnProfile['range'] {
  if (values.length < k) return null;
  values.sort((a, b) => a - b);
  // the k-th smallest and k-th largest, so no single extreme value is kept; with fewer than 2k - 1 values they
  // would cross, so both then come from the middle (min = max), never min above max
  const kth = keptRank(values.length, k);
  const min = values[kth] as number;
  const max = values[values.length - 1 - kth] as number;
  const width = (max - min) / HISTOGRAM_BINS || 1;
  const bins = Array.from({ length: HISTOGRAM_BINS }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (const v of values) {
    if (v < min || v > max) continue;
    bins[Math.min(HISTOGRAM_BINS - 1, Math.floor((v - min) / width))].count++;
  }
  const fmt = (v: number) => (asDate ? new Date(v).toISOString() : Math.round(v * 1000) / 1000);
  return {
    min: fmt(min),
    max: fmt(max),
    mean: asDate ? null : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000,
    histogram: bins.filter((b) => b.count >= k).map((b) => ({ from: fmt(b.from), to: fmt(b.to), count: b.count })),
  };
}

function profileColumn(name: string, dataType: string, sample: ReadonlyArray<Record<string, unknown>>, k: number): ColumnProfile {
  const kind = kindOf(dataType);
  const present: unknown[] = [];
  for (const row of sample) if (row[name] !== null && row[name] !== undefined) present.push(row[name]);
  const counts = new Map<string, number>();
  for (const v of present) {
    const text = toText(v);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const profile: ColumnProfile = {
    name,
    dataType,
    kind,
    nullFraction: sample.length === 0 ? 0 : Math.round(((sample.length - present.length) / sample.length) * 10_000) / 10_000,
    distinctCount: counts.size,
    frequencies: counts.size <= LOW_CARDINALITY && present.length > 0 ? keptFrequencies(counts, present.length, k, LOW_CARDINALITY) : null,
    range: null,
    strings: null,
  };
  if (kind === 'number') {
    profile.range = rangeOf(present.map((v) => Number(v)).filter((v) => Number.isFinite(v)), k, false);
  } else if (kind === 'date') {
    profile.range = rangeOf(present.map((v) => (v instanceof Date ? v.getTime() : Date.parse(toText(v).replace(' ', 'T')))).filter((v) => Number.isFinite(v)), k, true);
  } else if (kind === 'string' && present.length > 0) {
    const lengths = present.map((v) => toText(v).length);
    const sorted = [...lengths].sort((a, b) => a - b);
    const patterns = new Map<string, number>();
    for (const v of present) {
      const pattern = characterPattern(toText(v));
      patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
    }
    const kth = keptRank(sorted.length, k);
    profile.strings = {
      minLength: sorted[kth],
      maxLength: sorted[sorted.length - 1 - kth],
      meanLength: Math.round((lengths.reduce((a, b) => a + b, 0) / lengths.length) * 100) / 100,
      patterns: keptFrequencies(patterns, present.length, k, 10).values,
    };
  }
  return profile;
}

const IDENTITY_COLUMNS = {
  given: /^(given_?name|first_?name|fname|forename)$/i,
  family: /^(family_?name|last_?name|lname|surname)$/i,
  birth: /^(birth_?date|date_?of_?birth|dob|birthdate)$/i,
  zip: /^(zip|zip_?code|postal_?code|postcode)$/i,
};

/** The identity columns of a table that holds people, if it has all four. */
function identityColumns(table: TableInfo): Record<keyof typeof IDENTITY_COLUMNS, string> | undefined {
  const found: Partial<Record<keyof typeof IDENTITY_COLUMNS, string>> = {};
  for (const [role, pattern] of Object.entries(IDENTITY_COLUMNS) as Array<[keyof typeof IDENTITY_COLUMNS, RegExp]>) {
    const column = table.columns.find((c) => pattern.test(c.name));
    if (column) found[role] = column.name;
  }
  return found.given && found.family && found.birth && found.zip ? (found as Record<keyof typeof IDENTITY_COLUMNS, string>) : undefined;
}

function randomOrder(provider: Provider): string {
  return provider === 'postgres' ? 'random()' : provider === 'mysql' ? 'rand()' : 'newid()';
}

async function sampleRows(db: Kysely<any>, provider: Provider, table: string, size: number): Promise<Array<Record<string, unknown>>> {
  const q = quoteIdentifier(provider, table);
  const query =
    provider === 'sqlserver'
      ? sql`select top (${sql.raw(String(size))}) * from ${sql.raw(q)} order by ${sql.raw(randomOrder(provider))}`
      : sql`select * from ${sql.raw(q)} order by ${sql.raw(randomOrder(provider))} limit ${sql.raw(String(size))}`;
  return (await query.execute(db)).rows as Array<Record<string, unknown>>;
}

/** Learns a profile of the named tables (already checked to exist in `schema`). */
export async function learnProfile(db: Kysely<any>, schema: SchemaInfo, options: LearnOptions): Promise<LearnedProfile> {
  const salt = randomBytes(16).toString('hex');
  const hashes = new Set<string>();
  const identityTables: string[] = [];
  const tables: TableProfile[] = [];
  for (const name of options.tables) {
    const table = schema.tables.find((t) => t.name === name) as TableInfo;
    const sample = await sampleRows(db, schema.provider, name, options.sampleSize);
    const fanOut: FanOut[] = table.foreignKeys.map((fk) => {
      const perParent = new Map<string, number>();
      for (const row of sample) {
        if (fk.columns.some((c) => row[c] === null || row[c] === undefined)) continue;
        const key = fk.columns.map((c) => toText(row[c])).join('|');
        perParent.set(key, (perParent.get(key) ?? 0) + 1);
      }
      const counts = [...perParent.values()];
      return {
        foreignKey: fk.name,
        columns: fk.columns,
        refTable: fk.refTable,
        parents: counts.length,
        mean: counts.length === 0 ? 0 : Math.round((counts.reduce((a, b) => a + b, 0) / counts.length) * 100) / 100,
        min: counts.length === 0 ? 0 : Math.min(...counts),
        max: counts.length === 0 ? 0 : Math.max(...counts),
      };
    });
    const identity = identityColumns(table);
    if (identity) {
      identityTables.push(name);
      for (const row of sample) {
        const birth = row[identity.birth];
        const birthText = birth instanceof Date ? birth.toISOString().slice(0, 10) : toText(birth ?? '').slice(0, 10);
        hashes.add(identityHash(salt, toText(row[identity.given] ?? ''), toText(row[identity.family] ?? ''), birthText, toText(row[identity.zip] ?? '')));
      }
    }
    tables.push({
      table: name,
      rowCount: table.rowCount,
      sampledRows: sample.length,
      columns: table.columns.map((c) => profileColumn(c.name, c.dataType, sample, options.k)),
      fanOut,
    });
  }
  return {
    name: options.name,
    provider: schema.provider,
    database: schema.database,
    learnedAt: options.now.toISOString(),
    k: options.k,
    sampleSize: options.sampleSize,
    tables,
    identities: identityTables.length > 0 ? { salt, tables: identityTables, count: hashes.size, hashes: [...hashes] } : null,
  };
}
