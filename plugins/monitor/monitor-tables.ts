/**
 * The monitor's tables and their migrations. Times are ISO 8601 UTC strings of one fixed length, so text order is
 * time order on both SQLite and PostgreSQL. Every query of metrics, alerts and messages by window is served by an
 * index that starts with the interface and the time, so its cost follows the window, not the table.
 */
import { sql, type Generated, type Kysely, type Migration, type Selectable } from 'kysely';
import { alertAcknowledgedByMigration, alertEscalationMigration } from './alerts/alert-migration.ts';
import {
  rollupCoveringIndexesMigration,
  rollupDimensionsByInterfaceMigration,
  rollupDimensionsMigration,
  type RollupTables,
} from './rollups/rollup-tables.ts';
import { messageSearchMigration } from './messages/message-text-search.ts';
import { projectionPositionsMigration } from './projections/projection-positions.ts';
import { teamMigration, type PlacementRow } from './team/team-migration.ts';

/** A monitored interface. */
export interface InterfaceRow {
  id: string;
  name: string;
  directory_path: string;
  file_pattern: string;
  profile_name: string | null;
  validation_mode: string;
  enabled: number;
  recursive: number;
  use_polling: number;
  /** JSON of the alert rule overrides. */
  alert_rules: string;
  /** `hl7`, `fhir`, `ncpdp` or `auto` (004). */
  standard: string;
  created_at: string;
  updated_at: string;
}

/** One file the monitor read (the ledger), as stored. */
export interface FileTable {
  id: Generated<number>;
  interface_id: string;
  /** Path relative to the watched folder, `/` separated. */
  path: string;
  size: number;
  mtime_ms: number;
  /** SHA-256 (hex) of the bytes read. */
  content_hash: string;
  message_count: number;
  failed_count: number;
  /**
   * `ingested`, `unparsable`, `empty`, `replaced` (a newer file took the path) or `partial` (a file committed in
   * slices whose last slice is not stored yet).
   */
  state: string;
  error: string | null;
  first_read_at: string;
  last_read_at: string;
}

/** A ledger row as read. */
export type FileRow = Selectable<FileTable>;

/** One stored message. */
export interface MessageRow {
  file_id: number;
  index_in_file: number;
  interface_id: string;
  received_at: string;
  message_time: string | null;
  message_type: string | null;
  trigger_event: string | null;
  version: string | null;
  control_id: string | null;
  sending_application: string | null;
  sending_facility: string | null;
  /** JSON array of `{id, assigningAuthority}`. */
  patient_ids: string;
  account_number: string | null;
  visit_number: string | null;
  is_valid: number;
  /** JSON arrays of issues. */
  errors: string;
  warnings: string;
  latency_ms: number | null;
  raw: string | null;
  /** `hl7`, `fhir` or `ncpdp` (002). */
  standard: string;
  receiving_application: string | null;
  receiving_facility: string | null;
  /** HL7 MSH-13. */
  sequence_number: number | string | null;
  /** HL7 MSA-2. */
  acknowledged_control_id: string | null;
  /** JSON of the sending software (`{vendor, version, product, installDate}`), or null. */
  software: string | null;
  /** Segment ids (or resource types) present, space separated in first-seen order; null when not read. */
  segment_ids: string | null;
  /** `ok`, `none`, `stale` or `skew`; null on rows written before the class was kept (derived from latency_ms). */
  latency_class: string | null;
  /** sha256 (hex) of the message's text; null on rows written before the digest was kept. */
  content_digest: string | null;
}

/** Identifiers a message names, for look-ups by patient or account. */
export interface MessageIdentifierRow {
  file_id: number;
  index_in_file: number;
  /** `patient` or `account`. */
  kind: string;
  value: string;
  received_at: string;
  /** The identifier's assigning authority (patients; 002), or null. */
  assigning_authority: string | null;
}

/** Minute roll-up of one interface. */
export interface MinuteRow {
  interface_id: string;
  minute: string;
  messages: number;
  failed: number;
  latency_sum: number;
  latency_count: number;
  /** Messages whose latency was stale (beyond the horizon) or clock skew (in the future), kept out of the sums. */
  stale_latency: Generated<number>;
  clock_skew: Generated<number>;
  reachable: number | null;
  enabled: number | null;
}

/** Latency histogram of one minute: count of messages per bucket. */
export interface MinuteLatencyRow {
  interface_id: string;
  minute: string;
  bucket: number;
  count: number;
}

/** An alert (one per episode). */
export interface AlertRow {
  id: string;
  interface_id: string;
  interface_name: string;
  rule: string;
  severity: string;
  title: string;
  message: string;
  triggered_at: string;
  cleared_at: string | null;
  acknowledged_at: string | null;
  /** Who acknowledged it (see Alert.acknowledgedBy); null before, and for alerts acknowledged before it was kept. */
  acknowledged_by?: string | null;
  /** When the episode's severity last rose; null while it kept its first severity. */
  escalated_at: string | null;
}

/** The monitor's database as Kysely sees it. */
export interface MonitorDatabase extends RollupTables {
  monitor_interfaces: InterfaceRow;
  monitor_files: FileTable;
  monitor_messages: MessageRow;
  monitor_message_identifiers: MessageIdentifierRow;
  monitor_minutes: MinuteRow;
  monitor_minute_latency: MinuteLatencyRow;
  monitor_alerts: AlertRow;
  monitor_interface_placement: PlacementRow;
}

/** Migrations of the monitor plugin; `dialect` picks the auto-increment column type. */
export function monitorMigrations(dialect: 'sqlite' | 'postgres'): Record<string, Migration> {
  return {
    '001_monitor': {
      // migrations run before table types exist
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('monitor_interfaces')
          .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
          .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
          .addColumn('directory_path', 'varchar(4096)', (c) => c.notNull())
          .addColumn('file_pattern', 'varchar(1000)', (c) => c.notNull())
          .addColumn('profile_name', 'varchar(200)')
          .addColumn('validation_mode', 'varchar(20)', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull())
          .addColumn('recursive', 'integer', (c) => c.notNull())
          .addColumn('use_polling', 'integer', (c) => c.notNull())
          .addColumn('alert_rules', 'text', (c) => c.notNull())
          .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('monitor_files')
          .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
          .addColumn('path', 'varchar(4096)', (c) => c.notNull())
          .addColumn('size', 'double precision', (c) => c.notNull())
          .addColumn('mtime_ms', 'double precision', (c) => c.notNull())
          .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
          .addColumn('message_count', 'integer', (c) => c.notNull())
          .addColumn('failed_count', 'integer', (c) => c.notNull())
          .addColumn('state', 'varchar(20)', (c) => c.notNull())
          .addColumn('error', 'text')
          .addColumn('first_read_at', 'varchar(30)', (c) => c.notNull())
          .addColumn('last_read_at', 'varchar(30)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('monitor_files_path').on('monitor_files').columns(['interface_id', 'path', 'state']).execute();

        await db.schema
          .createTable('monitor_messages')
          .addColumn('file_id', 'integer', (c) => c.notNull())
          .addColumn('index_in_file', 'integer', (c) => c.notNull())
          .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
          .addColumn('received_at', 'varchar(30)', (c) => c.notNull())
          .addColumn('message_time', 'varchar(30)')
          .addColumn('message_type', 'varchar(20)')
          .addColumn('trigger_event', 'varchar(20)')
          .addColumn('version', 'varchar(20)')
          .addColumn('control_id', 'varchar(200)')
          .addColumn('sending_application', 'varchar(200)')
          .addColumn('sending_facility', 'varchar(200)')
          .addColumn('patient_ids', 'text', (c) => c.notNull())
          .addColumn('account_number', 'varchar(200)')
          .addColumn('visit_number', 'varchar(200)')
          .addColumn('is_valid', 'integer', (c) => c.notNull())
          .addColumn('errors', 'text', (c) => c.notNull())
          .addColumn('warnings', 'text', (c) => c.notNull())
          .addColumn('latency_ms', 'double precision')
          .addColumn('raw', 'text')
          .addPrimaryKeyConstraint('monitor_messages_pk', ['file_id', 'index_in_file'])
          .execute();
        await db.schema
          .createIndex('monitor_messages_window')
          .on('monitor_messages')
          .columns(['interface_id', 'received_at'])
          .execute();
        await db.schema.createIndex('monitor_messages_received').on('monitor_messages').column('received_at').execute();
        await db.schema.createIndex('monitor_messages_control').on('monitor_messages').columns(['control_id', 'received_at']).execute();

        await db.schema
          .createTable('monitor_message_identifiers')
          .addColumn('file_id', 'integer', (c) => c.notNull())
          .addColumn('index_in_file', 'integer', (c) => c.notNull())
          .addColumn('kind', 'varchar(10)', (c) => c.notNull())
          .addColumn('value', 'varchar(200)', (c) => c.notNull())
          .addColumn('received_at', 'varchar(30)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('monitor_message_identifiers_lookup')
          .on('monitor_message_identifiers')
          .columns(['kind', 'value', 'received_at'])
          .execute();
        await db.schema
          .createIndex('monitor_message_identifiers_message')
          .on('monitor_message_identifiers')
          .columns(['file_id', 'index_in_file'])
          .execute();

        await db.schema
          .createTable('monitor_minutes')
          .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
          .addColumn('minute', 'varchar(30)', (c) => c.notNull())
          .addColumn('messages', 'integer', (c) => c.notNull())
          .addColumn('failed', 'integer', (c) => c.notNull())
          .addColumn('latency_sum', 'double precision', (c) => c.notNull())
          .addColumn('latency_count', 'integer', (c) => c.notNull())
          .addColumn('reachable', 'integer')
          .addColumn('enabled', 'integer')
          .addPrimaryKeyConstraint('monitor_minutes_pk', ['interface_id', 'minute'])
          .execute();

        await db.schema
          .createTable('monitor_minute_latency')
          .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
          .addColumn('minute', 'varchar(30)', (c) => c.notNull())
          .addColumn('bucket', 'integer', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('monitor_minute_latency_pk', ['interface_id', 'minute', 'bucket'])
          .execute();

        await db.schema
          .createTable('monitor_alerts')
          .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
          .addColumn('interface_id', 'varchar(36)', (c) => c.notNull())
          .addColumn('interface_name', 'varchar(200)', (c) => c.notNull())
          .addColumn('rule', 'varchar(100)', (c) => c.notNull())
          .addColumn('severity', 'varchar(20)', (c) => c.notNull())
          .addColumn('title', 'varchar(500)', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('triggered_at', 'varchar(30)', (c) => c.notNull())
          .addColumn('cleared_at', 'varchar(30)')
          .addColumn('acknowledged_at', 'varchar(30)')
          .execute();
        await db.schema.createIndex('monitor_alerts_triggered').on('monitor_alerts').column('triggered_at').execute();
        await db.schema
          .createIndex('monitor_alerts_open')
          .on('monitor_alerts')
          .columns(['interface_id', 'rule', 'cleared_at'])
          .execute();
      },
    },
    '002_message_facts': {
      // the facts every standard gives (docs: the monitor's facts table in the README), the identifiers' authority,
      // and indexes in the stable order of the query contract (received time, file, index), so a keyset page is one
      // index range whether or not it names interfaces
      async up(db: Kysely<any>) {
        const facts: Array<[string, 'varchar(200)' | 'text' | 'bigint' | 'varchar(10)']> = [
          ['receiving_application', 'varchar(200)'],
          ['receiving_facility', 'varchar(200)'],
          ['sequence_number', 'bigint'],
          ['acknowledged_control_id', 'varchar(200)'],
          ['software', 'text'],
          ['segment_ids', 'text'],
          ['latency_class', 'varchar(10)'],
        ];
        await db.schema.alterTable('monitor_messages').addColumn('standard', 'varchar(10)', (c) => c.notNull().defaultTo('hl7')).execute();
        for (const [name, type] of facts) await db.schema.alterTable('monitor_messages').addColumn(name, type).execute();
        await db.schema.alterTable('monitor_message_identifiers').addColumn('assigning_authority', 'varchar(200)').execute();
        await db.schema.dropIndex('monitor_messages_received').execute();
        await db.schema.dropIndex('monitor_messages_window').execute();
        await db.schema
          .createIndex('monitor_messages_order')
          .on('monitor_messages')
          .columns(['received_at', 'file_id', 'index_in_file'])
          .execute();
        await db.schema
          .createIndex('monitor_messages_interface_order')
          .on('monitor_messages')
          .columns(['interface_id', 'received_at', 'file_id', 'index_in_file'])
          .execute();
      },
    },
    '003_rollup_dimensions': rollupDimensionsMigration,
    '004_alert_escalation': alertEscalationMigration,
    '005_rollup_covering_indexes': rollupCoveringIndexesMigration,
    '006_content_digest': {
      // the digest of each message's text outlives raw retention, so exact resends are told from reused control ids
      async up(db: Kysely<any>) {
        await db.schema.alterTable('monitor_messages').addColumn('content_digest', 'varchar(64)').execute();
      },
    },
    '007_team': teamMigration(dialect),
    '008_file_digest': {
      // a file found under a new name is looked up by its content digest: a rename is the same delivery
      async up(db: Kysely<any>) {
        await db.schema.createIndex('monitor_files_digest').on('monitor_files').columns(['interface_id', 'content_hash']).execute();
      },
    },
    '009_rollup_dimensions_by_interface': rollupDimensionsByInterfaceMigration,
    '010_message_search': messageSearchMigration(dialect),
    '011_failed_message_order': {
      // the failed messages of an interface in the stable order (a message list filtered by interface and status):
      // partial, so it holds only failed messages and a healthy feed's ingest never writes to it
      async up(db: Kysely<any>) {
        await db.schema
          .createIndex('monitor_messages_failed_order')
          .on('monitor_messages')
          .columns(['interface_id', 'received_at', 'file_id', 'index_in_file'])
          .where(sql.ref('is_valid'), '=', 0)
          .execute();
      },
    },
    '011_files_by_write_time': {
      // the unparsable-file rule asks for an interface's newest file written of a state (ingested or unparsable)
      async up(db: Kysely<any>) {
        await db.schema.createIndex('monitor_files_written').on('monitor_files').columns(['interface_id', 'state', 'mtime_ms', 'path']).execute();
      },
    },
    '012_alert_acknowledged_by': alertAcknowledgedByMigration,
    '014_projection_positions': projectionPositionsMigration,
    '013_failed_message_order_all': {
      // the failed messages of every interface in the stable order (the message list filtered by status alone, or
      // by status and error code): without it such a page walked every message in received order, testing each
      async up(db: Kysely<any>) {
        await db.schema
          .createIndex('monitor_messages_failed_all_order')
          .on('monitor_messages')
          .columns(['received_at', 'file_id', 'index_in_file'])
          .where(sql.ref('is_valid'), '=', 0)
          .execute();
      },
    },
    '004_interface_standard': {
      // interfaces made before an interface declared its standard read every file as it comes (auto)
      async up(db: Kysely<any>) {
        await db.schema.alterTable('monitor_interfaces').addColumn('standard', 'varchar(10)', (c) => c.notNull().defaultTo('auto')).execute();
      },
    },
  };
}
