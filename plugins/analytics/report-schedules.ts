/**
 * Report schedules, kept in the analytics plugin's own table (`analytics_report_schedules`), so they survive a
 * restart: what to send (format, recipients, which interfaces), when (frequency, hour, IANA time zone) and how the
 * last deliveries went (last success, last failure and why, failures in a row).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';
import type { ReportFormat } from '../monitor/api.ts';

/** How often a report is sent. */
export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;

/** One of {@link REPORT_FREQUENCIES}. */
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];


/** A stored schedule as the routes answer it. */
export interface ReportSchedule {
  id: string;
  frequency: ReportFrequency;
  format: ReportFormat;
  recipients: string[];
  /** Hour of the day (0-23) in `timeZone` the report is sent at. */
  hour: number;
  /** IANA time zone of `hour` (default UTC). */
  timeZone: string;
  /** Interfaces the report covers; empty: every interface. */
  interfaceIds: string[];
  createdAt: string;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Why the last failed delivery failed (the SMTP server's answer, never a credential). */
  lastFailureReason: string | null;
  /** Failed deliveries since the last success (a delivery counts once, after all its attempts). */
  consecutiveFailures: number;
}

/** What a caller gives to create a schedule. */
export type ReportScheduleInput = Pick<ReportSchedule, 'frequency' | 'format' | 'recipients' | 'hour' | 'timeZone' | 'interfaceIds'>;

interface ScheduleRow {
  id: string;
  frequency: string;
  format: string;
  recipients: string;
  hour: number;
  time_zone: string;
  interface_ids: string;
  created_at: string;
  last_run_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  last_failure_reason: string | null;
  consecutive_failures: number;
}

interface AnalyticsDatabase {
  analytics_report_schedules: ScheduleRow;
}

/** Migrations of the analytics plugin. */
export const analyticsMigrations: Record<string, Migration> = {
  '001_report_schedules': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('analytics_report_schedules')
        .ifNotExists()
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('frequency', 'varchar(10)', (c) => c.notNull())
        .addColumn('format', 'varchar(10)', (c) => c.notNull())
        .addColumn('recipients', 'text', (c) => c.notNull())
        .addColumn('hour', 'integer', (c) => c.notNull())
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
        .addColumn('interface_ids', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('last_run_at', 'varchar(40)')
        .addColumn('last_success_at', 'varchar(40)')
        .addColumn('last_failure_at', 'varchar(40)')
        .addColumn('last_failure_reason', 'varchar(1000)')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};

function toSchedule(row: ScheduleRow): ReportSchedule {
  return {
    id: row.id,
    frequency: row.frequency as ReportFrequency,
    format: row.format as ReportFormat,
    recipients: JSON.parse(row.recipients) as string[],
    hour: Number(row.hour),
    timeZone: row.time_zone,
    interfaceIds: JSON.parse(row.interface_ids) as string[],
    createdAt: row.created_at,
    lastRunAt: row.last_run_at,
    lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at,
    lastFailureReason: row.last_failure_reason,
    consecutiveFailures: Number(row.consecutive_failures),
  };
}

/** Reads and writes the schedules. */
export class ReportScheduleStore {
  private readonly db: Kysely<AnalyticsDatabase>;

  constructor(
    // each plugin types its own tables
    db: Kysely<any>,
    private readonly clock: Clock,
  ) {
    this.db = db as Kysely<AnalyticsDatabase>;
  }

  /** Stores a new schedule. */
  async create(input: ReportScheduleInput): Promise<ReportSchedule> {
    const row: ScheduleRow = {
      id: randomUUID(),
      frequency: input.frequency,
      format: input.format,
      recipients: JSON.stringify(input.recipients),
      hour: input.hour,
      time_zone: input.timeZone,
      interface_ids: JSON.stringify(input.interfaceIds),
      created_at: this.clock.now().toISOString(),
      last_run_at: null,
      last_success_at: null,
      last_failure_at: null,
      last_failure_reason: null,
      consecutive_failures: 0,
    };
    await this.db.insertInto('analytics_report_schedules').values(row).execute();
    return toSchedule(row);
  }

  /** Every schedule, oldest first. */
  async list(): Promise<ReportSchedule[]> {
    const rows = await this.db.selectFrom('analytics_report_schedules').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toSchedule);
  }

  /** One schedule, or undefined. */
  async get(id: string): Promise<ReportSchedule | undefined> {
    const row = await this.db.selectFrom('analytics_report_schedules').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSchedule(row) : undefined;
  }

  /** Removes a schedule; returns whether it existed. */
  async remove(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('analytics_report_schedules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records a delivery that went through. */
  async recordSuccess(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('analytics_report_schedules')
      .set({ last_run_at: at.toISOString(), last_success_at: at.toISOString(), consecutive_failures: 0 })
      .where('id', '=', id)
      .execute();
  }

  /** Records a delivery that failed after all its attempts; returns the failures in a row. */
  async recordFailure(id: string, at: Date, reason: string): Promise<number> {
    const current = await this.get(id);
    const failures = (current?.consecutiveFailures ?? 0) + 1;
    await this.db
      .updateTable('analytics_report_schedules')
      .set({
        last_run_at: at.toISOString(),
        last_failure_at: at.toISOString(),
        last_failure_reason: reason.slice(0, 1000),
        consecutive_failures: failures,
      })
      .where('id', '=', id)
      .execute();
    return failures;
  }
}
