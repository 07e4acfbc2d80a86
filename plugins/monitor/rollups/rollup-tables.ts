/**
 * Tables of the roll-ups beyond the minute rows of `001_monitor`: hour and day roll-ups per interface, their latency
 * histograms, and per dimension value (message type^event, error code, sending facility) at every step. Migration
 * `003_rollup_dimensions` creates them and adds the stale-latency and clock-skew counts to the minute rows. Every
 * read by window is served by a primary key or index that starts with the step (and dimension) and the bucket start,
 * so its cost follows the window's buckets, not the stored history.
 */
import type { Kysely, Migration } from 'kysely';

/** Hour or day roll-up of one interface. */
export interface RollupRow {
  /** `hour` or `day` (minutes keep their own table, `monitor_minutes`). */
  step: string;
  interface_id: string;
  /** Start of the bucket, ISO 8601 UTC. */
  start: string;
  messages: number;
  failed: number;
  latency_sum: number;
  latency_count: number;
  stale_latency: number;
  clock_skew: number;
}

/** Latency histogram of an hour or day: count of messages per bucket. */
export interface RollupLatencyRow {
  step: string;
  interface_id: string;
  start: string;
  bucket: number;
  count: number;
}

/** Roll-up of one dimension value of one interface in one bucket (minute, hour or day). */
export interface RollupDimensionRow {
  step: string;
  /** `messageType`, `errorCode` or `facility`. */
  dimension: string;
  start: string;
  interface_id: string;
  value: string;
  messages: number;
  failed: number;
  latency_sum: number;
  latency_count: number;
  stale_latency: number;
  clock_skew: number;
}

/** The roll-up tables as Kysely sees them. */
export interface RollupTables {
  monitor_rollups: RollupRow;
  monitor_rollup_latency: RollupLatencyRow;
  monitor_rollup_dimensions: RollupDimensionRow;
}

/** Migration `003_rollup_dimensions`. */
export const rollupDimensionsMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitor_minutes').addColumn('stale_latency', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('monitor_minutes').addColumn('clock_skew', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // series and totals over every interface read minutes by time alone
    await db.schema.createIndex('monitor_minutes_minute').on('monitor_minutes').column('minute').execute();
    await db.schema.createIndex('monitor_minute_latency_minute').on('monitor_minute_latency').column('minute').execute();

    await db.schema
      .createTable('monitor_rollups')
      .addColumn('step', 'varchar(6)', (c) => c.notNull())
      .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('start', 'varchar(30)', (c) => c.notNull())
      .addColumn('messages', 'integer', (c) => c.notNull())
      .addColumn('failed', 'integer', (c) => c.notNull())
      .addColumn('latency_sum', 'double precision', (c) => c.notNull())
      .addColumn('latency_count', 'integer', (c) => c.notNull())
      .addColumn('stale_latency', 'integer', (c) => c.notNull())
      .addColumn('clock_skew', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_rollups_pk', ['step', 'interface_id', 'start'])
      .execute();
    await db.schema.createIndex('monitor_rollups_start').on('monitor_rollups').columns(['step', 'start']).execute();

    await db.schema
      .createTable('monitor_rollup_latency')
      .addColumn('step', 'varchar(6)', (c) => c.notNull())
      .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('start', 'varchar(30)', (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_rollup_latency_pk', ['step', 'interface_id', 'start', 'bucket'])
      .execute();
    await db.schema.createIndex('monitor_rollup_latency_start').on('monitor_rollup_latency').columns(['step', 'start']).execute();

    await db.schema
      .createTable('monitor_rollup_dimensions')
      .addColumn('step', 'varchar(6)', (c) => c.notNull())
      .addColumn('dimension', 'varchar(20)', (c) => c.notNull())
      .addColumn('start', 'varchar(30)', (c) => c.notNull())
      .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('value', 'varchar(200)', (c) => c.notNull())
      .addColumn('messages', 'integer', (c) => c.notNull())
      .addColumn('failed', 'integer', (c) => c.notNull())
      .addColumn('latency_sum', 'double precision', (c) => c.notNull())
      .addColumn('latency_count', 'integer', (c) => c.notNull())
      .addColumn('stale_latency', 'integer', (c) => c.notNull())
      .addColumn('clock_skew', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_rollup_dimensions_pk', ['step', 'dimension', 'start', 'interface_id', 'value'])
      .execute();
  },
};

/**
 * Migration `005_rollup_covering_indexes`: the reads over every interface (a series, a top-N) sum the parts of every
 * row in a range of bucket starts; indexes that hold those parts answer them without visiting the table rows.
 */
export const rollupCoveringIndexesMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    const parts = ['messages', 'failed', 'latency_sum', 'latency_count', 'stale_latency', 'clock_skew'];
    await db.schema.dropIndex('monitor_rollups_start').execute();
    await db.schema.createIndex('monitor_rollups_start').on('monitor_rollups').columns(['step', 'start', 'interface_id', ...parts]).execute();
    await db.schema
      .createIndex('monitor_rollup_dimensions_parts')
      .on('monitor_rollup_dimensions')
      .columns(['step', 'dimension', 'start', 'interface_id', 'value', ...parts])
      .execute();
    await db.schema.dropIndex('monitor_minutes_minute').execute();
    await db.schema.createIndex('monitor_minutes_minute').on('monitor_minutes').columns(['minute', 'interface_id', ...parts]).execute();
  },
};

/**
 * Migration `009_rollup_dimensions_by_interface`: deleting an interface removes its dimension roll-ups in the same
 * transaction as its other rows; their key starts with the step, dimension and bucket, so without this index that
 * delete would read every dimension row of every interface. With it, the delete costs the deleted interface's rows.
 */
export const rollupDimensionsByInterfaceMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    await db.schema.createIndex('monitor_rollup_dimensions_interface').on('monitor_rollup_dimensions').column('interface_id').execute();
  },
};
