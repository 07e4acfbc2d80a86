/**
 * The AI triage plugin's own tables: the aggregates it keeps of the monitor's committed messages, so patterns and
 * the upgrade check answer from a few hundred rows instead of re-reading every stored message (a monitor projection,
 * triage-projection.ts, whose position the monitor keeps).
 *
 * - `triage_cursor`: where the aggregate stood before the monitor kept its position (one row; created by the first
 *   migration, read and dropped by the projection's first catch-up).
 * - `triage_failure_buckets`: failed messages per interface, bucket (a minute and an hour of the received time) and
 *   cluster (issue code, field, message type, sending application): count, first and last seen, the latest version
 *   and up to three latest control ids.
 * - `triage_signatures`: the distinct sets of upgrade features an interface's messages showed (version, sender,
 *   software, segments, issue codes, populated fields, code systems, delimiters, encoding), by digest.
 * - `triage_signature_buckets`: messages per interface, signature, minute of the sender's time and minute of the
 *   received time, with the first and last sender time (epoch ms).
 */
import type { Kysely, Migration } from 'kysely';

/** Row of `triage_cursor`. */
export interface CursorRow {
  id: string;
  cursor: string;
}

/** Row of `triage_failure_buckets`. */
export interface FailureBucketRow {
  interface_id: string;
  /** `minute` or `hour`. */
  step: string;
  /** Start of the bucket (ISO 8601 UTC). */
  start: string;
  cluster_key: string;
  code: string;
  field: string;
  message_type: string | null;
  sending_application: string | null;
  standard: string;
  version: string | null;
  messages: number;
  first_seen: string;
  last_seen: string;
  /** JSON array of up to three control ids, oldest first. */
  examples: string;
}

/** Row of `triage_signatures`. */
export interface SignatureRow {
  interface_id: string;
  signature: string;
  /** JSON array of feature keys (`kind\u0000value`). */
  features: string;
}

/** Row of `triage_signature_buckets`. */
export interface SignatureBucketRow {
  interface_id: string;
  signature: string;
  at_minute: string;
  received_minute: string;
  messages: number;
  first_at: number;
  last_at: number;
}

/** The tables as Kysely sees them. */
export interface TriageDatabase {
  triage_cursor: CursorRow;
  triage_failure_buckets: FailureBucketRow;
  triage_signatures: SignatureRow;
  triage_signature_buckets: SignatureBucketRow;
}

/** Migrations of the triage tables. */
export const triageMigrations: Record<string, Migration> = {
  '001_aggregates': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('triage_cursor')
        .ifNotExists()
        .addColumn('id', 'varchar(20)', (c) => c.primaryKey())
        .addColumn('cursor', 'varchar(200)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('triage_failure_buckets')
        .ifNotExists()
        .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('step', 'varchar(6)', (c) => c.notNull())
        .addColumn('start', 'varchar(30)', (c) => c.notNull())
        .addColumn('cluster_key', 'varchar(1000)', (c) => c.notNull())
        .addColumn('code', 'varchar(200)', (c) => c.notNull())
        .addColumn('field', 'varchar(200)', (c) => c.notNull())
        .addColumn('message_type', 'varchar(100)')
        .addColumn('sending_application', 'varchar(300)')
        .addColumn('standard', 'varchar(10)', (c) => c.notNull())
        .addColumn('version', 'varchar(50)')
        .addColumn('messages', 'integer', (c) => c.notNull())
        .addColumn('first_seen', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_seen', 'varchar(30)', (c) => c.notNull())
        .addColumn('examples', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('triage_failure_buckets_pk', ['interface_id', 'step', 'start', 'cluster_key'])
        .execute();
      await db.schema
        .createTable('triage_signatures')
        .ifNotExists()
        .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('signature', 'varchar(64)', (c) => c.notNull())
        .addColumn('features', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('triage_signatures_pk', ['interface_id', 'signature'])
        .execute();
      await db.schema
        .createTable('triage_signature_buckets')
        .ifNotExists()
        .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
        .addColumn('signature', 'varchar(64)', (c) => c.notNull())
        .addColumn('at_minute', 'varchar(30)', (c) => c.notNull())
        .addColumn('received_minute', 'varchar(30)', (c) => c.notNull())
        .addColumn('messages', 'integer', (c) => c.notNull())
        .addColumn('first_at', 'double precision', (c) => c.notNull())
        .addColumn('last_at', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('triage_signature_buckets_pk', ['interface_id', 'signature', 'at_minute', 'received_minute'])
        .execute();
      await db.schema
        .createIndex('triage_signature_buckets_window')
        .ifNotExists()
        .on('triage_signature_buckets')
        .columns(['interface_id', 'received_minute'])
        .execute();
    },
  },
};
