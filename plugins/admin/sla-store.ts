/** SLA definitions, one per monitored interface (upserted). */
import type { Kysely, Migration } from 'kysely';
import type { SlaDefinition } from './sla-report.ts';

interface SlaRow {
  interface_id: string;
  uptime_target: number;
  max_response_ms: number;
  alert_threshold_percent: number;
  created_at: string;
  updated_at: string;
}

/** A stored SLA with its dates. */
export interface StoredSla extends SlaDefinition {
  createdAt: string;
  updatedAt: string;
}

/** Migrations of the SLA table. */
export const slaMigrations: Record<string, Migration> = {
  '002_slas': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('admin_slas')
        .ifNotExists()
        .addColumn('interface_id', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('uptime_target', 'double precision', (c) => c.notNull())
        .addColumn('max_response_ms', 'integer', (c) => c.notNull())
        .addColumn('alert_threshold_percent', 'double precision', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
  },
};

function toSla(row: SlaRow): StoredSla {
  return {
    interfaceId: row.interface_id,
    uptimeTarget: Number(row.uptime_target),
    maxResponseMs: Number(row.max_response_ms),
    alertThresholdPercent: Number(row.alert_threshold_percent),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Reads and writes SLA definitions. */
export class SlaStore {
  constructor(private readonly db: Kysely<{ admin_slas: SlaRow }>) {}

  /** The SLA of an interface, if defined. */
  async get(interfaceId: string): Promise<StoredSla | undefined> {
    const row = await this.db.selectFrom('admin_slas').selectAll().where('interface_id', '=', interfaceId).executeTakeFirst();
    return row ? toSla(row) : undefined;
  }

  /** Every SLA. */
  async list(): Promise<StoredSla[]> {
    return (await this.db.selectFrom('admin_slas').selectAll().orderBy('interface_id').execute()).map(toSla);
  }

  /** Creates or replaces the SLA of an interface; answers it and whether it was new. */
  async upsert(sla: SlaDefinition, at: string): Promise<{ sla: StoredSla; created: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx.selectFrom('admin_slas').select('created_at').where('interface_id', '=', sla.interfaceId).executeTakeFirst();
      const row: SlaRow = {
        interface_id: sla.interfaceId,
        uptime_target: sla.uptimeTarget,
        max_response_ms: sla.maxResponseMs,
        alert_threshold_percent: sla.alertThresholdPercent,
        created_at: previous?.created_at ?? at,
        updated_at: at,
      };
      await trx.deleteFrom('admin_slas').where('interface_id', '=', sla.interfaceId).execute();
      await trx.insertInto('admin_slas').values(row).execute();
      return { sla: toSla(row), created: previous === undefined };
    });
  }

  /** Removes the SLA of an interface; false when there was none. */
  async remove(interfaceId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('admin_slas').where('interface_id', '=', interfaceId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
