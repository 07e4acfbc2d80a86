/**
 * What a seed plan depends on, read from the connected database before anything is written: the largest keys and
 * unique numbers already used, a few keys of referenced tables, the profiles learned from it; and whether the job
 * can be seeded at all.
 */
import { sql } from 'kysely';
import type { ConnectedDatabase } from '../database/database-session.ts';
import type { ProfileStore } from '../database/profile-store.ts';
import type { LearnedProfile } from '../database/profile-learner.ts';
import type { CellValue } from '../output/default-patient-schema.ts';
import { populationErrors } from '../errors.ts';
import type { GenerationJobs, JobParams } from '../generation/generation-jobs.ts';
import { buildSeedPlan, type PlanInputs, type SeedPlan, type UniquePlan } from './seed-plan.ts';
import { quoteIdentifier } from '../output/sql-dialect.ts';

/** The parameters of a job that can be seeded: completed, written as SQL or CSV (refused otherwise). */
export async function seedableJob(jobs: GenerationJobs, jobId: string): Promise<JobParams> {
  const job = await jobs.completed(jobId, 'seeding');
  const params = JSON.parse(job.params) as JobParams;
  if (params.format !== 'sql' && params.format !== 'csv') throw populationErrors.create('SEED_FORMAT_UNSUPPORTED', { id: jobId, format: params.format });
  return params;
}

/** Refuses a plan with no table of the population to fill (SEED_NO_TARGET_TABLES). */
export function requireTables(plan: SeedPlan): void {
  if (plan.tables.length === 0) {
    throw populationErrors.create('SEED_NO_TARGET_TABLES', { tables: 'patients, encounters, conditions, observations, medications, allergies' });
  }
}

/** Reads what the plan depends on: the largest integer keys and a few keys of referenced tables. */
export async function planInputs(connected: ConnectedDatabase, profiles: readonly LearnedProfile[], prefix: string): Promise<PlanInputs> {
  const { schema, connection } = connected;
  const provider = schema.provider;
  const maxKeys = new Map<string, number>();
  const existingKeys = new Map<string, CellValue[]>();
  const draft = buildSeedPlan({ schema, profiles, maxKeys, existingKeys, textKeyPrefix: prefix });
  for (const t of draft.tables) {
    if (t.key.kind !== 'integer') continue;
    const result = await sql<{ m: unknown }>`select max(${sql.raw(quoteIdentifier(provider, t.keyColumn))}) as m from ${sql.raw(quoteIdentifier(provider, t.table))}`.execute(connection.db);
    maxKeys.set(t.table, Number(result.rows[0]?.m ?? 0) || 0);
  }
  const uniqueOffsets = new Map<string, number>();
  for (const t of draft.tables) {
    for (const c of t.columns) {
      if (c.source === 'unique' && c.unique && c.unique.kind !== 'text') {
        uniqueOffsets.set(`${t.table}.${c.column}`, await largestUsedNumber(connected, t.table, c.column, c.unique));
      }
    }
  }
  for (const t of draft.tables) {
    for (const c of t.columns) {
      if (c.source !== 'existing-parent' || !c.from || existingKeys.has(c.from)) continue;
      const parent = schema.tables.find((x) => x.name === c.from);
      const key = parent?.primaryKey[0];
      if (!key) continue;
      const q = quoteIdentifier(provider, key);
      const table = quoteIdentifier(provider, c.from);
      const query =
        provider === 'sqlserver'
          ? sql<{ k: CellValue }>`select top 100 ${sql.raw(q)} as k from ${sql.raw(table)} order by ${sql.raw(q)}`
          : sql<{ k: CellValue }>`select ${sql.raw(q)} as k from ${sql.raw(table)} order by ${sql.raw(q)} limit 100`;
      existingKeys.set(c.from, (await query.execute(connection.db)).rows.map((r) => r.k));
    }
  }
  return { schema, profiles, maxKeys, existingKeys, textKeyPrefix: prefix, uniqueOffsets };
}

/**
 * The largest number a unique column already holds: its largest value (integers), or the largest number among its
 * values of the seed's shape, `prefix` then digits (`SYN00001000`: 1000). One grouped query, read through the
 * column's index where there is one. A value of that shape with something other than digits after the prefix cannot
 * be numbered past: the seed then stops before inserting anything, naming the column.
 */
async function largestUsedNumber(
  connected: ConnectedDatabase,
  table: string,
  column: string,
  unique: Exclude<UniquePlan, { kind: 'text' }>,
): Promise<number> {
  const provider = connected.schema.provider;
  const q = sql.raw(quoteIdentifier(provider, column));
  const from = sql.raw(quoteIdentifier(provider, table));
  if (unique.kind === 'integer') {
    const result = await sql<{ m: unknown }>`select max(${q}) as m from ${from}`.execute(connected.connection.db);
    return Number(result.rows[0]?.m ?? 0) || 0;
  }
  const length = sql.raw(provider === 'sqlserver' ? 'len' : 'char_length');
  // `!` escapes LIKE's wildcards (a backslash would need escaping itself in MySQL's string literals).
  const pattern = `${unique.prefix.replace(/[!%_[]/g, (c) => `!${c}`)}%`;
  const result = await sql<{ m: unknown }>`select max(${q}) as m from ${from} where ${q} like ${pattern} escape '!' and ${length}(${q}) >= ${unique.prefix.length + unique.width} group by ${length}(${q})`.execute(connected.connection.db);
  let largest = 0;
  for (const row of result.rows) {
    const digits = String(row.m).slice(unique.prefix.length);
    if (!/^\d+$/.test(digits)) {
      throw new Error(`column ${table}.${column} is unique and holds "${String(row.m).slice(0, 40)}", which starts like the seed's values (${unique.prefix} and digits) but cannot be numbered past`);
    }
    largest = Math.max(largest, Number(digits));
  }
  return largest;
}

/** Profiles learned from the connected database. */
export async function profilesOf(store: ProfileStore, connected: ConnectedDatabase): Promise<LearnedProfile[]> {
  const out: LearnedProfile[] = [];
  for (const summary of await store.list()) {
    const profile = await store.get(summary.name);
    if (profile.provider === connected.schema.provider && profile.database === connected.schema.database) out.push(profile);
  }
  return out;
}
