/**
 * The analytics plugin (monitor base, professional tier): time series, top-N, message and alert queries, dashboards
 * filled from template files, reports generated now or e-mailed on a schedule, and the CSV export (the pages plugin
 * draws them on the monitor's dashboard). Everything is read through the monitor's service contract ({@link MONITOR_SERVICE}); the only table of its own holds the report schedules.
 */
import { join } from 'node:path';
import type { PluginModule } from '../../kernel/plugin-api.ts';
import { resolveService } from '../../kernel/service-ref.ts';
import { MONITOR_SERVICE } from '../monitor/api.ts';
import { analyticsConfigSchema, type AnalyticsConfig } from './analytics-config.ts';
import { analyticsErrors } from './analytics-errors.ts';
import { registerAnalyticsRoutes } from './analytics-routes.ts';
import { DashboardEngine } from './dashboard-engine.ts';
import { loadDashboardTemplates } from './dashboard-templates.ts';
import { ReportDelivery, type ReportBuilder, type ReportRenderer } from './report-delivery.ts';
import { SmtpMailer } from './report-mailer.ts';
import { registerReportRoutes } from './report-routes.ts';
import { ReportScheduleStore, analyticsMigrations } from './report-schedules.ts';

/** The plugin module the kernel loads. */
export const plugin: PluginModule<AnalyticsConfig> = {
  configSchema: analyticsConfigSchema,
  async register(context) {
    const { config, clock, logger } = context;
    context.registerErrors(analyticsErrors.catalogue);
    await context.storage.migrate(analyticsMigrations);
    const monitor = resolveService(context.container, MONITOR_SERVICE);
    // the report is built and rendered by the monitor (its contract's buildReport and renderReport)
    const buildReport: ReportBuilder = (window) => monitor.buildReport(window);
    const renderReport: ReportRenderer = (report, format) => monitor.renderReport(report, format);
    const dashboards = new DashboardEngine(monitor, loadDashboardTemplates(join(context.directory, 'dashboards')));
    const schedules = new ReportScheduleStore(context.storage.db, clock);
    const mailer = config.smtp ? new SmtpMailer(config.smtp, config.delivery.timeoutMs) : undefined;
    const delivery = new ReportDelivery({
      store: schedules,
      source: monitor,
      buildReport,
      renderReport,
      mailer,
      scheduler: context.scheduler,
      clock,
      logger,
      settings: config.delivery,
    });
    context.lifecycle.onStart(() => delivery.start());
    context.lifecycle.onStop(() => delivery.stop());

    registerAnalyticsRoutes(context.routes, { source: monitor, dashboards, clock });
    registerReportRoutes(context.routes, { source: monitor, buildReport, renderReport, schedules, delivery, clock, canMail: mailer !== undefined });
  },
};
