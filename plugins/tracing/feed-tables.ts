/**
 * Tracing's feed tables (`tracing_feed`, one narrow row per stored message, see feed-index.ts) and their migrations.
 * The feed's position in the message stream is the monitor's (a projection, feed-projection.ts); the table that held
 * it before (`tracing_feed_cursor`) is read once and dropped when the monitor first keeps it.
 */
import { sql, type Kysely, type Migration } from 'kysely';

/** One message as the feed keeps it. */
export interface FeedRow {
  interface_id: string;
  received_ms: number | string;
  file_id: number | string;
  index_in_file: number | string;
  sending_application: string | null;
  sending_facility: string | null;
  control_id: string | null;
  sequence_number: number | string | null;
  acknowledged_control_id: string | null;
  message_type: string;
  message_time_ms: number | string | null;
  patient_id: string | null;
  patient_authority: string | null;
  content_digest: string | null;
  /** 1 when another row of the interface has the same control id (set on writing; 0 by default). */
  repeated?: number;
}

/** The feed's former position (see the file comment). */
export interface CursorRow {
  name: string;
  cursor: string;
}

/** The feed's tables as Kysely sees them. */
export interface FeedTables {
  tracing_feed: FeedRow;
  tracing_feed_cursor: CursorRow;
}

/** Migration of the feed tables; on SQLite (`dialect`) the feed is clustered by its key. */
export function feedMigration(dialect: 'sqlite' | 'postgres'): Migration {
  return {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tracing_feed')
        .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('received_ms', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addColumn('index_in_file', 'integer', (c) => c.notNull())
        .addColumn('sending_application', 'varchar(200)')
        .addColumn('sending_facility', 'varchar(200)')
        .addColumn('control_id', 'varchar(200)')
        .addColumn('sequence_number', 'bigint')
        .addColumn('acknowledged_control_id', 'varchar(200)')
        .addColumn('message_type', 'varchar(41)', (c) => c.notNull())
        .addColumn('message_time_ms', 'bigint')
        .addColumn('patient_id', 'varchar(200)')
        .addColumn('patient_authority', 'varchar(200)')
        .addColumn('content_digest', 'varchar(64)')
        .addPrimaryKeyConstraint('tracing_feed_pk', ['interface_id', 'received_ms', 'file_id', 'index_in_file'])
        // on SQLite the rows themselves are kept in key order: a window is one contiguous range of narrow rows
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await db.schema
        .createTable('tracing_feed_cursor')
        .addColumn('name', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('cursor', 'varchar(200)', (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * Migration of the feed's control ids: an index by interface and control id (latency looks a destination
 * message's key up in the source's rows instead of reading them all), and `repeated`, set on every row whose control
 * id another row of its interface carries too (the feed's rows are only added, or dropped with their interface, so a
 * row once repeated stays so). A window whose rows are none of them repeated holds each control id once.
 */
export function feedControlIdMigration(): Migration {
  return {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema.alterTable('tracing_feed').addColumn('repeated', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // `repeated` last: the marking finds a control id's unmarked rows in the index alone
      await db.schema.createIndex('tracing_feed_control_id').on('tracing_feed').columns(['interface_id', 'control_id', 'received_ms', 'repeated']).execute();
      await sql`update tracing_feed set repeated = 1 where control_id <> '' and (interface_id, control_id) in (
        select interface_id, control_id from tracing_feed where control_id <> '' group by interface_id, control_id having count(*) > 1)`.execute(db);
    },
  };
}

