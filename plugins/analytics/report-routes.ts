/**
 * Report routes: generate a report now (html, json, csv or text, built by the monitor's `buildReport`), and the
 * e-mail schedules (create, list, read, delete, and run one now to check the mail settings). Schedule answers never
 * carry SMTP settings.
 */
import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/plugin-api.ts';
import type { Clock } from '../../kernel/clock.ts';
import { timestampInput } from '../../kernel/http/input-validation.ts';
import { interfaceNotFound, monitorReportSchema, REPORT_FORMATS } from '../monitor/api.ts';
import type { AnalyticsSource } from './analytics-source.ts';
import { analyticsErrors } from './analytics-errors.ts';
import { ANALYTICS_EXAMPLES } from './analytics-examples.ts';
import { scheduleSchema } from './analytics-schemas.ts';
import { cronOf, type ReportBuilder, type ReportDelivery, type ReportRenderer } from './report-delivery.ts';
import { REPORT_FREQUENCIES, type ReportSchedule, type ReportScheduleStore } from './report-schedules.ts';
import { analyticsWindow } from './time-window.ts';

/** What the report routes use. */
export interface ReportRouteDeps {
  source: AnalyticsSource;
  buildReport: ReportBuilder;
  renderReport: ReportRenderer;
  schedules: ReportScheduleStore;
  delivery: ReportDelivery;
  clock: Clock;
  /** Whether an SMTP server is configured (a schedule is refused without one). */
  canMail: boolean;
}

/** Whether the runtime knows the IANA time zone. */
function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const withCron = (schedule: ReportSchedule) => ({ ...schedule, cron: cronOf(schedule) });

const scheduleIdParams = z.object({ id: z.string().min(1).max(100) }).strict();

/** Registers the report routes. */
export function registerReportRoutes(routes: RouteRegistrar, deps: ReportRouteDeps): void {
  const { schedules, delivery, clock, source } = deps;

  async function existing(id: string): Promise<ReportSchedule> {
    const schedule = await schedules.get(id);
    if (!schedule) throw analyticsErrors.create('ANALYTICS_SCHEDULE_NOT_FOUND', { id });
    return schedule;
  }

  async function checkInterfaces(ids: string[]): Promise<void> {
    for (const interfaceId of ids) {
      if (!(await source.interfaceExists(interfaceId))) {
        throw interfaceNotFound(interfaceId, 'interfaceIds', 'body');
      }
    }
  }

  routes.route({
    method: 'POST',
    url: '/api/monitor/analytics/reports/generate',
    errors: ['WINDOW_INVALID', 'INTERFACE_NOT_FOUND'],
    summary: 'The monitor report of a window as a file: html, json, csv (one row per interface) or text',
    tags: ['analytics'],
    body: z
      .object({
        format: z.enum(REPORT_FORMATS).default('html'),
        since: timestampInput.optional(),
        until: timestampInput.optional(),
        interfaceIds: z.array(z.string().min(1).max(100)).max(100).optional(),
      })
      .strict(),
    examples: ANALYTICS_EXAMPLES.generate,
    // html, csv and text are files; json is the monitor's report itself
    response: z.union([z.string(), monitorReportSchema]),
    envelope: false,
    async handler({ body }) {
      const window = analyticsWindow(clock.nowMs(), body.since, body.until, 'body');
      if (body.interfaceIds) await checkInterfaces(body.interfaceIds);
      const report = await deps.buildReport({ ...window, ...(body.interfaceIds?.length ? { interfaceIds: body.interfaceIds } : {}) });
      const rendered = deps.renderReport(report, body.format);
      return {
        raw: true,
        contentType: rendered.contentType,
        headers: { 'content-disposition': `attachment; filename="${rendered.fileName}"` },
        body: rendered.body,
      };
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/analytics/reports/schedule',
    errors: ['ANALYTICS_TIME_ZONE_UNKNOWN', 'ANALYTICS_SMTP_NOT_CONFIGURED', 'INTERFACE_NOT_FOUND'],
    summary: 'Schedule a report e-mailed daily, weekly (Mondays) or monthly (the 1st) at an hour of an IANA time zone',
    description: 'Stored in the analytics plugin\'s table (survives restarts), run by the scheduler, sent over the SMTP server of plugins.analytics.smtp.',
    tags: ['analytics'],
    successStatus: 201,
    body: z
      .object({
        frequency: z.enum(REPORT_FREQUENCIES),
        format: z.enum(REPORT_FORMATS).default('html'),
        recipients: z.array(z.email({ error: 'must be an e-mail address such as team@hospital.example' })).min(1).max(50),
        hour: z.number().int().min(0).max(23).default(6),
        timeZone: z.string().min(1).max(64).default('UTC'),
        interfaceIds: z.array(z.string().min(1).max(100)).max(100).default([]),
      })
      .strict(),
    examples: ANALYTICS_EXAMPLES.schedule,
    response: scheduleSchema,
    async handler({ body }) {
      if (!knownTimeZone(body.timeZone)) {
        throw analyticsErrors.create('ANALYTICS_TIME_ZONE_UNKNOWN', { timeZone: body.timeZone }, { field: 'timeZone' });
      }
      if (!deps.canMail) throw analyticsErrors.create('ANALYTICS_SMTP_NOT_CONFIGURED');
      await checkInterfaces(body.interfaceIds);
      const schedule = await schedules.create({ ...body, recipients: [...new Set(body.recipients)] });
      delivery.add(schedule);
      return withCron(schedule);
    },
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/reports/schedule',
    summary: 'Every report schedule with how its last deliveries went',
    tags: ['analytics'],
    examples: ANALYTICS_EXAMPLES.schedules,
    response: z.array(scheduleSchema),
    handler: async () => (await schedules.list()).map(withCron),
  });

  routes.route({
    method: 'GET',
    url: '/api/monitor/analytics/reports/schedule/:id',
    errors: ['ANALYTICS_SCHEDULE_NOT_FOUND'],
    summary: 'One report schedule',
    tags: ['analytics'],
    params: scheduleIdParams,
    examples: ANALYTICS_EXAMPLES.scheduleId,
    response: scheduleSchema,
    handler: async ({ params }) => withCron(await existing(params.id)),
  });

  routes.route({
    method: 'DELETE',
    url: '/api/monitor/analytics/reports/schedule/:id',
    errors: ['ANALYTICS_SCHEDULE_NOT_FOUND'],
    summary: 'Delete a report schedule (its job stops at once)',
    tags: ['analytics'],
    params: scheduleIdParams,
    examples: ANALYTICS_EXAMPLES.scheduleId,
    response: scheduleSchema,
    async handler({ params }) {
      const schedule = await existing(params.id);
      await schedules.remove(schedule.id);
      await delivery.retire(schedule.id);
      return withCron(schedule);
    },
  });

  routes.route({
    method: 'POST',
    url: '/api/monitor/analytics/reports/schedule/:id/run',
    errors: ['ANALYTICS_SCHEDULE_NOT_FOUND'],
    summary: 'Send a schedule\'s report now (with its retries), to check the mail settings; answers how it went',
    tags: ['analytics'],
    params: scheduleIdParams,
    examples: ANALYTICS_EXAMPLES.run,
    response: z.object({ delivered: z.boolean(), attempts: z.number(), reason: z.string().nullable(), schedule: scheduleSchema }),
    async handler({ params }) {
      const outcome = await delivery.deliver(await existing(params.id));
      return { ...outcome, schedule: withCron(await existing(params.id)) };
    },
  });
}
