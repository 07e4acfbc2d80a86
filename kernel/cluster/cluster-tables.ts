/**
 * The kernel's tables of a team on one store: the nodes with their heartbeats, and one row per scheduled job
 * occurrence claimed by a node (the once-per-cluster guarantee of the scheduler). Times are epoch milliseconds of
 * the database's clock on PostgreSQL, so nodes whose clocks differ still agree on who is alive.
 */
import type { Kysely, Migration } from 'kysely';

/** A node of the team, as stored. */
export interface NodeRow {
  name: string;
  /** Random id of the running process, so a second process under the same name is told apart. */
  instance: string;
  version: string;
  host: string;
  pid: number;
  started_at_ms: number | string;
  heartbeat_ms: number | string;
}

/** A claimed occurrence of a scheduled job. */
export interface JobRunRow {
  job: string;
  /** The occurrence: its scheduled instant, ISO 8601 to the minute (or the second for second-level schedules). */
  slot: string;
  node: string;
  claimed_at_ms: number | string;
}

/** The tables as Kysely sees them. */
export interface ClusterDatabase {
  kernel_nodes: NodeRow;
  kernel_job_runs: JobRunRow;
}

/** Creates the nodes and job-run tables. */
export const clusterMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('kernel_nodes')
      .ifNotExists()
      .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('instance', 'varchar(36)', (c) => c.notNull())
      .addColumn('version', 'varchar(50)', (c) => c.notNull())
      .addColumn('host', 'varchar(255)', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('heartbeat_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('kernel_job_runs')
      .ifNotExists()
      .addColumn('job', 'varchar(200)', (c) => c.notNull())
      .addColumn('slot', 'varchar(40)', (c) => c.notNull())
      .addColumn('node', 'varchar(200)', (c) => c.notNull())
      .addColumn('claimed_at_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('kernel_job_runs_pk', ['job', 'slot'])
      .execute();
  },
};
