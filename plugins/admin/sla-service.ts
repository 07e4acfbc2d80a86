/**
 * SLA reports over the monitor's stored minutes, and the alert rule: an interface whose SLA report over the rolling
 * alert window has used at least alertThresholdPercent of its error budget gets a monitor alert (rule `sla-breach`;
 * critical once the SLA is missed, warning before), cleared when it recovers.
 */
import type { MonitorService } from '../monitor/api.ts';
import type { Clock } from '../../kernel/clock.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { adminErrors } from './admin-errors.ts';
import { computeSlaReport, type SlaDefinition, type SlaReport } from './sla-report.ts';
import type { SlaStore } from './sla-store.ts';

/** The alert rule key of SLA breaches. */
export const SLA_ALERT_RULE = 'sla-breach';
/** Longest window one report may cover. */
export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;

/** A report with the window as asked and as used. */
export interface WindowedReport extends SlaReport {
  /** True when `to` lay in the future and the report stops at now. */
  clampedToNow: boolean;
}

/** Computes reports and raises or clears SLA alerts. */
export class SlaService {
  constructor(
    private readonly slas: SlaStore,
    private readonly monitor: MonitorService,
    private readonly clock: Clock,
    private readonly alertWindowHours: number,
  ) {}

  /** The window of a request: `to` defaults to now, `from` to `defaultDays` before `to`; checked and bounded. */
  window(from: Date | undefined, to: Date | undefined, defaultDays: number): { from: Date; to: Date } {
    const end = to ?? this.clock.now();
    const start = from ?? new Date(end.getTime() - defaultDays * DAY_MS);
    if (start >= end) throw adminErrors.create('WINDOW_INVALID', { problem: `from (${start.toISOString()}) must lie before to (${end.toISOString()}).` });
    if (end.getTime() - start.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
      throw adminErrors.create('WINDOW_INVALID', { problem: `a window covers at most ${MAX_WINDOW_DAYS} days.` });
    }
    return { from: start, to: end };
  }

  /** The stored SLA, or 404. */
  async require(interfaceId: string): Promise<SlaDefinition> {
    const sla = await this.slas.get(interfaceId);
    if (!sla) throw kernelErrors.create('NOT_FOUND', { what: `An SLA for interface "${interfaceId}"` });
    return { interfaceId: sla.interfaceId, uptimeTarget: sla.uptimeTarget, maxResponseMs: sla.maxResponseMs, alertThresholdPercent: sla.alertThresholdPercent };
  }

  /** The report of an SLA over a window; minutes after now are left out (they have not happened). */
  async report(sla: SlaDefinition, window: { from: Date; to: Date }): Promise<WindowedReport> {
    const now = this.clock.now();
    const clampedToNow = window.to > now;
    const to = clampedToNow ? now : window.to;
    const rows = window.from < to ? await this.monitor.minuteRollups(sla.interfaceId, { since: window.from, until: to }, { withinMs: sla.maxResponseMs }) : [];
    return { ...computeSlaReport(sla, rows, { from: window.from, to: to < window.from ? window.from : to }), clampedToNow };
  }

  /** Evaluates every SLA over the rolling alert window; answers the interfaces alerted. */
  async evaluateAlerts(): Promise<string[]> {
    const now = this.clock.now();
    const window = { from: new Date(now.getTime() - this.alertWindowHours * 3_600_000), to: now };
    const alerted: string[] = [];
    for (const stored of await this.slas.list()) {
      if (!(await this.monitor.interfaceExists(stored.interfaceId))) continue;
      const report = await this.report(stored, window);
      if (!report.alertThresholdReached) {
        await this.monitor.clearAlert(stored.interfaceId, SLA_ALERT_RULE);
        continue;
      }
      const used = report.errorBudget.usedPercent === null ? 'all' : `${report.errorBudget.usedPercent}%`;
      await this.monitor.raiseAlert({
        interfaceId: stored.interfaceId,
        severity: report.met === false ? 'critical' : 'warning',
        rule: SLA_ALERT_RULE,
        title: report.met === false ? 'SLA missed' : 'SLA error budget running out',
        message:
          `Over the last ${this.alertWindowHours} h the interface was up ${report.uptimePercent ?? 0}% of ${report.minutes.total} minutes ` +
          `(target ${stored.uptimeTarget}%): ${report.minutes.down} minutes down used ${used} of the error budget ` +
          `(alert threshold ${stored.alertThresholdPercent}%).`,
      });
      alerted.push(stored.interfaceId);
    }
    return alerted;
  }
}
