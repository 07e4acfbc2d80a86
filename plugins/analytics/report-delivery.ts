/**
 * Runs the report schedules: one kernel-scheduler (node-cron) job per schedule, re-created from the table at start,
 * so schedules survive restarts. A run builds the report through the monitor's `buildReport`, renders it and mails
 * it. A failed delivery is retried with back-off (`retryDelayMs`, doubling), then recorded on the schedule (last
 * failure and why) and raised as an alert; a later success clears that alert. Nothing a delivery does can crash the
 * service: every failure ends as a recorded fact and a log line (never with the SMTP password).
 *
 * A delivery failure is a system alert: about the schedule, not about any interface, so it never changes an
 * interface's state (the interfaces a report covers are not at fault when the mail server is). The episode key is
 * `report-delivery:<schedule id>`: one open alert per failing schedule, however many runs fail; a success ends it,
 * and so does deleting the schedule (its cause is gone). At start, delivery alerts left on an interface by older
 * versions, and those of schedules deleted meanwhile, are ended.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../kernel/clock.ts';
import type { JobScheduler, ScheduledJob } from '../../kernel/background/scheduler.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import type { MailSender, ReportMail } from './report-mailer.ts';
import type { MonitorReport, RenderedReport, ReportFormat } from '../monitor/api.ts';
import type { ReportSchedule, ReportScheduleStore } from './report-schedules.ts';

/** Builds the monitor's report of a window (the monitor's `buildReport`). */
export type ReportBuilder = (window: { since: Date; until: Date; interfaceIds?: string[] }) => Promise<MonitorReport>;

/** Renders the monitor's report in one format (the monitor's `renderReport`). */
export type ReportRenderer = (report: MonitorReport, format: ReportFormat) => RenderedReport;

/** Retry settings of a delivery. */
export interface DeliverySettings {
  attempts: number;
  retryDelayMs: number;
}

/** The cron expression of a schedule: at minute 0 of its hour, every day, every Monday or every 1st of a month. */
export function cronOf(schedule: Pick<ReportSchedule, 'frequency' | 'hour'>): string {
  switch (schedule.frequency) {
    case 'daily':
      return `0 ${schedule.hour} * * *`;
    case 'weekly':
      return `0 ${schedule.hour} * * 1`;
    case 'monthly':
      return `0 ${schedule.hour} 1 * *`;
  }
}

/** The window a run reports: the day, week or month before the run. */
export function reportWindow(frequency: ReportSchedule['frequency'], now: Date): { since: Date; until: Date } {
  const since = new Date(now);
  if (frequency === 'daily') since.setUTCDate(since.getUTCDate() - 1);
  else if (frequency === 'weekly') since.setUTCDate(since.getUTCDate() - 7);
  else since.setUTCMonth(since.getUTCMonth() - 1);
  return { since, until: now };
}

/** The alert episode key of a schedule's delivery failures. */
export const deliveryRule = (scheduleId: string) => `report-delivery:${scheduleId}`;

/** What one delivery came to. */
export interface DeliveryOutcome {
  delivered: boolean;
  attempts: number;
  reason: string | null;
}

/** Dependencies of {@link ReportDelivery}. */
export interface ReportDeliveryDeps {
  store: ReportScheduleStore;
  source: AnalyticsSource;
  buildReport: ReportBuilder;
  renderReport: ReportRenderer;
  /** Undefined when no SMTP server is configured: schedules are kept but cannot run. */
  mailer: MailSender | undefined;
  scheduler: JobScheduler;
  clock: Clock;
  logger: Logger;
  settings: DeliverySettings;
}

/** Runs and retries the schedules. */
export class ReportDelivery {
  private readonly jobs = new Map<string, ScheduledJob>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private stopped = false;

  constructor(private readonly deps: ReportDeliveryDeps) {}

  /** Schedules every stored schedule (at start) and ends the delivery alerts whose cause is gone. */
  async start(): Promise<void> {
    const schedules = await this.deps.store.list();
    for (const schedule of schedules) this.add(schedule);
    await this.endStrayAlerts(new Set(schedules.map((schedule) => schedule.id)));
  }

  /**
   * Ends open delivery alerts that no longer stand for a failing schedule: one left on an interface (raised there
   * before delivery failures became system alerts) and one of a schedule that no longer exists.
   */
  private async endStrayAlerts(scheduleIds: ReadonlySet<string>): Promise<void> {
    try {
      for (const alert of await this.deps.source.listAlerts({ since: new Date(0) })) {
        if (alert.clearedAt !== null || !alert.rule.startsWith(deliveryRule(''))) continue;
        const scheduleId = alert.rule.slice(deliveryRule('').length);
        if (alert.interfaceId === null && scheduleIds.has(scheduleId)) continue;
        await this.deps.source.clearAlert(alert.interfaceId, alert.rule);
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'stray report delivery alerts could not be ended');
    }
  }

  /** Schedules one schedule's job. */
  add(schedule: ReportSchedule): void {
    const job = this.deps.scheduler.schedule(
      `analytics-report-${schedule.id}`,
      cronOf(schedule),
      async () => {
        const current = await this.deps.store.get(schedule.id);
        if (current) await this.deliver(current);
      },
      { timeZone: schedule.timeZone },
    );
    this.jobs.set(schedule.id, job);
  }

  /** Stops one schedule's job. */
  remove(id: string): void {
    this.jobs.get(id)?.stop();
    this.jobs.delete(id);
  }

  /** A schedule was deleted: its job stops and its delivery alert ends (its cause is gone). */
  async retire(id: string): Promise<void> {
    this.remove(id);
    await this.clearAlert(id);
  }

  /** Whether a job is scheduled for the schedule. */
  scheduled(id: string): boolean {
    return this.jobs.has(id);
  }

  /**
   * The mail of a schedule's report: always an HTML body with the figures and a text alternative (a text schedule
   * gets the text only); a csv or json schedule also gets the report attached in that format.
   */
  mailOf(schedule: ReportSchedule, report: MonitorReport): ReportMail {
    const attached = schedule.format === 'csv' || schedule.format === 'json' ? this.deps.renderReport(report, schedule.format) : undefined;
    return {
      to: schedule.recipients,
      subject: `Interface report (${schedule.frequency}) ${report.windowStart.slice(0, 10)} to ${report.windowEnd.slice(0, 10)}: ${report.totals.messages} messages, ${report.totals.failed} failed`,
      text: this.deps.renderReport(report, 'text').body,
      ...(schedule.format === 'text' ? {} : { html: this.deps.renderReport(report, 'html').body }),
      attachments: attached ? [{ filename: attached.fileName, content: attached.body, contentType: attached.contentType }] : [],
    };
  }

  /** Builds, renders and sends one schedule's report, retrying with back-off; records and alerts the outcome. */
  async deliver(schedule: ReportSchedule): Promise<DeliveryOutcome> {
    const { settings, logger } = this.deps;
    let reason = 'no SMTP server is configured (plugins.analytics.smtp)';
    let attempts = 0;
    if (this.deps.mailer) {
      for (attempts = 1; attempts <= settings.attempts && !this.stopped; attempts++) {
        try {
          const report = await this.deps.buildReport({
            ...reportWindow(schedule.frequency, this.deps.clock.now()),
            ...(schedule.interfaceIds.length > 0 ? { interfaceIds: schedule.interfaceIds } : {}),
          });
          await this.deps.mailer.send(this.mailOf(schedule, report));
          await this.deps.store.recordSuccess(schedule.id, this.deps.clock.now());
          await this.clearAlert(schedule.id);
          logger.info({ schedule: schedule.id, recipients: schedule.recipients.length, attempts }, 'report e-mailed');
          return { delivered: true, attempts, reason: null };
        } catch (error) {
          reason = (error as Error).message;
          logger.warn({ schedule: schedule.id, attempt: attempts, reason }, 'report delivery failed');
          if (attempts < settings.attempts) await this.wait(settings.retryDelayMs * 2 ** (attempts - 1));
        }
      }
      attempts = Math.min(attempts, settings.attempts);
    }
    const failures = await this.deps.store.recordFailure(schedule.id, this.deps.clock.now(), reason);
    // a schedule deleted while its delivery ran has no alert left to raise
    if (await this.deps.store.get(schedule.id)) await this.raiseAlert(schedule, reason, failures);
    return { delivered: false, attempts, reason };
  }

  private async raiseAlert(schedule: ReportSchedule, reason: string, failures: number): Promise<void> {
    try {
      await this.deps.source.raiseAlert({
        interfaceId: null,
        severity: 'warning',
        rule: deliveryRule(schedule.id),
        title: `Scheduled ${schedule.frequency} report could not be e-mailed`,
        message: `The ${schedule.format} report for ${schedule.recipients.join(', ')} failed ${failures} time(s) in a row: ${reason}`,
      });
    } catch (error) {
      this.deps.logger.error({ err: error, schedule: schedule.id }, 'report delivery alert could not be raised');
    }
  }

  private async clearAlert(scheduleId: string): Promise<void> {
    try {
      await this.deps.source.clearAlert(null, deliveryRule(scheduleId));
    } catch (error) {
      this.deps.logger.error({ err: error, schedule: scheduleId }, 'report delivery alert could not be cleared');
    }
  }

  /** A back-off wait that shutdown ends at once. */
  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.waits.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.waits.add(entry);
    });
  }

  /** Stops every job and ends every back-off wait (the deliveries then give up); safe to call twice. */
  stop(): void {
    this.stopped = true;
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
    for (const entry of this.waits) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.waits.clear();
    this.deps.mailer?.close();
  }
}
