/**
 * SLA reports over the monitor's stored minutes, and the alert rule: an interface whose SLA report over the rolling
 * alert window has used at least alertThresholdPercent of its error budget gets a monitor alert (rule `sla-breach`;
 * a warning that escalates to critical once the SLA is missed), cleared when it recovers. The rule is registered with
 * the monitor (registerAlertRule), which judges it with its own rules; it recomputes at most once a minute per
 * interface. A report counts minutes from when both the interface and its SLA existed, never before.
 */
import type { AlertCondition, AlertRule, MonitorService } from '../monitor/api.ts';
import type { Clock } from '../../kernel/clock.ts';
import { resolveWindow } from '../../kernel/lib/time/time-window.ts';
import { kernelErrors } from '../../kernel/errors.ts';
import { computeSlaReport, type SlaDefinition, type SlaMinuteInput, type SlaReport } from './sla-report.ts';
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
  /** The start asked for; `from` is later when the interface or its SLA did not exist yet. */
  requestedFrom: string;
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
    const window = resolveWindow(from, to, {
      nowMs: this.clock.nowMs(),
      defaultSpanMs: defaultDays * DAY_MS,
      maxSpanMs: MAX_WINDOW_DAYS * DAY_MS,
      names: { since: 'from', until: 'to' },
    });
    return { from: window.since, to: window.until };
  }

  /** The stored SLA, or 404. */
  async require(interfaceId: string): Promise<SlaDefinition> {
    const sla = await this.slas.get(interfaceId);
    if (!sla) throw kernelErrors.create('NOT_FOUND', { what: `An SLA for interface "${interfaceId}"` });
    return { interfaceId: sla.interfaceId, uptimeTarget: sla.uptimeTarget, maxResponseMs: sla.maxResponseMs, alertThresholdPercent: sla.alertThresholdPercent };
  }

  /**
   * The report of an SLA over a window: minutes after now are left out (they have not happened), and so are minutes
   * before the interface or its SLA existed (nothing was promised then); `requestedFrom` keeps the asked start.
   */
  async report(sla: SlaDefinition, window: { from: Date; to: Date }): Promise<WindowedReport> {
    const now = this.clock.now();
    const clampedToNow = window.to > now;
    const to = clampedToNow ? now : window.to;
    const monitored = await this.monitor.getInterface(sla.interfaceId);
    const stored = await this.slas.get(sla.interfaceId);
    const floorMinute = (iso: string | undefined) => (iso ? Math.floor(Date.parse(iso) / 60_000) * 60_000 : Number.NEGATIVE_INFINITY);
    const fromMs = Math.max(window.from.getTime(), floorMinute(monitored?.createdAt), floorMinute(stored?.createdAt));
    const from = new Date(Math.min(fromMs, to.getTime()));
    let rows: SlaMinuteInput[] = [];
    if (from < to) {
      const span = { since: from, until: to };
      const within = new Map((await this.monitor.latencyWithin(sla.interfaceId, sla.maxResponseMs, span)).map((w) => [w.minute, w.within]));
      rows = (await this.monitor.minuteRollups(sla.interfaceId, span)).map((row) => ({ ...row, messagesWithinMs: within.get(row.minute) ?? 0 }));
    }
    return { ...computeSlaReport(sla, rows, { from, to }), requestedFrom: window.from.toISOString(), clampedToNow };
  }

  /** The condition of an interface's SLA over the rolling alert window now (inactive without an SLA). */
  async condition(interfaceId: string): Promise<AlertCondition> {
    const stored = await this.slas.get(interfaceId);
    if (!stored) return { active: false };
    const now = this.clock.now();
    const report = await this.report(stored, { from: new Date(now.getTime() - this.alertWindowHours * 3_600_000), to: now });
    if (!report.alertThresholdReached) return { active: false };
    const used = report.errorBudget.usedPercent === null ? 'all' : `${report.errorBudget.usedPercent}%`;
    return {
      active: true,
      severity: report.met === false ? 'critical' : 'warning',
      title: report.met === false ? 'SLA missed' : 'SLA error budget running out',
      message:
        `Over the last ${this.alertWindowHours} h (from ${report.from}) the interface was up ${report.uptimePercent ?? 0}% of ` +
        `${report.minutes.total - report.minutes.notObserved} observed minutes (target ${stored.uptimeTarget}%): ` +
        `${report.minutes.down} minutes down used ${used} of the error budget (alert threshold ${stored.alertThresholdPercent}%); ` +
        `${report.minutes.notObserved} minutes not observed (the service was not running) are not counted.`,
    };
  }

  /**
   * The SLA alert rule for the monitor's extension point: judged with the monitor's rules, recomputed at most once a
   * minute per interface (the report is made of whole minutes).
   */
  alertRule(): AlertRule {
    const judged = new Map<string, number>();
    return {
      key: SLA_ALERT_RULE,
      evaluate: async (monitored, context) => {
        const minute = Math.floor(context.nowMs / 60_000);
        if (judged.get(monitored.id) === minute) return undefined;
        judged.set(monitored.id, minute);
        return this.condition(monitored.id);
      },
    };
  }

  /** Evaluates every SLA over the rolling alert window now (on demand); answers the interfaces alerted. */
  async evaluateAlerts(): Promise<string[]> {
    const alerted: string[] = [];
    for (const stored of await this.slas.list()) {
      if (!(await this.monitor.interfaceExists(stored.interfaceId))) continue;
      const condition = await this.condition(stored.interfaceId);
      if (!condition.active) {
        await this.monitor.clearAlert(stored.interfaceId, SLA_ALERT_RULE);
        continue;
      }
      await this.monitor.raiseAlert({ interfaceId: stored.interfaceId, rule: SLA_ALERT_RULE, severity: condition.severity, title: condition.title, message: condition.message });
      alerted.push(stored.interfaceId);
    }
    return alerted;
  }
}
