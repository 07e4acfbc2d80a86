/**
 * The dry run of a seed: the plan of seeding a job into the connected database (tables in order, keys, statements,
 * the first rows of each table), made exactly as a seed makes it, writing nothing.
 */
import { createFastRandom, type SyntheticDataService } from '../../synthetic-data/api.ts';
import type { ConnectedDatabase } from '../database/database-session.ts';
import type { ProfileStore } from '../database/profile-store.ts';
import type { CellValue } from '../output/default-patient-schema.ts';
import type { GenerationJobs } from '../generation/generation-jobs.ts';
import { createPatientGenerator } from '../generation/patient-generator.ts';
import { loadLanes, loadMethod, PATIENTS_PER_BATCH } from './seed-loaders.ts';
import { planInputs, profilesOf, requireTables, seedableJob } from './seed-inputs.ts';
import { buildSeedPlan, createRowBuilder, type TablePlan, translateKey } from './seed-plan.ts';
import { insertSql, quoteIdentifier, type Provider } from '../output/sql-dialect.ts';

/** What a dry run reads: the jobs, the learned profiles and the synthetic data. */
export interface DryRunDeps {
  jobs: GenerationJobs;
  profiles: ProfileStore;
  synthetic: SyntheticDataService;
}

/** The plan of seeding a job into the connected database, with statements and first rows; changes nothing. */
export async function dryRunSeed(deps: DryRunDeps, jobId: string, connected: ConnectedDatabase) {
  const params = await seedableJob(deps.jobs, jobId);
  const profiles = await profilesOf(deps.profiles, connected);
  const inputs = await planInputs(connected, profiles, 'syn-dryrun-');
  const plan = buildSeedPlan(inputs);
  requireTables(plan);
  const job = await deps.jobs.get(jobId);
  const random = createFastRandom(deps.synthetic.createRandom(params.seed));
  const generator = createPatientGenerator(random, params.geographicFocus);
  const rowsOf = createRowBuilder(plan, inputs, params.seed, random.referenceDate.toISOString());
  const firstRows = new Map<string, CellValue[][]>(plan.tables.map((t) => [t.table, []]));
  for (let i = 0; i < Math.min(params.count, 20); i++) {
    const patient = generator.next();
    for (const t of plan.tables) {
      const bucket = firstRows.get(t.table) as CellValue[][];
      for (const r of rowsOf(t, patient)) if (bucket.length < 3) bucket.push(r);
    }
  }
  const provider = connected.schema.provider;
  return {
    jobId,
    database: connected.connection.target.label,
    provider,
    method: loadMethod(provider),
    transactions: `one per ${PATIENTS_PER_BATCH} patients${loadLanes(provider) > 1 ? `, ${loadLanes(provider)} connections loading side by side` : ''}`,
    steps: plan.tables.map((t, index) => {
      const columns = t.columns.map((c) => c.column);
      const rowCount = job.counts[t.source] ?? 0;
      const first = firstRows.get(t.table) ?? [];
      return {
        order: index + 1,
        table: t.table,
        from: t.source,
        rowCount,
        keyColumn: t.keyColumn,
        keys: t.key.kind === 'integer' ? `${translateKey(t.key, 1)} to ${translateKey(t.key, rowCount)}` : `${t.key.prefix}1 to ${t.key.prefix}${rowCount}`,
        columns: t.columns,
        statement: statementOf(provider, t, columns),
        sample: first.length > 0 ? insertSql(provider, t.table, columns, first) : null,
        firstRows: first.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]]))),
      };
    }),
    untouched: plan.untouched,
    cycleBreakers: plan.cycleBreakers,
    cycles: connected.schema.cycles,
  };
}

/** The statement the engine's fast path runs for a table, as the dry run shows it. */
function statementOf(provider: Provider, t: TablePlan, columns: string[]): string {
  const q = (name: string) => quoteIdentifier(provider, name);
  if (provider === 'postgres') return `COPY ${q(t.table)} (${columns.map(q).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
  if (provider === 'mysql') return `INSERT INTO ${q(t.table)} (${columns.map(q).join(', ')}) VALUES (...), (...) -- 2000 rows per statement`;
  return t.keyIsGenerated
    ? `SET IDENTITY_INSERT ${q(t.table)} ON; INSERT INTO ${q(t.table)} (${columns.map(q).join(', ')}) VALUES (...) -- 900 rows per statement; SET IDENTITY_INSERT ${q(t.table)} OFF;`
    : `BULK INSERT (mssql Table) ${q(t.table)} (${columns.map(q).join(', ')})`;
}
