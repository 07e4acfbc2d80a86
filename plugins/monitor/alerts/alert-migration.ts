/** Migration `004_alert_escalation`: when an episode's severity last rose (one alert per episode, escalating). */
import type { Kysely, Migration } from 'kysely';

/** Adds `escalated_at` to the alerts. */
export const alertEscalationMigration: Migration = {
  // migrations run before table types exist
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitor_alerts').addColumn('escalated_at', 'varchar(30)').execute();
  },
};

/** Migration `012_alert_acknowledged_by`: who acknowledged an alert (the alert history names them). */
export const alertAcknowledgedByMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('monitor_alerts').addColumn('acknowledged_by', 'varchar(300)').execute();
  },
};
