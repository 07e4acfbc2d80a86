/**
 * The population plugin's stored records (jobs, learned profiles, seed runs) and their migrations. Rows hold only
 * what a caller may see again: never a connection string or a password, never a real row of a learned database.
 */
import type { Kysely, Migration } from 'kysely';

/** Lifecycle states of a generation job. */
export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A generation job row. */
export interface JobRow {
  id: string;
  state: JobState;
  /** JSON of the job's parameters. */
  params: string;
  generated: number;
  total: number;
  /** JSON: rows per table written so far. */
  counts: string;
  /** JSON: the files (name, bytes, sha256, records, contentType) once completed. */
  files: string | null;
  error: string | null;
  /** JSON analytics and compliance results, once completed. */
  analytics: string | null;
  compliance: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A learned profile row. */
export interface ProfileRow {
  name: string;
  created_at: string;
  /** JSON of the profile (aggregates only). */
  profile: string;
}

/** A seed run row: what was inserted where, as key ranges per table. */
export interface SeedRunRow {
  id: string;
  job_id: string;
  /** Hash of provider, host, port and database (never the password) naming the target database. */
  database_key: string;
  /** provider://host:port/database, for messages. */
  database_label: string;
  state: 'running' | 'completed' | 'failed' | 'cleaned';
  /** JSON manifest: per table, the key column and the inserted keys. */
  manifest: string;
  inserted: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Tables of the plugin. */
export interface PopulationTables {
  population_jobs: JobRow;
  population_profiles: ProfileRow;
  population_seed_runs: SeedRunRow;
}

/** Migrations of the plugin. */
export const populationMigrations: Record<string, Migration> = {
  '001_population': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('population_jobs')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('generated', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('counts', 'text', (c) => c.notNull())
        .addColumn('files', 'text')
        .addColumn('error', 'text')
        .addColumn('analytics', 'text')
        .addColumn('compliance', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('started_at', 'varchar(32)')
        .addColumn('finished_at', 'varchar(32)')
        .execute();
      await db.schema
        .createTable('population_profiles')
        .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('population_seed_runs')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('database_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('database_label', 'varchar(300)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('manifest', 'text', (c) => c.notNull())
        .addColumn('inserted', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('population_seed_runs_database').on('population_seed_runs').column('database_key').execute();
    },
  },
};
